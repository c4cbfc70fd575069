/**
 * The optional peers `@sdk/web` loads at run time (private to the package): a package the user
 * installs next to `@sdk/web` when they use what needs it. One that is missing is a
 * `MissingDependencyError` naming it and how to install it, not the runtime's module error.
 *
 * `puppeteer-core` is never loaded here: DriverA's agents take the caller's own pages, so only
 * its types are used.
 *
 * @module
 */

import { MissingDependencyError } from "./_core.ts";

/**
 * `playwright-core`, loaded when a browser is launched: an optional peer of `@sdk/web` in the npm
 * build, so an app that brings its own pages (or puppeteer-core) need not install it.
 *
 * @throws {MissingDependencyError} (dependency `"playwright-core"`) when it is not installed.
 */
export async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  try {
    return await import("playwright-core");
  } catch (error) {
    throw missingPeer("playwright-core", "launch Chromium", error);
  }
}

/**
 * The error for an optional peer package that could not be loaded: names it and how to install
 * it, and keeps the loader's error as `cause`.
 *
 * @param name the package, e.g. `"playwright-core"`.
 * @param purpose what it is needed for, e.g. `"launch Chromium"`.
 * @param cause the import's error.
 */
function missingPeer(name: string, purpose: string, cause: unknown): MissingDependencyError {
  return new MissingDependencyError(
    `@sdk/web needs ${name} to ${purpose}, and it could not be loaded (${
      (cause as Error)?.message ?? cause
    }): install it next to @sdk/web (npm install ${name}; with Deno, import it as npm:${name})`,
    name,
    { cause },
  );
}
