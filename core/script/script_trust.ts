/**
 * How much a script is trusted (docs/security.md, "Running scripts you did not write").
 *
 * In every mode a script never reads the SDK's own secrets: `${SDK_MODEL_API_KEY}` (the model's
 * keys and extra bodies of every intent, `SDK_BRIDGE_TOKEN`, `SDK_RDP_PASSWORD`) is an error with
 * the file, line and column, so a script cannot put the model's key in a URL or type it into a
 * page.
 *
 * A script marked `untrusted` (a pull request's file in CI, a downloaded example) reads only the
 * variables the caller names (`allowEnv`, `sdk run --env NAME`); ./untrusted_check.ts refuses the
 * rest of what such a script may not do.
 *
 * @module
 */

import { MODEL_CONFIG_KEYS } from "../model/config.ts";

/** What the caller says about a script's origin, for the runners' options. */
export interface ScriptTrustOptions {
  /**
   * The script is not yours: before anything runs, refuse shell and driver-request items,
   * `javascript` items, section keys that add powers beyond the screen or name programs to run,
   * the script's own `modelConfig`, reads of environment variables other than `allowEnv`, and
   * file paths outside `workDir` (docs/security.md). Default `false`.
   */
  untrusted?: boolean;
  /** With `untrusted`: the environment variables the script may read. Default none. */
  allowEnv?: readonly string[];
  /**
   * With `untrusted`: the folder every file the script names must lie in (`output`, uploads,
   * `serve`, `cookie`, the cache folder, prompt images). Default: the working directory.
   */
  workDir?: string;
}

/** The SDK's own secret variables besides the model's (see {@link isSdkSecretVariable}). */
const SDK_SECRETS = new Set(["SDK_BRIDGE_TOKEN", "SDK_RDP_PASSWORD"]);

/**
 * Whether `name` is one of the SDK's own secret variables, which a script never reads: the
 * model's keys and extra bodies of every intent (`SDK_MODEL_API_KEY`,
 * `SDK_PLANNING_MODEL_EXTRA_BODY_JSON`, ...), the bridge's pairing token and the RDP password.
 * Your own variables are yours (`SDK_E2E_PASSWORD` is read as any other).
 */
export function isSdkSecretVariable(name: string): boolean {
  return SDK_SECRETS.has(name) ||
    (MODEL_CONFIG_KEYS.includes(name) && /(API_KEY|EXTRA_BODY_JSON)$/.test(name));
}

/**
 * Why a script may not read the variable `name`, or `undefined` when it may.
 *
 * @param name the variable a `${NAME}` reads.
 * @param trust the run's trust options.
 */
export function envRefusal(name: string, trust: ScriptTrustOptions = {}): string | undefined {
  if (isSdkSecretVariable(name)) {
    return `'${name}' is one of the SDK's own secrets (the model's key and the like): a script ` +
      `never reads it`;
  }
  if (trust.untrusted && !(trust.allowEnv ?? []).includes(name)) {
    return `this script is untrusted and may read only the variables named with --env ` +
      `(allowEnv): '${name}' is not one of them${
        trust.allowEnv?.length ? ` (${trust.allowEnv.join(", ")})` : ""
      }`;
  }
  return undefined;
}
