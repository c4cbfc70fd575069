/**
 * A Playwright Test reporter (issue 16) that merges the reports of a run's tests into one report
 * with {@link ReportMergingTool} (spec 4.6): each test's title, status, duration and place, and
 * its agent's executions. A sharded run (`--shard i/n`) writes a manifest beside its own merged
 * report; {@link mergeShardReports} then combines the shards' manifests into one report, as
 * Playwright's `merge-reports` combines blob reports.
 *
 * @module
 */

import { readdir, readFile, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import process from "node:process";
import type {
  PlaywrightFullConfig as FullConfig,
  PlaywrightReporter as Reporter,
  PlaywrightTestCase as TestCase,
  PlaywrightTestResult as TestResult,
} from "./types.ts";
import { FileError, runDir, writeFileAtomic } from "@sdk/core";
import {
  type ReportFileWithAttributes,
  ReportMergingTool,
  type TestStatus,
} from "@sdk/core/report";
import { SDK_REPORT_ATTACHMENT } from "./fixtures.ts";

/** Options of {@link SdkReporter}, given in the Playwright config's `reporter` entry. */
export interface SdkReporterOptions {
  /**
   * Name of the merged report (without `.html`). Default: the merging tool's generated
   * `merged-report-<date>_<time>-<4 hex>` (`shard-<i>-of-<n>` in a sharded run); with a name, a
   * sharded run appends `-shard-<i>-of-<n>`.
   */
  name?: string;
  /**
   * Directory of the merged report and of a shard's manifest. Default
   * `<SDK_RUN_DIR or sdk_run>/report`.
   */
  outputDir?: string;
}

/** What a shard leaves for {@link mergeShardReports}: `sdk-shard-<i>-of-<n>.json`. */
export interface ShardManifest {
  /** 1-based shard index and the shard count. */
  shard: { current: number; total: number };
  /**
   * The shard's tests, each with its report and attributes. A report's path is relative to the
   * manifest's folder, with `/` separators (`login-abc.html`, `../sdk_run/report/login-abc.html`),
   * so the folder can be moved or collected elsewhere; manifests of earlier versions hold absolute
   * paths, which are read as they are.
   */
  reports: ReportFileWithAttributes[];
}

const MANIFEST = /^sdk-shard-(\d+)-of-(\d+)\.json$/;

/**
 * Merges the test reports of a Playwright Test run. Add it next to your usual reporter:
 * `reporter: [["list"], ["@sdk/web/playwright-test", { name: "nightly" }]]`. Tests that used the
 * `agent` fixtures ({@link sdkFixtures}) bring their report; skipped tests are listed without
 * one; other tests without an agent are left out. It prints the merged report's path at the end.
 */
export class SdkReporter implements Reporter {
  readonly #options: SdkReporterOptions;
  #shard: { current: number; total: number } | null = null;
  readonly #reports: ReportFileWithAttributes[] = [];

  /**
   * A reporter that merges the run's reports when the run ends.
   *
   * @param options where and under which name the merged report goes.
   */
  constructor(options: SdkReporterOptions = {}) {
    this.#options = options;
  }

  /** Reads the shard of the run. */
  onBegin(config: FullConfig): void {
    this.#shard = config.shard;
  }

  /** Takes the test's report from its `sdk-report` attachment. */
  onTestEnd(test: TestCase, result: TestResult): void {
    const attachment = result.attachments.find((a) => a.name === SDK_REPORT_ATTACHMENT && a.body);
    const reportFilePath = attachment?.body?.toString("utf8");
    if (!reportFilePath && result.status !== "skipped") return;
    this.#reports.push({
      reportFilePath: reportFilePath ?? null,
      reportAttributes: {
        testId: result.retry ? `${test.id}-retry${result.retry}` : test.id,
        testTitle: test.titlePath().filter(Boolean).slice(1).join(" › ") +
          (result.retry ? ` (retry ${result.retry})` : ""),
        testDescription: `${test.location.file}:${test.location.line}`,
        testDuration: Math.max(0, result.duration),
        testStatus: result.status as TestStatus,
      },
    });
  }

  /** Writes the merged report (and a shard's manifest) and prints its path. */
  async onEnd(): Promise<void> {
    if (this.#reports.length === 0) return;
    const outputDir = resolve(this.#options.outputDir ?? join(await runDir(), "report"));
    let name = this.#options.name ?? "AUTO";
    if (this.#shard) {
      const { current, total } = this.#shard;
      const shard = `shard-${current}-of-${total}`;
      name = this.#options.name ? `${this.#options.name}-${shard}` : shard;
      const manifest: ShardManifest = {
        shard: this.#shard,
        reports: this.#reports.map((r) => ({
          ...r,
          reportFilePath: r.reportFilePath &&
            relative(outputDir, resolve(r.reportFilePath)).split(sep).join("/"),
        })),
      };
      await writeFileAtomic(
        join(outputDir, `sdk-shard-${current}-of-${total}.json`),
        JSON.stringify(manifest, null, 2) + "\n",
      );
    }
    const tool = new ReportMergingTool();
    for (const report of this.#reports) tool.append(report);
    const merged = await tool.mergeReports(name, { outputDir, overwrite: true });
    if (merged) process.stdout.write(`SDK report: ${merged}\n`);
  }

  /** Other reporters keep the terminal: this one prints one line at the end. */
  printsToStdio(): boolean {
    return false;
  }
}

/** A manifest read from disk, and where. */
interface ReadManifest {
  /** The manifest file. */
  file: string;
  /** Its content. */
  manifest: ShardManifest;
}

/** The shard manifests in `dir` and in its direct subfolders (one per collected shard). */
async function readManifests(dir: string): Promise<ReadManifest[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((e) => {
    throw new FileError(
      `Cannot merge shard reports: cannot read the folder ${dir} (${(e as Error).message})`,
      { path: dir, reason: "missing" },
      { cause: e },
    );
  });
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.isFile() && MANIFEST.test(entry.name)) files.push(join(dir, entry.name));
    if (!entry.isDirectory()) continue;
    const inner = await readdir(join(dir, entry.name)).catch(() => [] as string[]);
    for (const name of inner) if (MANIFEST.test(name)) files.push(join(dir, entry.name, name));
  }
  return await Promise.all(files.map(async (file) => {
    let manifest: ShardManifest;
    try {
      manifest = JSON.parse(await readFile(file, "utf8"));
    } catch (e) {
      throw new FileError(
        `Cannot merge shard reports: ${file} is not a shard manifest (${(e as Error).message})`,
        { path: file, reason: "invalid" },
        { cause: e },
      );
    }
    if (!manifest?.shard || !Array.isArray(manifest.reports)) {
      throw new FileError(
        `Cannot merge shard reports: ${file} is not a shard manifest (no 'shard' and 'reports')`,
        { path: file, reason: "invalid" },
      );
    }
    return { file, manifest };
  }));
}

/**
 * Merges the reports of every shard of a run into one report: reads each
 * `sdk-shard-<i>-of-<n>.json` in `dir`, or in its direct subfolders (what {@link SdkReporter}
 * writes in a sharded run, collected into one place, as CI's artifacts are), and merges all their
 * tests' reports, in shard order. A report's path is read relative to its manifest's folder, so a
 * shard's folder may be copied anywhere as a whole.
 *
 * @param dir the folder holding the shards' manifests (or their folders).
 * @param name the merged report's name, without `.html`.
 * @param outputDir where the merged report goes. Default: `dir`.
 * @returns the merged report's path.
 * @throws {FileError} when `dir` holds no manifest (`FILE_NOT_FOUND`), a shard's manifest is
 *   missing (`FILE_NOT_FOUND`), manifests of runs with different shard counts are mixed or a
 *   manifest is not one (`FILE_INVALID`), or a test's report is not where its manifest says
 *   (`FILE_NOT_FOUND`, naming the report, the test and the shard); the merging tool's errors.
 */
export async function mergeShardReports(
  dir: string,
  name: string,
  outputDir: string = dir,
): Promise<string> {
  const read = await readManifests(dir);
  if (read.length === 0) {
    throw new FileError(
      `Cannot merge shard reports: ${dir} holds no sdk-shard-<i>-of-<n>.json, nor do its ` +
        `subfolders (run each shard with the SdkReporter of @sdk/web/playwright-test, and ` +
        `collect each shard's report folder here)`,
      { path: dir, reason: "missing" },
    );
  }
  read.sort((a, b) => a.manifest.shard.current - b.manifest.shard.current);
  const totals = new Set(read.map((m) => m.manifest.shard.total));
  if (totals.size !== 1) {
    throw new FileError(
      `Cannot merge shard reports: ${dir} holds manifests of runs with ${
        [...totals].join(" and ")
      } shards (${read.map((m) => m.file).join(", ")}); keep one run's manifests in it`,
      { path: dir, reason: "invalid" },
    );
  }
  const [total] = totals;
  const missing = Array.from({ length: total }, (_, i) => i + 1)
    .filter((i) => !read.some((m) => m.manifest.shard.current === i));
  if (missing.length > 0) {
    throw new FileError(
      `Cannot merge shard reports: shard ${missing.join(", ")} of ${total} has no manifest in ` +
        `${dir} (did that shard run, and was its report folder collected here?)`,
      { path: join(dir, `sdk-shard-${missing[0]}-of-${total}.json`), reason: "missing" },
    );
  }
  const tool = new ReportMergingTool();
  const seen = new Set<number>();
  for (const { file, manifest } of read) {
    // A shard collected twice (two folders) counts once.
    if (seen.has(manifest.shard.current)) continue;
    seen.add(manifest.shard.current);
    const base = join(file, "..");
    for (const report of manifest.reports) {
      const path = report.reportFilePath;
      const absolute = path ? (isAbsolute(path) ? path : resolve(base, path)) : path;
      if (absolute && !(await stat(absolute).then(() => true, () => false))) {
        throw new FileError(
          `Cannot merge shard reports: the report ${absolute} of test ` +
            `'${report.reportAttributes.testTitle}' (shard ${manifest.shard.current} of ` +
            `${manifest.shard.total}, listed in ${file} as ${JSON.stringify(path)}) does not ` +
            `exist; copy each shard's report folder whole, its reports beside its manifest`,
          { path: absolute, reason: "missing" },
        );
      }
      tool.append({ ...report, reportFilePath: absolute });
    }
  }
  const merged = await tool.mergeReports(name, { outputDir, overwrite: true });
  return merged!;
}
