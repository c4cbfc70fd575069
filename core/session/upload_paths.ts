/**
 * Which files a file chooser may be given (spec 4.2 `aiAct` rules 4 and 5, spec 7).
 *
 * - The user's `fileChooserAccept`: paths resolve from the working directory and must be existing
 *   files; they are not constrained by `fileChooserAllowedDir`.
 * - Model-planned uploads (an action's `files` parameter): rejected without
 *   `fileChooserAllowedDir`. Relative paths resolve against that directory, absolute ones are
 *   taken as given; the path must lie inside the directory, and so must its real path once
 *   symlinks are resolved (a symlink inside pointing inside is fine; `..` and symlinks leading
 *   out are not). The action gets the real path, so what was checked is what is uploaded.
 *
 * The file system is reached only through `runtime.ts`.
 *
 * @module
 */

import { FileError, SdkTypeError } from "../errors.ts";
import type { DeviceAction } from "../device/types.ts";
import { cwd, nodePath, realPathInfo } from "../runtime/runtime.ts";

/** A directory model-planned uploads may read from (`fileChooserAllowedDir`). */
export interface AllowedUploadDir {
  /** The directory as given, made absolute from the working directory. */
  given: string;
  /** Its real path (symlinks resolved). */
  real: string;
}

/** Whether `action` can choose files (it declares a `files` parameter). */
function actionChoosesFiles(action: DeviceAction): boolean {
  return action.params.some((p) => p.type === "files");
}

/** A path or a list of paths as a list; throws naming `what` when it is neither. */
function pathList(value: unknown, what: string): string[] {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string" || p.trim() === "")) {
    throw new SdkTypeError(
      `${what} must be a file path or an array of file paths, got ${JSON.stringify(value)}`,
    );
  }
  return list as string[];
}

type PathModule = Awaited<ReturnType<typeof nodePath>>;

function isInside(path: PathModule, dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * Checks the user's `fileChooserAccept` of `api` (spec 4.2): every path, resolved from the
 * working directory, must be an existing file.
 *
 * @returns the absolute paths, in order.
 * @throws {TypeError} when the value is not a non-empty path or list of paths.
 * @throws {FileError} naming the path when it does not exist or is not a file.
 */
export async function resolveUserUploads(api: string, files: unknown): Promise<string[]> {
  const list = pathList(files, `${api}: fileChooserAccept`);
  if (list.length === 0) {
    throw new SdkTypeError(
      `${api}: fileChooserAccept is an empty list; give at least one file path`,
    );
  }
  const path = await nodePath();
  const base = cwd();
  const out: string[] = [];
  for (const file of list) {
    const abs = path.resolve(base, file);
    const info = await realPathInfo(abs);
    if (!info) {
      throw new FileError(
        `${api}: fileChooserAccept file "${file}" does not exist (looked for ${abs}; relative paths resolve from the working directory ${base})`,
        { path: abs, reason: "missing" },
      );
    }
    if (info.kind !== "file") {
      throw new FileError(`${api}: fileChooserAccept "${file}" is a ${info.kind}, not a file`, {
        path: abs,
        reason: "invalid",
      });
    }
    out.push(abs);
  }
  return out;
}

/**
 * Checks `fileChooserAllowedDir` of `api`: resolved from the working directory, it must be an
 * existing directory.
 *
 * @throws {TypeError} when it is not a non-empty string.
 * @throws {FileError} naming the directory when it does not exist or is not a directory.
 */
export async function resolveAllowedDir(api: string, dir: unknown): Promise<AllowedUploadDir> {
  if (typeof dir !== "string" || dir.trim() === "") {
    throw new SdkTypeError(
      `${api}: fileChooserAllowedDir must be a directory path, got ${JSON.stringify(dir)}`,
    );
  }
  const path = await nodePath();
  const given = path.resolve(cwd(), dir);
  const info = await realPathInfo(given);
  if (!info) {
    throw new FileError(
      `${api}: fileChooserAllowedDir "${dir}" does not exist (looked for ${given})`,
      { path: given, reason: "missing" },
    );
  }
  if (info.kind !== "directory") {
    throw new FileError(
      `${api}: fileChooserAllowedDir "${dir}" is a ${info.kind}, not a directory`,
      { path: given, reason: "invalid" },
    );
  }
  return { given, real: info.real };
}

/**
 * Checks the files a planner gave to `actionName` against the allowed directory.
 *
 * @returns the real absolute paths, in order (empty for an empty list).
 * @throws {TypeError} when the value is not a path or a list of paths.
 * @throws {FileError} when there is no allowed directory (spec 7), or a path escapes it (lexically
 * or through a symlink), does not exist, or is not a file; the message names the path.
 */
export async function resolveModelUploads(
  actionName: string,
  value: unknown,
  dir: AllowedUploadDir | undefined,
): Promise<string[]> {
  const list = pathList(value, `Action ${actionName}: parameter "files"`);
  if (list.length === 0) return [];
  if (!dir) {
    throw new FileError(
      `Action ${actionName}: the model asked to upload ${
        JSON.stringify(list)
      }, but model-planned file uploads need fileChooserAllowedDir. Pass aiAct(prompt, { fileChooserAllowedDir: "<directory>" }) naming the directory these files may come from, or give the files yourself with fileChooserAccept.`,
      { path: list[0], reason: "not-allowed" },
    );
  }
  const path = await nodePath();
  const out: string[] = [];
  for (const file of list) {
    const lexical = path.isAbsolute(file) ? path.resolve(file) : path.resolve(dir.given, file);
    if (!isInside(path, dir.given, lexical) && !isInside(path, dir.real, lexical)) {
      throw new FileError(
        `Action ${actionName}: file "${file}" is outside fileChooserAllowedDir ${dir.given} (it resolves to ${lexical})`,
        { path: lexical, reason: "not-allowed" },
      );
    }
    const info = await realPathInfo(lexical);
    if (!info) {
      throw new FileError(
        `Action ${actionName}: file "${file}" does not exist (looked for ${lexical} in fileChooserAllowedDir)`,
        { path: lexical, reason: "missing" },
      );
    }
    if (!isInside(path, dir.real, info.real)) {
      throw new FileError(
        `Action ${actionName}: file "${file}" leads through a symlink outside fileChooserAllowedDir ${dir.given} (its real path is ${info.real})`,
        { path: info.real, reason: "not-allowed" },
      );
    }
    if (info.kind !== "file") {
      throw new FileError(`Action ${actionName}: "${file}" is a ${info.kind}, not a file`, {
        path: info.real,
        reason: "invalid",
      });
    }
    out.push(info.real);
  }
  return out;
}

/**
 * Replaces each `files` parameter the planner gave in `param` by its checked real paths (see
 * {@link resolveModelUploads}); an empty list is removed.
 */
export async function resolvePlannedFiles(
  action: DeviceAction,
  param: Record<string, unknown>,
  dir: AllowedUploadDir | undefined,
): Promise<void> {
  for (const spec of action.params) {
    const value = param[spec.name];
    if (spec.type !== "files" || value === undefined || value === null) continue;
    const files = await resolveModelUploads(action.name, value, dir);
    if (files.length) param[spec.name] = files;
    else delete param[spec.name];
  }
}

/**
 * Checks the file options of a call of `api` whose actions are `actions` (for `aiTap`, the
 * device's `Tap`; for `aiAct`, its whole action space).
 *
 * @throws {TypeError} when `fileChooserAccept` is given but none of `actions` can choose files
 * (only web pages can), or an option has the wrong type.
 * @throws {FileError} naming a file or directory that does not exist (see {@link resolveUserUploads}
 * and {@link resolveAllowedDir}).
 */
export async function resolveUploadOptions(
  api: string,
  actions: readonly DeviceAction[],
  options: { fileChooserAccept?: unknown; fileChooserAllowedDir?: unknown },
): Promise<{ accept?: string[]; allowedDir?: AllowedUploadDir }> {
  const out: { accept?: string[]; allowedDir?: AllowedUploadDir } = {};
  if (options.fileChooserAccept !== undefined) {
    if (!actions.some(actionChoosesFiles)) {
      throw new SdkTypeError(
        `${api}: fileChooserAccept needs a device whose actions can choose files (web pages); this device's ${
          actions.map((a) => a.name).join(", ") || "actions"
        } cannot`,
      );
    }
    out.accept = await resolveUserUploads(api, options.fileChooserAccept);
  }
  if (options.fileChooserAllowedDir !== undefined) {
    out.allowedDir = await resolveAllowedDir(api, options.fileChooserAllowedDir);
  }
  return out;
}
