/**
 * The merged report's place on disk (spec 4.6): moving the finished temporary output into place,
 * and removing the merged sources afterwards.
 *
 * @module
 */

import { FileError } from "../errors.ts";
import { nodeFs, nodePath } from "../runtime/runtime.ts";
import type { Source } from "./_merge_read.ts";

/** Moves the finished temporary output into place (replacing an old one when allowed). */
export async function moveIntoPlace(
  tmp: string,
  target: string,
  overwrite: boolean,
  directory: boolean,
): Promise<void> {
  const fs = await nodeFs();
  if (!overwrite && await exists(target)) {
    throw new FileError(
      `Cannot merge reports as ${target} already exists: pass { overwrite: true } to replace it, ` +
        `or choose another reportFileName`,
      { path: target, reason: "invalid" },
    );
  }
  if (!directory || !await exists(target)) {
    // A file replaces a file atomically; a new directory takes a free name.
    if (!directory && await isDirectory(target)) {
      throw new FileError(`Cannot merge reports as ${target} is a directory`, {
        path: target,
        reason: "invalid",
      });
    }
    await fs.rename(tmp, target);
    return;
  }
  // A directory cannot replace a non-empty one: move the old one aside, then remove it.
  const old = `${tmp}.old`;
  await fs.rename(target, old);
  try {
    await fs.rename(tmp, target);
  } catch (error) {
    await fs.rename(old, target).catch(() => {});
    throw error;
  }
  await fs.rm(old, { recursive: true, force: true });
}

/** Removes the merged sources (never the merged report itself), warning about failures. */
export async function removeSources(sources: Source[], target: string): Promise<void> {
  const fs = await nodeFs();
  const path = await nodePath();
  const inTarget = (p: string) => p === target || p.startsWith(target + path.sep);
  const failed: string[] = [];
  for (const file of new Set(sources.map((s) => s.file))) {
    if (inTarget(file)) continue;
    const source = sources.find((s) => s.file === file)!;
    try {
      await fs.rm(file, { force: true });
      if (source.external) {
        const dir = path.dirname(file);
        await fs.rm(path.join(dir, "screenshots"), { recursive: true, force: true });
        await fs.rmdir(dir).catch(() => {}); // only when empty
      }
    } catch (e) {
      failed.push(`${file} (${(e as Error).message})`);
    }
  }
  if (failed.length) {
    console.warn(
      `The merged report is at ${target}, but some source reports could not be removed: ${
        failed.join("; ")
      }`,
    );
  }
}

/** Whether anything (a file, directory or link) is at `file`. */
export async function exists(file: string): Promise<boolean> {
  const fs = await nodeFs();
  try {
    await fs.lstat(file);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return false;
    throw e;
  }
}

async function isDirectory(file: string): Promise<boolean> {
  const fs = await nodeFs();
  try {
    return (await fs.stat(file)).isDirectory();
  } catch {
    return false;
  }
}
