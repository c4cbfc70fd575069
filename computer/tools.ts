/**
 * The programs the desktop runs (Xvfb, xrandr, xfreerdp, xwininfo): found on `PATH` before they
 * are spawned, so that a missing one fails at once with what to install (Deno reports a missing
 * binary only asynchronously, with the child's extra pipes undefined), and their error output
 * trimmed of noise to name a failure; and the private folders they get (an X authority, the RDP
 * client's home), removed when the process ends.
 *
 * @module
 */

import { accessSync, constants, rmSync, statSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** The private folders still in use, removed when the process ends. */
const live = new Set<string>();
let hooked = false;

function removeLive(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone already.
    }
  }
  live.clear();
}

/**
 * Removes the private folders still in use when the process ends however it can
 * be seen ending: a normal end, `process.exit`, `Deno.exit`, an uncaught error or rejection,
 * and the signals `@sdk/core` ends the process on (their Xvfbs are killed then, without
 * `stop()`). A SIGKILL leaves them, as it leaves the Xvfb and xfreerdp.
 */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", removeLive);
  const target = globalThis as unknown as {
    Deno?: unknown;
    addEventListener?: (type: string, listener: () => void) => void;
  };
  if (target.Deno && target.addEventListener) {
    for (const type of ["unload", "error", "unhandledrejection"]) {
      target.addEventListener(type, removeLive);
    }
  }
}

/**
 * A new folder of this user only (0700) in the temporary folder (`TMPDIR`), named `prefix` and
 * random letters, removed by `remove()` or, at the latest, when the process ends (see above).
 */
export async function privateTempDir(
  prefix: string,
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  hookExit();
  live.add(path);
  await chmod(path, 0o700);
  return {
    path,
    remove: async () => {
      live.delete(path);
      await rm(path, { recursive: true, force: true });
    },
  };
}
