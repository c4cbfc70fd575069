/**
 * `iOSDeviceClassOverride` and `SDK_MOBILEB_DEVICE_CLASS_OVERRIDE` (spec 4.9): a module that
 * exports a device class to use instead of {@link MobileBDevice}, for example one that subclasses
 * it to add actions or to reach WebDriverAgent another way.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { getEnv, MissingDependencyError, SdkTypeError } from "@sdk/core";
import { MobileBDevice } from "./device.ts";
import type { MobileBDeviceOptions } from "./options.ts";

/** The environment variable that names the override module (the option outranks it). */
export const DEVICE_CLASS_OVERRIDE_ENV = "SDK_MOBILEB_DEVICE_CLASS_OVERRIDE";

/** A device class: constructed with the device options, as `MobileBDevice` is. */
export type MobileBDeviceClass = new (options: MobileBDeviceOptions) => MobileBDevice;

// What MobileBAgent calls on its device beyond the seam.
const REQUIRED_METHODS = [
  "connect",
  "screenshotBase64",
  "size",
  "actionSpace",
  "launch",
  "terminate",
  "home",
  "appSwitcher",
  "runDriverRequest",
  "useAppNameMapping",
  "destroy",
] as const;

/**
 * The device class to use: the override module's when `option` or the environment variable names
 * one, else {@link MobileBDevice}. A path (`./my_device.ts`, `/abs/dev.js`) is resolved against
 * the working directory; anything else (`npm:pkg`, `file:///...`, a bare package name) is
 * imported as written. The module's default export is used when it is a class, else its first
 * named export that is one.
 *
 * @throws {MissingDependencyError} naming the module when it cannot be imported.
 * @throws {SdkTypeError} naming the module when it exports no class, or its class lacks a method
 * `MobileBAgent` needs (the message lists them).
 */
export async function loadDeviceClass(option?: string): Promise<MobileBDeviceClass> {
  const specifier = (option ?? getEnv(DEVICE_CLASS_OVERRIDE_ENV))?.trim();
  if (!specifier) return MobileBDevice;
  const from = option?.trim() ? "iOSDeviceClassOverride" : DEVICE_CLASS_OVERRIDE_ENV;
  const url = /^\.{0,2}[\\/]/.test(specifier) || isAbsolute(specifier)
    ? pathToFileURL(resolve(specifier)).href
    : specifier;
  let module: Record<string, unknown>;
  try {
    module = await importModule(url);
  } catch (error) {
    throw new MissingDependencyError(
      `Cannot load the device class of ${from} ${JSON.stringify(specifier)}: ${
        (error as Error).message
      }`,
      specifier,
      { cause: error },
    );
  }
  const candidates = [module.default, ...Object.values(module)];
  const found = candidates.find(isClass);
  if (!found) {
    throw new SdkTypeError(
      `The module of ${from} ${JSON.stringify(specifier)} exports no class: export the device ` +
        "class as its default export (export default class MyDevice extends MobileBDevice {...}) " +
        "or as a named export",
    );
  }
  const missing = REQUIRED_METHODS.filter((m) =>
    typeof (found.prototype as Record<string, unknown>)[m] !== "function"
  );
  if (missing.length > 0) {
    throw new SdkTypeError(
      `The device class ${found.name || "(anonymous)"} of ${from} ${
        JSON.stringify(specifier)
      } lacks ${missing.join(", ")}: extend MobileBDevice of @sdk/mobileb`,
    );
  }
  return found as unknown as MobileBDeviceClass;
}

// The user's module is known only at run time: an `import()` through `Function` keeps
// `deno publish` and bundlers from trying to analyze it (core's runtime loads modules the same
// way). `url` is absolute (a file URL) or a registry specifier, so no referrer is needed.
const importModule = new Function("url", "return import(url)") as (
  url: string,
) => Promise<Record<string, unknown>>;

function isClass(
  value: unknown,
): value is { new (...args: unknown[]): unknown; prototype: object } {
  return typeof value === "function" &&
    /^class\b/.test(Function.prototype.toString.call(value));
}
