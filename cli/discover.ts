/**
 * Which script files a `sdk run` runs: each argument is a file, a folder (searched recursively)
 * or a glob pattern; the files kept are `.yaml`, `.yml` and `.feature`.
 *
 * @module
 */

import { glob, stat } from "node:fs/promises";
import { extname, isAbsolute, join, relative, resolve } from "node:path";
import { CliUsageError } from "./args.ts";

/** File extensions of scripts. */
const SCRIPT_EXTENSIONS: readonly string[] = [".yaml", ".yml", ".feature"];

const isScript = (file: string) => SCRIPT_EXTENSIONS.includes(extname(file).toLowerCase());
const GLOB_CHARS = /[*?[\]{}]/;
/** Folders never searched: dependencies, version control, run output. */
const SKIPPED_DIRS = /(^|[/\\])(node_modules|\.git|sdk_run)([/\\]|$)/;

/** A script file to run: where it is, and how the user named it. */
export interface ScriptFileArg {
  /** The absolute path. */
  path: string;
  /**
   * The file as the user typed it: a file argument as given (`./flows/a.yaml`,
   * `C:\\flows\\a.yaml`), a folder's files under the folder as typed (`flows/sub/b.yaml`), a
   * pattern's matches as the pattern gives them. Progress, the summary and errors name it so.
   */
  shown: string;
}

/**
 * Expands the paths of `sdk run` into absolute script files, in the order given (a folder's or a
 * pattern's files sorted by path), each once.
 *
 * @throws {CliUsageError} when a path does not exist, a file is not a script, or nothing is found.
 */
export async function discoverScripts(paths: readonly string[], cwd: string): Promise<string[]> {
  return (await discoverScriptFiles(paths, cwd)).map((f) => f.path);
}

/**
 * {@link discoverScripts}, with each file's name as the user typed it.
 *
 * @throws {CliUsageError} as {@link discoverScripts}.
 */
export async function discoverScriptFiles(
  paths: readonly string[],
  cwd: string,
): Promise<ScriptFileArg[]> {
  const found = new Map<string, string>();
  for (const path of paths) {
    const matches: ScriptFileArg[] = [];
    if (GLOB_CHARS.test(path)) {
      for await (const file of glob(path, { cwd })) {
        const full = resolve(cwd, file);
        if (isScript(full) && !SKIPPED_DIRS.test(relative(cwd, full))) {
          matches.push({ path: full, shown: file });
        }
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
          if (isScript(file) && !SKIPPED_DIRS.test(file)) {
            matches.push({ path: resolve(full, file), shown: join(path, file) });
          }
        }
        if (matches.length === 0) {
          throw new CliUsageError(`the folder "${path}" holds no .yaml, .yml or .feature file`);
        }
      } else if (isScript(full)) {
        matches.push({ path: full, shown: path });
      } else {
        throw new CliUsageError(
          `"${path}" is not a script: sdk run takes .yaml, .yml and .feature files`,
        );
      }
    }
    matches.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    for (const file of matches) if (!found.has(file.path)) found.set(file.path, file.shown);
  }
  return [...found].map(([path, shown]) => ({ path, shown }));
}
