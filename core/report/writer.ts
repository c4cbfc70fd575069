/**
 * Writes the report file of one agent while it runs (spec 2.1, 2.8, 3.1; DESIGN "Report").
 *
 * @module
 */

import { InvalidStateError, SdkTypeError } from "../errors.ts";
import { hasFileSystem, nodeFs, nodePath, runDir, writeFileAtomic } from "../runtime/runtime.ts";
import {
  contentHash,
  executionTag,
  externalScreenshotTag,
  inlineScreenshotTag,
  metaTag,
  normalizeScreenshot,
} from "./_format.ts";
import {
  claimReportTarget,
  generatedName,
  isReportFileName,
  type ReportLayout,
  type ReportTarget,
  reportTarget,
} from "./_report_paths.ts";
import type { ReportLock } from "./_report_lock.ts";
import type { ReportExecution, ReportMeta, ReportScreenshotSink } from "./types.ts";
import { viewerPage, viewerScriptHash } from "./viewer.ts";
import { logger } from "../log/run_log.ts";

const log = logger("sdk:report");

/**
 * How a report is laid out on disk (spec 2.1 `outputFormat`):
 * - `"single-html"`: one HTML file with screenshots embedded as base64, opens from `file://`.
 * - `"html-and-external-assets"`: a directory with `index.html` and a `screenshots/` folder of
 *   image files; must be served over HTTP to be viewed reliably.
 */
export type ReportOutputFormat = "single-html" | "html-and-external-assets";

/**
 * Where a report goes: `"file"` under the run directory (where a file system exists), or
 * `"memory"`, kept in memory as the data of one single-file report, for
 * {@link ReportWriter.html} and {@link reportToHtml} (the only choice in a browser page).
 */
export type ReportStorage = "file" | "memory";

/** Options of {@link ReportWriter.create}. */
export interface ReportWriterOptions {
  /**
   * Report name (spec `reportFileName`). With `single-html` the file is
   * `<run dir>/report/<name>.html`, and a name already ending in `.html` is kept as is; with
   * `html-and-external-assets` it names the directory. Default: generated from the interface
   * type, the local time and 4 random hex digits, e.g. `web-page-2026-11-22_14-30-05-ab12`.
   * A name whose agent is still running (another agent of this process or another) is never
   * replaced: the writer takes `<name>-2` (then `-3`, ...) and the console names both files. A
   * report whose agent finished (its writer finalized, or its process gone) is replaced,
   * atomically, by the first write of the next writer of that name.
   */
  name?: string;
  /** Header of the report; `name` and `createdAt` are filled in here. */
  meta: Omit<ReportMeta, "name" | "createdAt">;
  /** Whether a file is written at all (spec `generateReport`). Default `true`. */
  generateReport?: boolean;
  /** Layout on disk. Default `"single-html"`. */
  outputFormat?: ReportOutputFormat;
  /**
   * Also write each execution, once it is no longer running, as JSON next to the report (spec
   * `persistExecutionDump`): `<name>.<execution id>.execution.json` beside a single HTML file, or
   * `executions/<execution id>.json` inside the report directory. Screenshots appear there by id;
   * the images are in the report. Default `false`; ignored when no report is generated.
   */
  persistExecutionDump?: boolean;
  /**
   * `"file"` (the default where a file system exists) or `"memory"` (the default, and the only
   * choice, in a browser runtime): the screenshots and executions stay in memory, nothing is
   * written, {@link ReportWriter.file} stays undefined and {@link ReportWriter.html} returns the
   * single-file report. `outputFormat` and `persistExecutionDump` do not apply in memory.
   */
  storage?: ReportStorage;
}

interface PendingShot {
  id: string;
  uri: string;
  mime: string;
}

const encoder = new TextEncoder();

/** The in-memory report of the writers that recorded `executions`; set by the class. */
let htmlOf: (executions: readonly ReportExecution[]) => string;

/** Writers that keep their report in memory, for {@link reportToHtml}; weak, so agents can go. */
const memoryWriters = new Set<WeakRef<ReportWriter>>();

/** What a writer keeps in memory (`storage: "memory"`). */
interface MemoryReport {
  /** Screenshot data URIs by id, in first-seen order. */
  shots: Map<string, string>;
  /** Each execution's JSON as last recorded, by id, in first-seen order. */
  executions: Map<string, string>;
  /** The viewer's CSP script hash. */
  scriptHash: string | undefined;
}

/**
 * Writes an agent's report: an HTML viewer followed by data appended as the run goes on, so each
 * update costs only its new data and the file is readable after every {@link writeExecution},
 * even if the process dies later. Screenshots are stored once by content hash and dropped from
 * memory once written.
 *
 * With `generateReport: false` nothing is kept: screenshots still get ids, every write resolves at
 * once and {@link file} stays undefined. Without a file system (a browser page), or with
 * `storage: "memory"`, nothing is written either, but the report is kept in memory:
 * {@link html} (or {@link reportToHtml} with the agent) returns it as one HTML file to download.
 *
 * @example Write a report with one step
 * ```ts
 * import { ReportWriter } from "@sdk/core/report";
 *
 * const writer = await ReportWriter.create({
 *   meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
 * });
 * const png = "data:image/png;base64,iVBORw0KGgo="; // a real screenshot in practice
 * const shot = writer.addScreenshot(png);
 * await writer.writeExecution({
 *   id: "1",
 *   apiName: "aiTap",
 *   prompt: "the login button",
 *   status: "passed",
 *   startedAt: Date.now() - 900,
 *   endedAt: Date.now(),
 *   steps: [{ kind: "Locate", title: "Locate 'the login button'", status: "passed",
 *     startedAt: Date.now() - 900, endedAt: Date.now(), screenshot: shot }],
 * });
 * console.log(await writer.finalize()); // .../sdk_run/report/web-page-....html
 * ```
 */
export class ReportWriter implements ReportScreenshotSink {
  /** Header written into the report; `name` is the report name without `.html`. */
  readonly meta: ReportMeta;
  /** Whether this writer produces a file (a file system exists and `generateReport` is on). */
  readonly enabled: boolean;
  /** Whether this writer keeps its report in memory instead (`storage: "memory"`). */
  readonly inMemory: boolean;

  /** Where the report goes: the name asked for until the first write claims the file. */
  #target: ReportTarget | undefined;
  readonly #layout: ReportLayout | undefined;
  /** Whether the name was the user's (a taken name is then warned about). */
  readonly #givenName: boolean;
  readonly #scriptHash: string | undefined;
  readonly #externalAssets: boolean;
  readonly #persistDump: boolean;
  /** Ids of screenshots queued or written; the images themselves are not kept. */
  readonly #known = new Set<string>();
  #pending: PendingShot[] = [];
  /** Per execution id: hashes of the header and of each step as last written, for deltas. */
  readonly #written = new Map<string, { head: string; steps: string[] }>();
  /** Serialises file operations so appends land in call order. */
  #chain: Promise<void> = Promise.resolve();
  /** Bytes of the file known to be complete; a failed append is cut back to this. */
  #size = 0;
  #file: string | undefined;
  /** The marker that this writer's agent is live; released by {@link finalize}. */
  #lock: ReportLock | undefined;
  /** Set by {@link finalize}: later writes are dropped, the file is no longer this writer's. */
  #finalized = false;
  readonly #memory: MemoryReport | undefined;

  private constructor(
    meta: ReportMeta,
    target: { layout: ReportLayout; first: ReportTarget; given: boolean } | undefined,
    scriptHash: string | undefined,
    externalAssets: boolean,
    persistDump: boolean,
    memory?: MemoryReport,
  ) {
    this.meta = meta;
    this.#target = target?.first;
    this.#layout = target?.layout;
    this.#givenName = target?.given ?? false;
    this.enabled = target !== undefined;
    this.#memory = memory;
    this.inMemory = memory !== undefined;
    if (memory) {
      for (const ref of memoryWriters) if (!ref.deref()) memoryWriters.delete(ref);
      memoryWriters.add(new WeakRef(this));
    }
    this.#scriptHash = scriptHash;
    this.#externalAssets = externalAssets;
    this.#persistDump = persistDump;
  }

  /**
   * Creates a writer. Writes nothing yet: the file appears with the first
   * {@link writeExecution}, so a run without executions leaves no file (spec 2.8).
   *
   * @throws {TypeError} when `name` is empty or contains a path separator, or `storage` is
   * `"file"` in a browser runtime or neither `"file"` nor `"memory"`.
   */
  static async create(options: ReportWriterOptions): Promise<ReportWriter> {
    const createdAt = Date.now();
    const format = options.outputFormat ?? "single-html";
    const given = options.name;
    if (given !== undefined && !isReportFileName(given)) {
      throw new SdkTypeError(
        `Cannot create report as 'reportFileName' must be a file name without path ` +
          `separators: current value is '${given}'`,
      );
    }
    const name = given ?? generatedName(options.meta.interfaceType, createdAt);
    const external = format === "html-and-external-assets";
    const meta: ReportMeta = {
      ...options.meta,
      name: !external && /\.html$/i.test(name) ? name.slice(0, -5) : name,
      createdAt,
    };
    const storage = options.storage ?? (hasFileSystem ? "file" : "memory");
    if (storage !== "file" && storage !== "memory") {
      throw new SdkTypeError(
        `Cannot create report as 'storage' must be "file" or "memory": current value is ${
          JSON.stringify(storage)
        }`,
      );
    }
    if (storage === "file" && !hasFileSystem) {
      throw new SdkTypeError(
        `Cannot create report as 'storage' is "file" and a browser runtime has no file system; use "memory"`,
      );
    }
    if (options.generateReport === false) {
      return new ReportWriter(meta, undefined, undefined, external, false);
    }
    if (storage === "memory") {
      const memory: MemoryReport = {
        shots: new Map(),
        executions: new Map(),
        scriptHash: await viewerScriptHash(),
      };
      return new ReportWriter(meta, undefined, undefined, false, false, memory);
    }
    const path = await nodePath();
    const layout: ReportLayout = {
      reportDir: path.join(await runDir(), "report"),
      name: meta.name,
      external,
    };
    return new ReportWriter(
      meta,
      { layout, first: await reportTarget(layout, meta.name), given: given !== undefined },
      await viewerScriptHash(),
      external,
      options.persistExecutionDump === true,
    );
  }

  /**
   * Path of the report file; undefined until the first {@link writeExecution} has been written,
   * and always undefined when {@link enabled} is false.
   */
  get file(): string | undefined {
    return this.#file;
  }

  /**
   * Registers a screenshot and returns its id: a content hash (FNV-1a 64 of the data URI's bytes
   * plus its length). A new image is queued and written with the next {@link writeExecution} or
   * {@link finalize}, then released; the same image again costs only the hash (about 4 ns per
   * byte: some 1.5 ms for a 300 KB screenshot).
   *
   * @param dataUri a base64 PNG, JPEG, WebP or GIF data URI, or a raw base64 body taken as PNG.
   * @returns the id to put in {@link ReportStep.screenshot}.
   * @throws {TypeError} when `dataUri` is not base64 image data.
   */
  addScreenshot(dataUri: string): string {
    const { uri, mime } = normalizeScreenshot(dataUri);
    const id = contentHash(uri);
    if (this.#memory && !this.#memory.shots.has(id)) this.#memory.shots.set(id, uri);
    if (this.#target && !this.#known.has(id)) {
      this.#known.add(id);
      this.#pending.push({ id, uri, mime });
    }
    return id;
  }

  /**
   * Records the current state of an execution; a later call with the same `exec.id` replaces it.
   * The state is captured synchronously, so the caller may keep mutating `exec`. Appends only what
   * changed, in one append: queued screenshots, then the execution's header and its steps from
   * the first one that differs from what is on disk. When the promise resolves, the file shows
   * everything recorded so far. Calls are written in call order, even when not awaited.
   *
   * @throws {TypeError} (as a rejection) when `exec` does not serialise to JSON (a cycle, a BigInt).
   * @throws {Error} the file system's error when the write fails (e.g. no write permission); the
   * file is cut back to its last complete state, the next write carries the lost screenshots
   * again and the next write of this execution carries it in full.
   */
  writeExecution(exec: ReportExecution): Promise<void> {
    if (!this.#target && !this.#memory) return Promise.resolve();
    let snapshot: ExecutionSnapshot;
    try {
      snapshot = snapshotExecution(exec);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#target) {
      this.#memory!.executions.set(snapshot.id, snapshot.json());
      return Promise.resolve();
    }
    const dump = this.#persistDump && exec.status !== "running";
    return this.#enqueue(async () => {
      if (this.#finalized) {
        // The report is final, and its name may belong to the next agent already.
        log("dropped after finalize", { file: this.#file, execution: snapshot.id });
        return;
      }
      // The first write claims the file, and with it the report's final name.
      if (this.#file === undefined) await this.#claim();
      const target = this.#target!;
      // Diff against what reached the disk, so a failed earlier write is simply redone.
      const prev = this.#written.get(snapshot.id);
      const { hashes, head } = snapshot;
      let from = 0;
      while (prev && from < prev.steps.length && from < hashes.length) {
        if (prev.steps[from] !== hashes[from]) break;
        from++;
      }
      const unchanged = prev !== undefined && prev.head === head &&
        from === hashes.length && from === prev.steps.length;
      const shots = this.#pending;
      this.#pending = [];
      let chunk = shots.map((s) => this.#screenshotTag(s)).join("");
      if (!unchanged) chunk += executionTag(snapshot.id, snapshot.json(from));
      try {
        await this.#writeAssets(shots);
        await this.#append(target, chunk);
      } catch (error) {
        this.#pending = shots.concat(this.#pending);
        log("write failed", { file: target.file, execution: snapshot.id, error });
        throw error;
      }
      this.#written.set(snapshot.id, { head, steps: hashes });
      log("written", {
        file: target.file,
        execution: snapshot.id,
        status: exec.status,
        screenshots: shots.length,
        bytes: this.#size,
      });
      if (dump) {
        await writeFileAtomic(
          target.dumpFile(snapshot.id),
          `{"meta":${JSON.stringify(this.meta)},"execution":${snapshot.json()}}`,
        );
      }
    });
  }

  /**
   * Writes screenshots still queued and waits for all writes, then marks the report finished: the
   * next writer of its name replaces it, and later writes of this writer are dropped. Safe to call
   * more than once; each call returns the current path. When no execution was ever written there
   * is no file and the queue is dropped.
   *
   * @returns the report file path, or undefined when no file was written.
   * @throws {Error} the file system's error when the last writes fail.
   */
  async finalize(): Promise<string | undefined> {
    if (!this.#target) return undefined;
    await this.#enqueue(async () => {
      const target = this.#target!;
      if (this.#file === undefined) {
        // No execution reached the file: no report (spec 2.8), nothing to keep.
        this.#pending = [];
        this.#finalized = true;
        return;
      }
      const shots = this.#pending;
      this.#pending = [];
      try {
        if (shots.length > 0) {
          await this.#writeAssets(shots);
          await this.#append(target, shots.map((s) => this.#screenshotTag(s)).join(""));
        }
      } catch (error) {
        this.#pending = shots.concat(this.#pending);
        throw error;
      }
      this.#finalized = true;
      await this.#lock?.release();
    });
    if (this.#file) log("finalized", { file: this.#file, bytes: this.#size });
    return this.#file;
  }

  /**
   * The report kept in memory (`storage: "memory"`, the default in a browser page) as one
   * self-contained HTML file, the same viewer a report file has, with every screenshot embedded:
   * what a page offers for download. Each call builds it anew from what was recorded so far.
   *
   * @returns the HTML, or undefined when the writer keeps no report in memory or no execution was
   * recorded yet (spec 2.8: no executions, no report).
   */
  html(): string | undefined {
    const memory = this.#memory;
    if (!memory || memory.executions.size === 0) return undefined;
    return composeHtml(
      this.meta,
      memory.scriptHash,
      memory.shots,
      [...memory.executions].map(([id, json]) => ({ id, json })),
    );
  }

  static {
    // reportToHtml reads the in-memory reports of other writers; a static block gives it the
    // private fields without a public method.
    htmlOf = (executions) => {
      if (executions.length === 0) {
        throw new InvalidStateError(
          "Cannot build a report: there are no executions yet (spec 2.8)",
        );
      }
      const owners: ReportWriter[] = [];
      for (const ref of memoryWriters) {
        const writer = ref.deref();
        if (!writer) {
          memoryWriters.delete(ref);
          continue;
        }
        const held = writer.#memory?.executions;
        if (held && executions.some((e) => held.has(String(e.id)))) owners.push(writer);
      }
      if (owners.length === 0) {
        throw new InvalidStateError(
          "Cannot build a report: no in-memory report holds these executions. The report is " +
            "kept in memory in a browser runtime (or with the writer's storage: 'memory') " +
            "unless generateReport is false; in Deno and Node open agent.reportFile instead.",
        );
      }
      const shots = new Map<string, string>();
      for (const owner of owners) {
        for (const [id, uri] of owner.#memory!.shots) shots.set(id, uri);
      }
      return composeHtml(
        owners[0].meta,
        owners[0].#memory!.scriptHash,
        shots,
        executions.map((e) => ({ id: String(e.id), json: JSON.stringify(e) })),
      );
    };
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(task);
    this.#chain = run.catch(() => {});
    return run;
  }

  #screenshotTag(shot: PendingShot): string {
    if (!this.#externalAssets) return inlineScreenshotTag(shot.id, shot.uri);
    return externalScreenshotTag(shot.id, `screenshots/${assetName(shot)}`);
  }

  async #writeAssets(shots: PendingShot[]): Promise<void> {
    const dir = this.#target?.assetsDir;
    if (!dir || shots.length === 0) return;
    const fs = await nodeFs();
    const path = await nodePath();
    await fs.mkdir(dir, { recursive: true });
    for (const shot of shots) {
      await fs.writeFile(path.join(dir, assetName(shot)), decodeBase64(shot.uri));
    }
  }

  /**
   * Creates the report file, the viewer and the meta tag in it, under the first name no live
   * agent holds (see `claimReportTarget`): the asked-for name, else `<name>-2`, ...
   */
  async #claim(): Promise<void> {
    const { target, size, lock } = await claimReportTarget(this.#layout!, (name) => {
      const meta = { ...this.meta, name };
      const page = viewerPage({
        title: name,
        scriptHash: this.#scriptHash,
        externalAssets: this.#externalAssets,
      });
      return encoder.encode(page + metaTag(meta));
    }, this.#givenName);
    this.meta.name = target.name;
    this.#target = target;
    this.#size = size;
    this.#file = target.file;
    this.#lock = lock;
  }

  /** Appends one chunk in one call, to the file {@link #claim} created. */
  async #append(target: ReportTarget, chunk: string): Promise<void> {
    const bytes = encoder.encode(chunk);
    const fs = await nodeFs();
    try {
      await fs.appendFile(target.file, bytes);
      this.#size += bytes.length;
    } catch (error) {
      // Part of the chunk may be on disk; a cut tag would swallow the next chunk's first tag.
      await fs.truncate(target.file, this.#size).catch(() => {});
      throw error;
    }
  }
}

/** Anything that holds an agent's executions: the agent itself, or its `_unstableLogContent()`. */
export type ReportSource =
  | { readonly executions: readonly ReportExecution[] }
  | { _unstableLogContent(): { executions: ReportExecution[] } };

/**
 * The report of an agent whose report is kept in memory (in a browser page, where there is no
 * report file and `agent.reportFile` stays undefined) as one self-contained HTML file: the same
 * viewer as a report file, with every screenshot embedded. Offer it for download, e.g. through a
 * `Blob` and an `<a download>` link (docs/in-browser.md).
 *
 * @param source the agent, or what its `_unstableLogContent()` returned.
 * @returns the HTML text.
 * @throws {Error} when there are no executions yet, or when no in-memory report holds them (in
 * Deno and Node, where the report is a file: open `agent.reportFile`; or `generateReport: false`).
 *
 * @example Download the report from a page
 * ```ts ignore
 * const html = reportToHtml(agent);
 * const a = document.createElement("a");
 * a.href = URL.createObjectURL(new Blob([html], { type: "text/html" }));
 * a.download = "report.html";
 * a.click();
 * ```
 */
export function reportToHtml(source: ReportSource): string {
  const log = "_unstableLogContent" in source ? source._unstableLogContent() : source;
  if (!log || !Array.isArray(log.executions)) {
    throw new SdkTypeError("reportToHtml: expected an agent or { executions: [...] }");
  }
  return htmlOf(log.executions);
}

function composeHtml(
  meta: ReportMeta,
  scriptHash: string | undefined,
  shots: ReadonlyMap<string, string>,
  executions: readonly { id: string; json: string }[],
): string {
  let html = viewerPage({ title: meta.name, scriptHash }) + metaTag(meta);
  for (const [id, uri] of shots) html += inlineScreenshotTag(id, uri);
  for (const { id, json } of executions) html += executionTag(id, json);
  return html;
}

/** An execution frozen as JSON text at the time of a write call. */
interface ExecutionSnapshot {
  id: string;
  /** Hash of the execution without its steps. */
  head: string;
  /** Hash of each step's JSON. */
  hashes: string[];
  /** The tag payload: the whole execution, or a delta carrying the steps from index `from`. */
  json(from?: number): string;
}

function snapshotExecution(exec: ReportExecution): ExecutionSnapshot {
  const steps = exec.steps.map((s) => JSON.stringify(s) ?? "null");
  // `steps: undefined` drops the key; the steps are spliced in as already-serialised text.
  const headJson = JSON.stringify({ ...exec, steps: undefined });
  return {
    id: String(exec.id),
    head: contentHash(headJson),
    hashes: steps.map(contentHash),
    json(from = 0) {
      const body = `"steps":[${steps.slice(from).join(",")}]` +
        (from > 0 ? `,"stepsFrom":${from}` : "");
      return headJson === "{}" ? `{${body}}` : `${headJson.slice(0, -1)},${body}}`;
    },
  };
}

function assetName(shot: PendingShot): string {
  const ext = shot.mime === "image/jpeg" ? "jpg" : shot.mime.slice("image/".length);
  return `${shot.id}.${ext}`;
}

function decodeBase64(uri: string): Uint8Array {
  const bin = atob(uri.slice(uri.indexOf(",") + 1).replace(/[\r\n]/g, ""));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}
