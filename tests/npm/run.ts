/**
 * Running commands for the npm tests: a command's output, or an error with the tail of its
 * output, and an environment whose `node` is a given binary.
 *
 * @module
 */

import { execFile } from "node:child_process";
import { delimiter, dirname } from "node:path";
import process from "node:process";

/** A child process's environment. */
export type Env = Record<string, string | undefined>;

/**
 * Runs a command and returns its output.
 *
 * @throws {Error} naming the command, its exit code and the tail of its output when it fails.
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  options: { env?: Env; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, {
      cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 32 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      const tail = (text: string) => text.split("\n").slice(-40).join("\n");
      reject(
        new Error(
          `'${command} ${args.join(" ")}' in ${cwd} failed (${
            error.killed ? "killed after timeout" : `exit code ${error.code}`
          })\n--- stdout ---\n${tail(stdout)}\n--- stderr ---\n${tail(stderr)}`,
        ),
      );
    });
  });
}

/** The environment with `node` (and so npm, through its `#!/usr/bin/env node`) being `nodeBinary`. */
export function envWithNode(nodeBinary: string, base: Env = process.env): Env {
  return { ...base, PATH: [dirname(nodeBinary), base.PATH].join(delimiter) };
}
