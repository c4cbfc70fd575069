/**
 * Merging the reports of several tests into one report (spec 2.8 `ReportFileWithAttributes`,
 * 4.6).
 *
 * @module
 */

import { cwd, hasFileSystem, nodeFs, nodePath, runDir } from "../runtime/runtime.ts";
import { SDK_VERSION } from "../version.ts";
import { decodeBase64, encodeBase64 } from "../image/base64.ts";
import {
  executionTag,
  type ExecutionTagPayload,
  externalScreenshotTag,
  foldExecution,
  inlineScreenshotTag,
  metaTag,
  REPORT_FORMAT_VERSION,
  type ReportTag,
  reportTags,
  sourceTag,
  type SourceTagPayload,
} from "./_format.ts";
import { mergedViewerPage } from "./merged_viewer.ts";
import type { ReportExecution, ReportMeta } from "./types.ts";

/** Outcome of a test (spec 2.8 `reportAttributes.testStatus`). */
export type TestStatus = "passed" | "failed" | "timedOut" | "skipped" | "interrupted";

/** What a merged report shows about one test (spec 2.8 `reportAttributes`). */
export interface ReportAttributes {
  /** Unique workflow (test) identifier. */
  testId: string;
  /** Workflow title, shown in the merged report's list of sources. */
  testTitle: string;
  /** Workflow description, shown under the title (may be empty). */
  testDescription: string;
  /** Workflow duration in ms (a finite number, 0 or more). */
  testDuration: number;
  /** Workflow status. */
  testStatus: TestStatus;
}

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
/** How a report of this SDK starts (see `viewer.ts`). */
const GENERATOR = `<meta name="generator" content="@sdk/core report">`;
/** A safe asset path inside a report directory. */
const ASSET_SRC = /^screenshots\/(?!\.+$)[A-Za-z0-9._-]+$/;
const DATA_URI = /^data:image\/(png|jpe?g|webp|gif);base64,[A-Za-z0-9+/=\r\n]*$/i;
/** Output is written to the temporary file in chunks of about this many characters. */
const CHUNK = 1 << 20;
/** Sources are read in chunks of this many bytes. */
const READ_CHUNK = 1 << 20;

/** An appended entry, copied and with its path made absolute. */
interface Entry {
  file: string | undefined;
  attributes: ReportAttributes;
}

/** A source report found on disk. */
interface Source {
  entry: Entry;
  /** The HTML file. */
  file: string;
  /** Whether it is an `html-and-external-assets` report (its directory holds `screenshots/`). */
  external: boolean;
}

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
      throw new TypeError(
        `Cannot append report as the argument must be an object with 'reportFilePath' and ` +
          `'reportAttributes': current value is ${show(reportInfo)}`,
      );
    }
    const attrs = reportInfo.reportAttributes as Partial<ReportAttributes> | undefined;
    if (!attrs || typeof attrs !== "object") {
      throw new TypeError(
        `Cannot append report as 'reportAttributes' must be an object: current value is ` +
          show(attrs),
      );
    }
    for (const key of ["testId", "testTitle", "testDescription"] as const) {
      if (typeof attrs[key] !== "string") {
        throw new TypeError(
          `Cannot append report as 'reportAttributes.${key}' must be a string: current value ` +
            `is ${show(attrs[key])}`,
        );
      }
    }
    const duration = attrs.testDuration;
    if (typeof duration !== "number" || !Number.isFinite(duration) || duration < 0) {
      throw new TypeError(
        `Cannot append report as 'reportAttributes.testDuration' must be a finite number of ` +
          `ms, 0 or more: current value is ${show(duration)}`,
      );
    }
    if (!STATUSES.includes(attrs.testStatus as TestStatus)) {
      throw new TypeError(
        `Cannot append report as 'reportAttributes.testStatus' must be one of ` +
          `${STATUSES.map((s) => `'${s}'`).join(", ")}: current value is ${show(attrs.testStatus)}`,
      );
    }
    const path = reportInfo.reportFilePath;
    if (path !== undefined && path !== null && typeof path !== "string") {
      throw new TypeError(
        `Cannot append report as 'reportFilePath' must be a string: current value is ${show(path)}`,
      );
    }
    if (!path && attrs.testStatus !== "skipped") {
      throw new TypeError(
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
    if (
      typeof reportFileName !== "string" || !reportFileName.trim() || /[/\\\0]/.test(reportFileName)
    ) {
      throw new TypeError(
        `Cannot merge reports as 'reportFileName' must be 'AUTO' or a file name without path ` +
          `separators: current value is ${show(reportFileName)}`,
      );
    }
    if (!opts || typeof opts !== "object") {
      throw new TypeError(
        `Cannot merge reports as 'opts' must be an object: current value is ${show(opts)}`,
      );
    }
    for (const key of ["rmOriginalReports", "overwrite"] as const) {
      if (opts[key] !== undefined && typeof opts[key] !== "boolean") {
        throw new TypeError(
          `Cannot merge reports as 'opts.${key}' must be a boolean: current value is ${
            show(opts[key])
          }`,
        );
      }
    }
    if (opts.outputDir !== undefined && (typeof opts.outputDir !== "string" || !opts.outputDir)) {
      throw new TypeError(
        `Cannot merge reports as 'opts.outputDir' must be a non-empty path: current value is ` +
          show(opts.outputDir),
      );
    }
    if (entries.length === 0) return null;
    if (!hasFileSystem) {
      throw new Error("Cannot merge reports as there is no file system in a browser runtime");
    }
    const name = reportFileName === "AUTO"
      ? autoName(Date.now())
      : reportFileName.replace(/\.html$/i, "");
    if (name === "." || name === ".." || !name.trim()) {
      throw new TypeError(
        `Cannot merge reports as 'reportFileName' must name a file: current value is ` +
          show(reportFileName),
      );
    }
    const fs = await nodeFs();
    const path = await nodePath();
    const outputDir = opts.outputDir !== undefined
      ? path.resolve(cwd(), opts.outputDir)
      : path.join(await runDir(), "report");

    // Find every source first, so a missing or foreign file fails before anything is written.
    const sources: (Source | Entry)[] = [];
    for (const entry of entries) sources.push(entry.file ? await locate(entry) : entry);
    const external = sources.some((s) => "external" in s && s.external);
    const target = external ? path.join(outputDir, name) : path.join(outputDir, `${name}.html`);
    const entryFile = external ? path.join(target, "index.html") : target;
    if (opts.overwrite !== true && await exists(target)) {
      throw new Error(
        `Cannot merge reports as ${target} already exists: pass { overwrite: true } to replace ` +
          `it, or choose another reportFileName`,
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
      await replace(tmp, target, opts.overwrite === true, external);
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

/** Writes the data tags of each source in turn into the merged body. */
class SourceWriter {
  readonly #out: ChunkedFile;
  /** Screenshot folder of an external merged report; undefined for a single file. */
  readonly #assetsDir: string | undefined;
  /** Screenshot ids already written. */
  readonly #written = new Set<string>();

  constructor(out: ChunkedFile, assetsDir: string | undefined) {
    this.#out = out;
    this.#assetsDir = assetsDir;
  }

  /** Reads one source and writes its screenshots, executions and source tag. */
  async add(id: string, source: Source | Entry): Promise<void> {
    const attrs = "entry" in source ? source.entry.attributes : source.attributes;
    const payload: SourceTagPayload = { id, ...attrs, executionIds: [] };
    if (!("entry" in source)) {
      this.#out.write(sourceTag(payload));
      return;
    }
    const notReport = (why: string) =>
      new Error(
        `Cannot merge reports as ${source.file} (test '${attrs.testId}') is not a report of ` +
          `this SDK: ${why}`,
      );
    let meta: (Partial<ReportMeta> & { format?: unknown }) | undefined;
    const executions = new Map<string, ReportExecution>();
    const missing: string[] = [];
    for await (const tag of streamTags(source.file)) {
      if (meta === undefined) {
        // The writer puts the header in the same write as the page: it is always the first tag.
        try {
          meta = tag.kind === "meta" ? JSON.parse(tag.body) : undefined;
        } catch { /* reported below */ }
        if (!meta || typeof meta !== "object" || typeof meta.format !== "number") {
          throw notReport("its data does not start with a readable report header");
        }
        if (meta.format > REPORT_FORMAT_VERSION) {
          throw new Error(
            `Cannot merge reports as ${source.file} (test '${attrs.testId}') has report format ` +
              `${meta.format}, newer than this SDK's ${REPORT_FORMAT_VERSION}: merge with a ` +
              `newer SDK`,
          );
        }
      } else if (tag.kind === "screenshot") {
        if (!tag.id || this.#written.has(tag.id)) continue;
        const ok = tag.src === undefined
          ? await this.#inline(tag.id, tag.body)
          : await this.#external(tag.id, source, tag.src);
        if (ok) this.#written.add(tag.id);
        else if (tag.src !== undefined) missing.push(tag.src);
      } else if (tag.kind === "execution") {
        let exec: ExecutionTagPayload;
        try {
          exec = JSON.parse(tag.body);
        } catch {
          continue; // a tag cut short: skipped, as the viewer does
        }
        if (!exec || typeof exec !== "object" || exec.id === undefined) continue;
        const key = String(exec.id);
        executions.set(key, foldExecution(executions.get(key), exec));
      }
      // A merged report's own source tags are dropped: it becomes one source.
    }
    if (meta === undefined) throw notReport("it has no report data (cut short, or another page)");
    if (missing.length) {
      console.warn(
        `Merging ${source.file}: ${missing.length} screenshot file(s) missing (first: ` +
          `${missing[0]}); the merged report shows those steps without a screenshot.`,
      );
    }
    if (typeof meta.name === "string") payload.reportName = meta.name;
    if (typeof meta.interfaceType === "string") payload.interfaceType = meta.interfaceType;
    if (typeof meta.createdAt === "number") payload.createdAt = meta.createdAt;
    payload.executionIds = [...executions.keys()].map((k) => `${id}:${k}`);
    this.#out.write(sourceTag(payload));
    for (const [key, exec] of executions) {
      const prefixed = `${id}:${key}`;
      this.#out.write(executionTag(prefixed, JSON.stringify({ ...exec, id: prefixed })));
      await this.#out.maybeFlush();
    }
  }

  /** An inline screenshot of a single-html source. */
  async #inline(id: string, uri: string): Promise<boolean> {
    const text = uri.trim();
    if (!DATA_URI.test(text)) return false;
    if (!this.#assetsDir) {
      this.#out.write(inlineScreenshotTag(id, text));
      await this.#out.maybeFlush();
      return true;
    }
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(text.slice(text.indexOf(",") + 1));
    } catch {
      return false; // not decodable: the viewer would not show it either
    }
    const declared = /^data:image\/([a-z]+)/i.exec(text)![1].toLowerCase();
    await this.#writeAsset(id, bytes, declared === "jpeg" ? "jpg" : declared);
    return true;
  }

  /** An external screenshot of an html-and-external-assets source. */
  async #external(id: string, source: Source, src: string): Promise<boolean> {
    if (!ASSET_SRC.test(src)) return false;
    const fs = await nodeFs();
    const path = await nodePath();
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(path.join(path.dirname(source.file), src));
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return false;
      throw e;
    }
    const given = /\.([A-Za-z0-9]+)$/.exec(src)?.[1].toLowerCase() ?? "png";
    if (this.#assetsDir) {
      await this.#writeAsset(id, bytes, given);
    } else {
      // A source with external files although none was detected as such: inline them.
      const ext = sniff(bytes) ?? given;
      const mime = ext === "jpg" ? "jpeg" : ext;
      this.#out.write(inlineScreenshotTag(id, `data:image/${mime};base64,${encodeBase64(bytes)}`));
      await this.#out.maybeFlush();
    }
    return true;
  }

  async #writeAsset(id: string, bytes: Uint8Array, fallbackExt: string): Promise<void> {
    const fs = await nodeFs();
    const path = await nodePath();
    const ext = sniff(bytes) ?? (/^(png|jpg|webp|gif)$/.test(fallbackExt) ? fallbackExt : "png");
    const stem = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(id) ? id : `x${hashName(id)}`;
    const file = `${stem}.${ext}`;
    await fs.writeFile(path.join(this.#assetsDir!, file), bytes);
    this.#out.write(externalScreenshotTag(id, `screenshots/${file}`));
    await this.#out.maybeFlush();
  }
}

/** Text appended to a file in large chunks. */
class ChunkedFile {
  readonly file: string;
  #parts: string[] = [];
  #size = 0;

  constructor(file: string) {
    this.file = file;
  }

  write(text: string): void {
    this.#parts.push(text);
    this.#size += text.length;
  }

  async maybeFlush(): Promise<void> {
    if (this.#size >= CHUNK) await this.flush();
  }

  async flush(): Promise<void> {
    const fs = await nodeFs();
    const data = this.#parts.join("");
    this.#parts = [];
    this.#size = 0;
    await fs.appendFile(this.file, data);
  }
}

/**
 * The complete data tags of a report file, read a chunk at a time, so memory holds one chunk and
 * the tag being read rather than the whole file. Text is cut after the last `</script>` of what
 * was read: every data tag ends with one, so the tags before the cut are whole and the rest is
 * kept for the next chunk. A tag cut short at the end of the file is not yielded.
 */
async function* streamTags(file: string): AsyncGenerator<ReportTag> {
  const fs = await nodeFs();
  const handle = await fs.open(file, "r");
  try {
    const decoder = new TextDecoder();
    const buf = new Uint8Array(READ_CHUNK);
    let carry = "";
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      const text = carry + decoder.decode(buf.subarray(0, bytesRead), { stream: bytesRead > 0 });
      const end = text.lastIndexOf("</script>");
      if (end < 0) {
        carry = text;
      } else {
        const cut = end + "</script>".length;
        carry = text.slice(cut);
        yield* reportTags(text.slice(0, cut));
      }
      if (bytesRead === 0) return;
    }
  } finally {
    await handle.close();
  }
}

/** Finds a source on disk and tells its layout, or throws naming it. */
async function locate(entry: Entry): Promise<Source> {
  const fs = await nodeFs();
  const path = await nodePath();
  let file = entry.file!;
  const test = entry.attributes.testId;
  let stat;
  try {
    stat = await fs.stat(file);
    if (stat.isDirectory()) {
      file = path.join(file, "index.html");
      stat = await fs.stat(file);
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new Error(
        `Cannot merge reports as the report ${file} of test '${test}' does not exist ` +
          `(finalize the agent with destroy() before merging, and pass agent.reportFile)`,
        { cause: e },
      );
    }
    throw e;
  }
  if (!stat.isFile()) {
    throw new Error(`Cannot merge reports as the report ${file} of test '${test}' is not a file`);
  }
  const handle = await fs.open(file, "r");
  let head: string;
  try {
    const buf = new Uint8Array(2048);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    head = new TextDecoder().decode(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
  if (!head.includes(GENERATOR)) {
    throw new Error(
      `Cannot merge reports as ${file} (test '${test}') is not a report of this SDK: it lacks ` +
        `the report page's header`,
    );
  }
  const csp = /Content-Security-Policy" content="([^"]*)"/.exec(head)?.[1] ?? "";
  return { entry, file, external: /img-src[^;]*\bfile:/.test(csp) };
}

/** Moves the finished temporary output into place (replacing an old one when allowed). */
async function replace(
  tmp: string,
  target: string,
  overwrite: boolean,
  directory: boolean,
): Promise<void> {
  const fs = await nodeFs();
  if (!overwrite && await exists(target)) {
    throw new Error(
      `Cannot merge reports as ${target} already exists: pass { overwrite: true } to replace it, ` +
        `or choose another reportFileName`,
    );
  }
  if (!directory || !await exists(target)) {
    // A file replaces a file atomically; a new directory takes a free name.
    if (!directory && await isDirectory(target)) {
      throw new Error(`Cannot merge reports as ${target} is a directory`);
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
async function removeSources(sources: Source[], target: string): Promise<void> {
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

async function exists(file: string): Promise<boolean> {
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

/** The image format of some bytes, by their magic number. */
function sniff(b: Uint8Array): "png" | "jpg" | "gif" | "webp" | undefined {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (
    b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 &&
    b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50
  ) return "webp";
  return undefined;
}

function hashName(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
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
