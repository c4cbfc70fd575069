/**
 * The platforms of the command line, one registry for `sdk run` and `sdk mcp`: a script file
 * with a device platform's section (`mobilea`, ...) goes to the {@link ScriptPlatform} that
 * package exports. A package is loaded only when such a file runs: each is an optional peer of
 * `@sdk/cli`, so a web-only install does not pull in adb's client.
 *
 * @module
 */

import type { ScriptPlatform } from "@sdk/core/script";
import { MissingDependencyError, UnsupportedActionError } from "@sdk/core";

interface PlatformPackage {
  /** The npm / workspace package, for messages. */
  pkg: string;
  /** Loads its {@link ScriptPlatform}, when `sdk run` runs its section through it. */
  load?(): Promise<ScriptPlatform>;
}

/**
 * Every platform the command line knows, by its script section's key: its package and, where
 * `sdk run` runs its section through the package, the loader of its {@link ScriptPlatform}
 * (web scripts run in the command line itself, which shares one browser between files). The
 * connect tools of `sdk mcp` are keyed by the same names (`cli/mcp/targets.ts`), so the type
 * checker catches a platform without one.
 */
const PLATFORMS = {
  web: { pkg: "@sdk/web" },
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
} satisfies Record<string, PlatformPackage>;

/** A platform's key: its script section's (`web`, `mobilea`, ..., `computer`). */
export type PlatformKey = keyof typeof PLATFORMS;

/** The package of a platform, named where it is loaded. */
export function platformPackage(key: PlatformKey): string {
  return PLATFORMS[key].pkg;
}

/**
 * The platform that runs a device section's scripts.
 *
 * @param section the file's target section, e.g. `"mobilea"`.
 * @throws {UnsupportedActionError} when the section has no platform here yet.
 * @throws {MissingDependencyError} when its package is not installed (the message says which
 * package to install).
 */
export async function scriptPlatform(section: string): Promise<ScriptPlatform> {
  const runners = Object.entries(PLATFORMS as Record<string, PlatformPackage>)
    .filter(([, p]) => p.load !== undefined);
  const entry = runners.find(([key]) => key === section)?.[1];
  if (entry?.load === undefined) {
    throw new UnsupportedActionError(
      `'${section}' scripts do not run in this version of sdk run; it runs 'web' scripts and ` +
        `${runners.map(([k]) => `'${k}'`).join(", ")} scripts`,
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
