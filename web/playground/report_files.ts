/**
 * The agent's report as the playground serves it: the one HTML file of a `single-html` report,
 * or any file inside the folder of an `html-and-external-assets` report (its screenshots),
 * nothing else of the disk.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { basename, dirname, extname, relative, resolve, sep } from "node:path";

/** Where the report is and how it is laid out. */
export interface ReportLocation {
  /** The report's HTML file (`agent.reportFile`); `undefined` before the first call. */
  file: string | null | undefined;
  /** Whether the report is a folder with its screenshots beside `index.html`. */
  folder: boolean;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
};

/** The path, under `/report/<token>/`, that opens the report at one call (its execution id). */
export function reportPath(location: ReportLocation, executionId?: string): string | undefined {
  if (!location.file) return undefined;
  const hash = executionId ? `#${encodeURIComponent(executionId)}` : "";
  return `${encodeURIComponent(basename(location.file))}${hash}`;
}

/**
 * Reads a report file by its path under `/report/<token>/` (URL-encoded segments).
 *
 * @returns the bytes and content type, or `undefined` when the path names nothing the report
 *   holds (a missing file, a path leaving the report's folder, another file of the folder).
 */
export async function readReportFile(
  location: ReportLocation,
  path: string,
): Promise<{ body: Uint8Array; type: string } | undefined> {
  if (!location.file) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const root = dirname(resolve(location.file));
  const file = resolve(root, rel);
  const allowed = location.folder
    ? !relative(root, file).startsWith("..") && file.startsWith(root + sep)
    : file === resolve(location.file);
  if (!allowed) return undefined;
  try {
    const body = await readFile(file);
    return { body, type: TYPES[extname(file).toLowerCase()] ?? "application/octet-stream" };
  } catch {
    return undefined;
  }
}
