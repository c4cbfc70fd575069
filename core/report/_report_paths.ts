/**
 * Where a report goes on disk, and how a writer claims its file: one report per agent, always.
 * The file is created with an exclusive create (`open(path, "wx")`), so a name in use (by another
 * agent of this process, by another process, or by an earlier run's report) is never replaced or
 * appended to: the writer takes `<name>-2` (then `-3`, ...) and the console names both files.
 *
 * @module
 */

import { FileError } from "../errors.ts";
import { nodeFs, nodePath } from "../runtime/runtime.ts";

/**
 * Whether `name` may be a `reportFileName` (spec 2.1) of a report or a merged report: not blank,
 * no path separator or NUL, and not `.` or `..` once a `.html` suffix is cut. The writer and the
 * merger both check with it.
 */
export function isReportFileName(name: unknown): name is string {
  if (typeof name !== "string" || !name.trim() || /[/\\\0]/.test(name)) return false;
  const base = name.replace(/\.html$/i, "");
  return base !== "." && base !== ".." && base.trim() !== "";
}

/** What a writer asked for: the report folder, the name, the layout. */
export interface ReportLayout {
  /** `<run dir>/report`. */
  reportDir: string;
  /**
   * The report's name: without `.html` for `single-html` (the file is `<name>.html`), the folder's
   * name for `html-and-external-assets`.
   */
  name: string;
  /** Whether the report is `html-and-external-assets` (a folder with `index.html`). */
  external: boolean;
}

/** Where one report goes. */
export interface ReportTarget {
  /** The report's name (the meta name): the asked-for name, or it with `-<n>`. */
  name: string;
  /** The HTML file. */
  file: string;
  /** Directory of screenshot files (`html-and-external-assets` only). */
  assetsDir?: string;
  /** Path of the dump file for an execution id. */
  dumpFile(id: string): string;
}

/** How many names a writer tries before it gives up (`<name>`, `<name>-2`, ... `<name>-9999`). */
const MAX_TRIES = 9999;

const safe = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, "_");

/** The target of `name` in `layout`'s folder and format. */
export async function reportTarget(layout: ReportLayout, name: string): Promise<ReportTarget> {
  const path = await nodePath();
  if (layout.external) {
    const dir = path.join(layout.reportDir, name);
    return {
      name,
      file: path.join(dir, "index.html"),
      assetsDir: path.join(dir, "screenshots"),
      dumpFile: (id) => path.join(dir, "executions", `${safe(id)}.json`),
    };
  }
  return {
    name,
    file: path.join(layout.reportDir, `${name}.html`),
    dumpFile: (id) => path.join(layout.reportDir, `${name}.${safe(id)}.execution.json`),
  };
}

/**
 * Creates the report's file with its first bytes, under the first free name: `layout.name`, else
 * `<name>-2`, `<name>-3`, ... A name is free when its HTML file does not exist; the file is created
 * exclusively, so two writers (in one process or in two) never get the same one.
 *
 * @param layout the folder, the name asked for and the format.
 * @param head the file's first bytes for a given report name (the viewer and the meta tag).
 * @param warn whether a taken name is warned about (the name was the user's `reportFileName`).
 * @returns the claimed target and the bytes written.
 * @throws {FileError} when no name up to `-9999` is free; the file system's error when the folder
 * cannot be created or the file written (nothing is left behind then).
 */
export async function claimReportTarget(
  layout: ReportLayout,
  head: (name: string) => Uint8Array,
  warn: boolean,
): Promise<{ target: ReportTarget; size: number }> {
  const fs = await nodeFs();
  const path = await nodePath();
  await fs.mkdir(layout.reportDir, { recursive: true });
  const asked = await reportTarget(layout, layout.name);
  for (let n = 1; n <= MAX_TRIES; n++) {
    const target = n === 1 ? asked : await reportTarget(layout, `${layout.name}-${n}`);
    if (layout.external) await fs.mkdir(path.dirname(target.file), { recursive: true });
    let handle;
    try {
      handle = await fs.open(target.file, "wx");
    } catch (e) {
      if ((e as { code?: string }).code === "EEXIST") continue;
      throw e;
    }
    const bytes = head(target.name);
    try {
      await handle.writeFile(bytes);
    } catch (e) {
      await handle.close().catch(() => {});
      await fs.rm(target.file, { force: true }).catch(() => {});
      throw e;
    }
    await handle.close();
    if (n > 1 && warn) {
      console.warn(
        `Report ${asked.file} is in use (another agent of this process or of another process, ` +
          `or an earlier run, has it), so this agent's report is ${target.file}: nothing is ` +
          `replaced or mixed. Give each agent its own reportFileName to choose both names.`,
      );
    }
    return { target, size: bytes.length };
  }
  throw new FileError(
    `Cannot create the report: ${asked.file} and its ${MAX_TRIES - 1} numbered variants ` +
      `(-2 ... -${MAX_TRIES}) all exist; remove old reports or choose another reportFileName`,
    { path: asked.file, reason: "invalid" },
  );
}
