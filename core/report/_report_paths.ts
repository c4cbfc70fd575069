/**
 * Where a report goes on disk, and how a writer claims its file: one report per agent, always.
 * A name belongs to the agent holding its marker (`_report_lock.ts`, taken exclusively): while a
 * live agent (of this process or another) holds it, the writer takes `<name>-2` (then `-3`, ...)
 * and the console names both files, so two live agents never share a file. A report whose agent
 * finished (destroyed, or its process gone), or that has no marker, is replaced by the next agent
 * of that name, atomically: its first bytes go to a temporary file that is renamed over the old
 * one, so a reader sees the old report or the new one, never a mix or nothing.
 *
 * @module
 */

import { FileError } from "../errors.ts";
import { nodeFs, nodePath, processIdentity } from "../runtime/runtime.ts";
import { lockReport, type ReportLock } from "./_report_lock.ts";

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
 * Creates the report's file with its first bytes, under the first name no live agent holds:
 * `layout.name`, else `<name>-2`, `<name>-3`, ... A finished agent's report of that name is
 * replaced in one rename (with `html-and-external-assets`, its `screenshots/` and `executions/`
 * go too).
 *
 * @param layout the folder, the name asked for and the format.
 * @param head the file's first bytes for a given report name (the viewer and the meta tag).
 * @param warn whether a taken name is warned about (the name was the user's `reportFileName`).
 * @returns the claimed target, the bytes written, and the marker to release when the agent
 * finishes.
 * @throws {FileError} when live agents hold every name up to `-9999`; the file system's error
 * when the folder cannot be created or the file written (nothing is left behind then).
 */
export async function claimReportTarget(
  layout: ReportLayout,
  head: (name: string) => Uint8Array,
  warn: boolean,
): Promise<{ target: ReportTarget; size: number; lock: ReportLock }> {
  const fs = await nodeFs();
  const path = await nodePath();
  await fs.mkdir(layout.reportDir, { recursive: true });
  const asked = await reportTarget(layout, layout.name);
  for (let n = 1; n <= MAX_TRIES; n++) {
    const target = n === 1 ? asked : await reportTarget(layout, `${layout.name}-${n}`);
    const dir = path.dirname(target.file);
    if (layout.external) await fs.mkdir(dir, { recursive: true });
    const lock = await lockReport(target.file);
    if (!lock) continue;
    const bytes = head(target.name);
    const tmp = `${target.file}.${(await processIdentity()).pid}-${
      Math.random().toString(36).slice(2, 8)
    }.tmp`;
    try {
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, target.file);
      if (layout.external) {
        // The finished agent's images and dumps: the new report names none of them.
        for (const old of ["screenshots", "executions"]) {
          await fs.rm(path.join(dir, old), { recursive: true, force: true });
        }
      }
    } catch (e) {
      await fs.rm(tmp, { force: true }).catch(() => {});
      await lock.release().catch(() => {});
      throw e;
    }
    if (n > 1 && warn) {
      console.warn(
        `Report ${asked.file} belongs to an agent still running (another agent of this process ` +
          `or of another process), so this agent's report is ${target.file}: nothing is ` +
          `replaced or mixed. Give each agent its own reportFileName to choose both names.`,
      );
    }
    return { target, size: bytes.length, lock };
  }
  throw new FileError(
    `Cannot create the report: agents still running hold ${asked.file} and its ` +
      `${MAX_TRIES - 1} numbered variants (-2 ... -${MAX_TRIES}); finish them, or choose another ` +
      `reportFileName`,
    { path: asked.file, reason: "invalid" },
  );
}

/** `<interface>-YYYY-MM-DD_HH-mm-ss-<4 hex>`, in local time, which is what a person looks for. */
export function generatedName(interfaceType: string, time: number): string {
  const d = new Date(time);
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_` +
    `${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
  const rand = Math.floor(Math.random() * 0x10000).toString(16).padStart(4, "0");
  const kind = interfaceType.replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "report";
  return `${kind}-${stamp}-${rand}`;
}
