/**
 * How much a script is trusted (docs/security.md, "Running scripts you did not write").
 *
 * In every mode a script never reads the SDK's own secrets: `${SDK_MODEL_API_KEY}` (any
 * `SDK_*` variable whose name ends in `API_KEY`, `TOKEN`, `SECRET` or `PASSWORD`, and the
 * `SDK_*_EXTRA_BODY_JSON` that may carry a key) is an error with the file, line and column, so a
 * script cannot put the model's key in a URL or type it into a page.
 *
 * A script marked `untrusted` (a pull request's file in CI, a downloaded example) reads only the
 * variables the caller names (`allowEnv`, `sdk run --env NAME`); ./untrusted_check.ts refuses the
 * rest of what such a script may not do.
 *
 * @module
 */

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

/** Name endings of the SDK's secret variables, which no script reads. */
const SECRET_SUFFIX = /(API_KEY|TOKEN|SECRET|PASSWORD|EXTRA_BODY_JSON)$/;

/**
 * Whether `name` is one of the SDK's own secret variables (the model's keys, its extra body, the
 * bridge's token, the RDP password), which a script never reads.
 */
export function isSdkSecretVariable(name: string): boolean {
  return name.startsWith("SDK_") && SECRET_SUFFIX.test(name);
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
