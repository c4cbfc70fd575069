/**
 * Device platforms' scripts in `sdk run`: a file with a `mobilea`, `mobileb` or `mobilec` section
 * runs through that platform package's `run...Yaml`, which creates the device agent from
 * the section. The package is loaded only when such a file runs: it is an optional peer of
 * `@sdk/web`, so a web-only install does not pull in adb's client.
 *
 * It is loaded by a name no import shows: the platform packages' `testing` entries import
 * `@sdk/web/testing`, and Deno's publish refuses packages that import each other.
 *
 * @module
 */

import type { AgentOptions, RunYamlResult } from "@sdk/core";

// A Function-made import is left alone by Deno's publish analysis and by bundlers; it resolves at
// run time from wherever the program runs (a Node project's node_modules, a Deno import map).
const importModule = new Function("specifier", "return import(specifier)") as (
  specifier: string,
) => Promise<Record<string, unknown>>;

/** What the command line reads of a platform's agent after the run. */
export interface PlatformRunAgent {
  /** The report's path once the agent is destroyed; `undefined`/`null` without a report. */
  readonly reportFile?: string | null;
}

/** Options the command line gives a platform's runner. */
export interface PlatformRunOptions {
  /** Agent options that outrank the file's sections (the command line's flags). */
  agentOptions?: AgentOptions;
  /** The script's file, when `script` is its text: named in errors, and the cache id's source. */
  fileName?: string;
  /** Stops the run between items (Ctrl+C). */
  signal?: AbortSignal;
  /** Called with the agent once it exists. */
  onAgent?: (agent: PlatformRunAgent) => void;
}

/** A platform package's runner of script files, as `runMobileAYaml` is. */
export type PlatformScriptRunner = (
  script: string,
  options: PlatformRunOptions,
) => Promise<RunYamlResult>;

interface PlatformEntry {
  /** The npm / workspace package. */
  pkg: string;
  /** Its runner's export name. */
  runner: string;
}

const PLATFORMS: Readonly<Record<string, PlatformEntry>> = {
  mobilea: { pkg: "@sdk/mobilea", runner: "runMobileAYaml" },
  mobileb: { pkg: "@sdk/mobileb", runner: "runMobileBYaml" },
  mobilec: { pkg: "@sdk/mobilec", runner: "runMobileCYaml" },
};

/**
 * The runner of a device platform's section.
 *
 * @param section the file's target section, e.g. `"mobilea"`.
 * @throws {Error} when the section has no platform here yet, or when its package is not
 * installed (the message says which package to install).
 */
export async function platformScriptRunner(section: string): Promise<PlatformScriptRunner> {
  const entry = PLATFORMS[section];
  if (entry === undefined) {
    throw new Error(
      `'${section}' scripts do not run in this version of sdk run; it runs 'web' scripts and ` +
        `${Object.keys(PLATFORMS).map((k) => `'${k}'`).join(", ")} scripts`,
    );
  }
  let runner: unknown;
  try {
    runner = (await importModule(entry.pkg))[entry.runner];
  } catch (e) {
    throw new Error(
      `a '${section}' script runs through ${entry.runner} of ${entry.pkg}, which could not be ` +
        `loaded (${(e as Error).message}): install it next to @sdk/web (npm install ${entry.pkg})`,
    );
  }
  if (typeof runner !== "function") {
    throw new Error(
      `a '${section}' script runs through ${entry.runner} of ${entry.pkg}, which this ` +
        `${entry.pkg} does not export: install the version released with this @sdk/web`,
    );
  }
  return runner as PlatformScriptRunner;
}
