/**
 * Merging the reports of several tests into one report (spec 2.8 `ReportFileWithAttributes`,
 * 4.6).
 *
 * @module
 */

import { FileError, SdkTypeError, UnsupportedRuntimeError } from "../errors.ts";
import { cwd, hasFileSystem, nodeFs, nodePath, runDir } from "../runtime/runtime.ts";
import { SDK_VERSION } from "../version.ts";
import { metaTag } from "./_format.ts";
import { type Entry, locateSource, type Source } from "./_merge_read.ts";
import { ChunkedFile, SourceWriter } from "./_merge_write.ts";
import { exists, moveIntoPlace, removeSources } from "./_merge_output.ts";
import { isReportFileName } from "./_report_paths.ts";
import { mergedViewerPage } from "./merged_viewer.ts";
import type { ReportAttributes, ReportMeta, TestStatus } from "./types.ts";

/** One report to merge, with its test's attributes (spec 2.8, input of {@link ReportMergingTool.append}). */
export interface ReportFileWithAttributes {
  /**
   * Path of the report, usually `agent.reportFile`: a `single-html` report file, or the
   * `index.html` (or the directory) of an `html-and-external-assets` report. A relative path
   * resolves from the working directory at the time of `append`. May be omitted (or `null`) only
   * when `reportAttributes.testStatus` is `'skipped'`; the merged report then lists the test
   * without executions.
   */
  reportFilePath?: string | null;
  /** The test's attributes. */
  reportAttributes: ReportAttributes;
}

/** Options of {@link ReportMergingTool.mergeReports}. */
export interface MergeReportsOptions {
  /**
   * Remove the source reports once the merged report is written: each report file and, for an
   * `html-and-external-assets` report, its `screenshots/` folder (its directory too when that is
   * then empty). Nothing is removed when the merge fails. Default `false`.
   */
  rmOriginalReports?: boolean;
  /** Replace an existing merged report of the same name. Default `false` (an error instead). */
  overwrite?: boolean;
  /**
   * Directory of the merged report. Default `<SDK_RUN_DIR or sdk_run>/report/`; a relative path
   * resolves from the working directory.
   */
  outputDir?: string;
}

const STATUSES: readonly TestStatus[] = ["passed", "failed", "timedOut", "skipped", "interrupted"];

/**
 * Merges the reports of several tests into one report (spec 4.6): the merged report lists each
 * test (title, status, duration, description) and, per test, the executions and screenshots of its
 * report, in the viewer a person already knows.
 *
 * Finalize every agent (`await agent.destroy()`) before merging, so its report is complete.
 *
 * @example Merge the reports of two tests
 * ```ts
 * import { ReportMergingTool } from "@sdk/core/report";
 *
 * const tool = new ReportMergingTool();
 * tool.append({
 *   reportFilePath: "sdk_run/report/login.html", // agent.reportFile
 *   reportAttributes: {
 *     testId: "login-1",
 *     testTitle: "Sign in",
 *     testDescription: "signs in as alice",
 *     testDuration: 4200,
 *     testStatus: "passed",
 *   },
 * });
 * tool.append({
 *   reportAttributes: {
 *     testId: "cart-1",
 *     testTitle: "Cart",
 *     testDescription: "",
 *     testDuration: 0,
 *     testStatus: "skipped",
 *   },
 * });
 * const merged = await tool.mergeReports("nightly", { overwrite: true });
 * console.log(merged); // .../sdk_run/report/nightly.html
 * ```
 */
export class ReportMergingTool {
  #entries: Entry[] = [];

  /**
   * Adds a report to merge. The entry is copied; a relative `reportFilePath` resolves from the
   * working directory now. The file is read only by {@link mergeReports}.
   *
   * @throws {TypeError} when `reportFilePath` is missing (undefined, null or empty) while
   * `reportAttributes.testStatus` is not `'skipped'` (spec 7), when it is not a string, or when an
   * attribute is missing or of the wrong type (`testId`, `testTitle` and `testDescription`
   * strings, `testDuration` a finite number of ms, 0 or more, `testStatus` one of `'passed'`,
   * `'failed'`, `'timedOut'`, `'skipped'`, `'interrupted'`).
   */
  append(reportInfo: ReportFileWithAttributes): void {
    if (!reportInfo || typeof reportInfo !== "object") {
      throw new SdkTypeError(
        `Cannot append report as the argument must be an object with 'reportFilePath' and ` +
          `'reportAttributes': current value is ${show(reportInfo)}`,
      );
    }
    const attrs = reportInfo.reportAttributes as Partial<ReportAttributes> | undefined;
    if (!attrs || typeof attrs !== "object") {
      throw new SdkTypeError(
        `Cannot append report as 'reportAttributes' must be an object: current value is ` +
          show(attrs),
      );
    }
    for (const key of ["testId", "testTitle", "testDescription"] as const) {
      if (typeof attrs[key] !== "string") {
        throw new SdkTypeError(
          `Cannot append report as 'reportAttributes.${key}' must be a string: current value ` +
            `is ${show(attrs[key])}`,
        );
      }
    }
    const duration = attrs.testDuration;
    if (typeof duration !== "number" || !Number.isFinite(duration) || duration < 0) {
      throw new SdkTypeError(
        `Cannot append report as 'reportAttributes.testDuration' must be a finite number of ` +
          `ms, 0 or more: current value is ${show(duration)}`,
      );
    }
    if (!STATUSES.includes(attrs.testStatus as TestStatus)) {
      throw new SdkTypeError(
        `Cannot append report as 'reportAttributes.testStatus' must be one of ` +
          `${STATUSES.map((s) => `'${s}'`).join(", ")}: current value is ${show(attrs.testStatus)}`,
      );
    }
    const path = reportInfo.reportFilePath;
    if (path !== undefined && path !== null && typeof path !== "string") {
      throw new SdkTypeError(
        `Cannot append report as 'reportFilePath' must be a string: current value is ${show(path)}`,
      );
    }
    if (!path && attrs.testStatus !== "skipped") {
      throw new SdkTypeError(
        `Cannot append report of test '${attrs.testId}' as 'reportFilePath' is required unless ` +
          `'reportAttributes.testStatus' is 'skipped': current value is ${show(path)} with ` +
          `testStatus '${attrs.testStatus}' (pass agent.reportFile after agent.destroy())`,
      );
    }
    this.#entries.push({
      file: path ? joinPath(cwd(), path) : undefined,
      attributes: {
        testId: attrs.testId!,
        testTitle: attrs.testTitle!,
        testDescription: attrs.testDescription!,
        testDuration: duration,
        testStatus: attrs.testStatus as TestStatus,
        ...(typeof attrs.testDevice === "string" && { testDevice: attrs.testDevice }),
      },
    });
  }

  /**
   * Writes one report holding every appended report, in append order, and returns its path.
   *
   * Layout: when every source is a `single-html` report (or a skipped test without one), one file
   * `<outputDir>/<name>.html` with the screenshots inline; when any source is an
   * `html-and-external-assets` report, a directory `<outputDir>/<name>/` with `index.html` and
   * `screenshots/` (the external sources' image files copied, the inline ones written out as
   * files too, each named `<id>.<ext>` after its real format), to be served over HTTP like any
   * such report. A screenshot shared by several sources is stored once.
   *
   * The write is atomic: the report is built in a temporary file (or directory) in `outputDir`
   * and renamed into place, so a failed merge leaves nothing half-written and no earlier report
   * lost. Sources are read one at a time, each a chunk at a time, so memory holds about a chunk
   * (1 MB) and the largest data tag (a screenshot or an execution), whatever the number and size of
   * the sources. The list is kept: call {@link clear} to reuse the tool.
   *
   * @param reportFileName `'AUTO'` (default) for a generated name
   * (`merged-report-YYYY-MM-DD_HH-mm-ss-<4 hex>`, local time), or a name without path separators;
   * a `.html` suffix is optional (and dropped for a directory).
   * @param opts see {@link MergeReportsOptions}.
   * @returns the merged report's HTML path, or `null` when nothing was appended.
   * @throws {TypeError} when `reportFileName` or an option has the wrong type or form.
   * @throws {Error} when the output exists and `overwrite` is not `true` (naming the path); when a
   * source report does not exist or is not a report of this SDK (naming the file and its test);
   * when there is no file system (a browser runtime); the file system's error when a write fails.
   */
  async mergeReports(
    reportFileName: "AUTO" | string = "AUTO",
    opts: MergeReportsOptions = {},
  ): Promise<string | null> {
    const entries = [...this.#entries];
    if (reportFileName !== "AUTO" && !isReportFileName(reportFileName)) {
      throw new SdkTypeError(
        `Cannot merge reports as 'reportFileName' must be 'AUTO' or a file name without path ` +
          `separators: current value is ${show(reportFileName)}`,
      );
    }
    if (!opts || typeof opts !== "object") {
      throw new SdkTypeError(
        `Cannot merge reports as 'opts' must be an object: current value is ${show(opts)}`,
      );
    }
    for (const key of ["rmOriginalReports", "overwrite"] as const) {
      if (opts[key] !== undefined && typeof opts[key] !== "boolean") {
        throw new SdkTypeError(
          `Cannot merge reports as 'opts.${key}' must be a boolean: current value is ${
            show(opts[key])
          }`,
        );
      }
    }
    if (opts.outputDir !== undefined && (typeof opts.outputDir !== "string" || !opts.outputDir)) {
      throw new SdkTypeError(
        `Cannot merge reports as 'opts.outputDir' must be a non-empty path: current value is ` +
          show(opts.outputDir),
      );
    }
    if (entries.length === 0) return null;
    if (!hasFileSystem) {
      throw new UnsupportedRuntimeError(
        "Cannot merge reports as there is no file system in a browser runtime",
      );
    }
    const name = reportFileName === "AUTO"
      ? autoName(Date.now())
      : reportFileName.replace(/\.html$/i, "");
    const fs = await nodeFs();
    const path = await nodePath();
    const outputDir = opts.outputDir !== undefined
      ? path.resolve(cwd(), opts.outputDir)
      : path.join(await runDir(), "report");

    // Find every source first, so a missing or foreign file fails before anything is written.
    const sources: (Source | Entry)[] = [];
    for (const entry of entries) sources.push(entry.file ? await locateSource(entry) : entry);
    const external = sources.some((s) => "external" in s && s.external);
    const target = external ? path.join(outputDir, name) : path.join(outputDir, `${name}.html`);
    const entryFile = external ? path.join(target, "index.html") : target;
    if (opts.overwrite !== true && await exists(target)) {
      throw new FileError(
        `Cannot merge reports as ${target} already exists: pass { overwrite: true } to replace ` +
          `it, or choose another reportFileName`,
        { path: target, reason: "invalid" },
      );
    }

    await fs.mkdir(outputDir, { recursive: true });
    const tmp = path.join(outputDir, `.${name}.${randomHex(8)}.tmp`);
    try {
      const htmlFile = external ? path.join(tmp, "index.html") : tmp;
      if (external) await fs.mkdir(path.join(tmp, "screenshots"), { recursive: true });
      const out = new ChunkedFile(htmlFile);
      const meta: ReportMeta = {
        name,
        sdkVersion: SDK_VERSION,
        interfaceType: "merged",
        createdAt: Date.now(),
      };
      out.write(await mergedViewerPage({ title: name, externalAssets: external }));
      out.write(metaTag(meta));
      const writer = new SourceWriter(out, external ? path.join(tmp, "screenshots") : undefined);
      for (const [i, source] of sources.entries()) await writer.add(`s${i + 1}`, source);
      await out.flush();
      await moveIntoPlace(tmp, target, opts.overwrite === true, external);
    } catch (error) {
      await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});
      throw error;
    }

    if (opts.rmOriginalReports === true) {
      await removeSources(sources.filter((s): s is Source => "external" in s), target);
    }
    return entryFile;
  }

  /** Empties the list of appended reports, so the tool can be reused. */
  clear(): void {
    this.#entries = [];
  }
}

/** `merged-report-YYYY-MM-DD_HH-mm-ss-<4 hex>`, local time. */
function autoName(time: number): string {
  const d = new Date(time);
  const p = (n: number) => String(n).padStart(2, "0");
  return `merged-report-${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_` +
    `${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}-${randomHex(4)}`;
}

function randomHex(digits: number): string {
  let out = "";
  while (out.length < digits) {
    out += Math.floor(Math.random() * 0x10000).toString(16).padStart(4, "0");
  }
  return out.slice(0, digits);
}

/** Joins a path to a base directory without `node:path` (append is synchronous). */
function joinPath(base: string, file: string): string {
  if (file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith("\\\\")) return file;
  const sep = base.includes("\\") && !base.includes("/") ? "\\" : "/";
  return base.endsWith(sep) ? base + file : base + sep + file;
}

/** A value as shown in an error message. */
function show(value: unknown): string {
  if (typeof value === "string") return `'${value}'`;
  if (value === null || value === undefined || typeof value !== "object") return String(value);
  try {
    return JSON.stringify(value).slice(0, 80);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
