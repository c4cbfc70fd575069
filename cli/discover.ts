/**
 * Which script files a `sdk run` runs: each argument is a file, a folder (searched recursively)
 * or a glob pattern; the files kept are `.yaml`, `.yml` and `.feature`.
 *
 * @module
 */

import { glob, stat } from "node:fs/promises";
import { extname, isAbsolute, relative, resolve } from "node:path";
import { CliUsageError } from "./args.ts";

/** File extensions of scripts. */
export const SCRIPT_EXTENSIONS: readonly string[] = [".yaml", ".yml", ".feature"];

const isScript = (file: string) => SCRIPT_EXTENSIONS.includes(extname(file).toLowerCase());
const GLOB_CHARS = /[*?[\]{}]/;
/** Folders never searched: dependencies, version control, run output. */
const SKIPPED_DIRS = /(^|[/\\])(node_modules|\.git|sdk_run)([/\\]|$)/;

/**
 * Expands the paths of `sdk run` into absolute script files, in the order given (a folder's or a
 * pattern's files sorted by path), each once.
 *
 * @throws {CliUsageError} when a path does not exist, a file is not a script, or nothing is found.
 */
export async function discoverScripts(paths: readonly string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  for (const path of paths) {
    const matches: string[] = [];
    if (GLOB_CHARS.test(path)) {
      for await (const file of glob(path, { cwd })) {
        const full = resolve(cwd, file);
        if (isScript(full) && !SKIPPED_DIRS.test(relative(cwd, full))) matches.push(full);
      }
      if (matches.length === 0) {
        throw new CliUsageError(`the pattern "${path}" matches no .yaml, .yml or .feature file`);
      }
    } else {
      const full = isAbsolute(path) ? path : resolve(cwd, path);
      const info = await stat(full).catch(() => undefined);
      if (!info) throw new CliUsageError(`no such file or folder: ${path}`);
      if (info.isDirectory()) {
        for await (const file of glob("**/*", { cwd: full })) {
          if (isScript(file) && !SKIPPED_DIRS.test(file)) matches.push(resolve(full, file));
        }
        if (matches.length === 0) {
          throw new CliUsageError(`the folder "${path}" holds no .yaml, .yml or .feature file`);
        }
      } else if (isScript(full)) {
        matches.push(full);
      } else {
        throw new CliUsageError(
          `"${path}" is not a script: sdk run takes .yaml, .yml and .feature files`,
        );
      }
    }
    for (const file of matches.sort()) found.add(file);
  }
  return [...found];
}
