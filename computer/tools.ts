/**
 * The programs the desktop runs (Xvfb, xrandr, xfreerdp, xwininfo): found on `PATH` before they
 * are spawned, so that a missing one fails at once with what to install (Deno reports a missing
 * binary only asynchronously, with the child's extra pipes undefined), and their error output
 * trimmed of noise to name a failure.
 *
 * @module
 */

import { accessSync, constants, statSync } from "node:fs";
import process from "node:process";

/**
 * The path of `file` on `PATH` when it is there and executable, else `undefined`. A name with a
 * slash is checked as it is.
 */
export function findExecutable(file: string): string | undefined {
  const candidates = file.includes("/")
    ? [file]
    : (process.env.PATH ?? "").split(":").filter(Boolean).map((dir) => `${dir}/${file}`);
  for (const path of candidates) {
    try {
      if (!statSync(path).isFile()) continue;
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not there, or not executable.
    }
  }
  return undefined;
}

/** Lines Node and Deno print that never name what went wrong (deprecations, their hints). */
const NOISE: readonly RegExp[] = [
  /DeprecationWarning/,
  /\[DEP\d+\]/,
  /^\(Use `(node|deno) --trace-/,
  /^\(node:\d+\) /,
  /^at\s/,
  /^\(EE\)\s*$/,
];

/**
 * The meaningful lines of a child's error output: without empty lines, Node and Deno deprecation
 * warnings and their `(Use \`node --trace-deprecation ...\`)` hints, stack frames and bare
 * `(EE)` markers.
 */
export function meaningfulLines(output: string): string[] {
  return output.split(/\r?\n/).map((line) => line.trim()).filter((line) =>
    line !== "" && !NOISE.some((noise) => noise.test(line))
  );
}

/** The last meaningful line of `output` (see {@link meaningfulLines}), at most 300 characters. */
export function lastMeaningfulLine(output: string): string {
  const line = meaningfulLines(output).at(-1) ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
