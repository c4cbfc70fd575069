/**
 * Checks of the options an agent's calls take (spec 4.2, 4.3), made before anything runs.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";
import type { ElementsDescriptionOptions } from "../device/types.ts";
import type { ExtractOptions, LocateOptions } from "../session/options.ts";
import { isCacheRecord } from "../session/cache_file.ts";

/** Whether a prompt is the object form (`{ prompt, images }`, spec 2.5). */
export function isPromptObject(v: unknown): v is { prompt: string } {
  return typeof v === "object" && v !== null && "prompt" in v;
}

/**
 * Throws a `TypeError` for an `xpath` that is set but not a non-empty string, or a `locator` that
 * is not a location record's fields.
 */
export function checkLocateOptions(api: string, opt: LocateOptions | undefined): void {
  const locator = opt?.locator;
  if (
    locator !== undefined &&
    !(typeof locator === "object" && isCacheRecord({ ...locator, type: "locate", prompt: "" }))
  ) {
    throw new SdkTypeError(
      `${api}: locator must be a location as an exported script writes it, { xpaths: [...], target?: { kind, ... } }: got ${
        JSON.stringify(locator)
      }`,
    );
  }
  const xpath = opt?.xpath;
  if (xpath !== undefined && (typeof xpath !== "string" || xpath.trim() === "")) {
    throw new SdkTypeError(
      `${api}: xpath must be a non-empty XPath expression such as "//button[@id='save']", got ${
        JSON.stringify(xpath)
      }`,
    );
  }
}

/** Reads `domIncluded` (spec 4.3): `true` all elements, `'visible-only'` visible ones, unset none. */
export function domOption(
  api: string,
  domIncluded: ExtractOptions["domIncluded"],
): ElementsDescriptionOptions | undefined {
  if (domIncluded === undefined || domIncluded === false) return undefined;
  if (domIncluded === true || domIncluded === "visible-only") {
    return { visibleOnly: domIncluded === "visible-only" };
  }
  throw new SdkRangeError(
    `${api}: 'domIncluded' must be true, false or 'visible-only': current value is ${
      JSON.stringify(domIncluded)
    }`,
  );
}

/** Throws a `RangeError` naming the API and option unless `v` is absent or a finite number > 0. */
export function checkPositive(api: string, name: string, v: number | undefined): void {
  if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v > 0)) {
    throw new SdkRangeError(`${api}: '${name}' must be a finite number > 0: current value is ${v}`);
  }
}
