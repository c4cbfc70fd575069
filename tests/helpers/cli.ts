/**
 * The `sdk` command line as a subprocess, for end-to-end tests: `deno run cli/bin.ts <args>` in a
 * folder, with the environment given (a test model's variables, a run folder of its own).
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** How a run of `sdk` ended. */
export interface SdkRun {
  /** Its exit code. */
  code: number;
  /** Its standard output. */
  stdout: string;
  /** Its standard error. */
  stderr: string;
}

const MAIN = fileURLToPath(new URL("../../cli/bin.ts", import.meta.url));

/**
 * Runs `sdk <args>` in `cwd` with `env` added to this process's environment, without input.
 *
 * @returns its exit code and output.
 */
export async function runSdk(
  cwd: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<SdkRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    cwd,
    env,
    stdin: "null",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}
