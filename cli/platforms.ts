/**
 * The device platforms whose scripts `sdk run` runs: a file with a `mobilea`, `mobileb`,
 * `mobilec` or `computer` section goes to the {@link ScriptPlatform} that package exports. A package is loaded
 * only when such a file runs: each is an optional peer of `@sdk/cli`, so a web-only install does
 * not pull in adb's client.
 *
 * @module
 */

import type { ScriptPlatform } from "@sdk/core/script";
import { MissingDependencyError, UnsupportedActionError } from "@sdk/core";

interface PlatformPackage {
  /** The npm / workspace package, for messages. */
  pkg: string;
  load(): Promise<ScriptPlatform>;
}

const PLATFORMS: Readonly<Record<string, PlatformPackage>> = {
  mobilea: {
    pkg: "@sdk/mobilea",
    load: async () => (await import("@sdk/mobilea")).mobileAScriptPlatform,
  },
  mobileb: {
    pkg: "@sdk/mobileb",
    load: async () => (await import("@sdk/mobileb")).mobileBScriptPlatform,
  },
  mobilec: {
    pkg: "@sdk/mobilec",
    load: async () => (await import("@sdk/mobilec")).mobileCScriptPlatform,
  },
  computer: {
    pkg: "@sdk/computer",
    load: async () => (await import("@sdk/computer")).computerScriptPlatform,
  },
};

/**
 * The platform that runs a device section's scripts.
 *
 * @param section the file's target section, e.g. `"mobilea"`.
 * @throws {UnsupportedActionError} when the section has no platform here yet.
 * @throws {MissingDependencyError} when its package is not installed (the message says which
 * package to install).
 */
export async function scriptPlatform(section: string): Promise<ScriptPlatform> {
  const entry = PLATFORMS[section];
  if (entry === undefined) {
    throw new UnsupportedActionError(
      `'${section}' scripts do not run in this version of sdk run; it runs 'web' scripts and ` +
        `${Object.keys(PLATFORMS).map((k) => `'${k}'`).join(", ")} scripts`,
      section,
    );
  }
  try {
    return await entry.load();
  } catch (e) {
    throw new MissingDependencyError(
      `a '${section}' script runs through ${entry.pkg}, which could not be loaded ` +
        `(${(e as Error).message}): install it next to @sdk/cli (npm install ${entry.pkg})`,
      entry.pkg,
      { cause: e },
    );
  }
}
