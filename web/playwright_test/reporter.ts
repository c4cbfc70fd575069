/**
 * A Playwright Test reporter (issue 16) that merges the reports of a run's tests into one report
 * with {@link ReportMergingTool} (spec 4.6): each test's title, status, duration and place, and
 * its agent's executions. A sharded run (`--shard i/n`) writes a manifest beside its own merged
 * report; {@link mergeShardReports} then combines the shards' manifests into one report, as
 * Playwright's `merge-reports` combines blob reports.
 *
 * @module
 */

import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import process from "node:process";
import type {
  PlaywrightFullConfig as FullConfig,
  PlaywrightReporter as Reporter,
  PlaywrightTestCase as TestCase,
  PlaywrightTestResult as TestResult,
} from "./types.ts";
import { runDir, SdkTypeError, writeFileAtomic } from "@sdk/core";
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
  /** The shard's tests, each with its report (absolute path) and attributes. */
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
      const manifest: ShardManifest = { shard: this.#shard, reports: this.#reports };
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

/**
 * Merges the reports of every shard of a run into one report: reads each
 * `sdk-shard-<i>-of-<n>.json` in `dir` (what {@link SdkReporter} writes in a sharded run) and
 * merges all their tests' reports, in shard order.
 *
 * @param dir the directory holding the shards' manifests (the reporter's `outputDir`).
 * @param name the merged report's name, without `.html`.
 * @param outputDir where the merged report goes. Default: `dir`.
 * @returns the merged report's path.
 * @throws {SdkTypeError} when `dir` holds no manifest, or the manifests are of runs with
 *   different shard counts or miss a shard; the merging tool's error when a test's report is gone.
 */
export async function mergeShardReports(
  dir: string,
  name: string,
  outputDir: string = dir,
): Promise<string> {
  const files = (await readdir(dir)).filter((f) => MANIFEST.test(f));
  if (files.length === 0) {
    throw new SdkTypeError(
      `Cannot merge shard reports: ${dir} holds no sdk-shard-<i>-of-<n>.json (run each shard ` +
        `with the SdkReporter of @sdk/web/playwright-test and the same outputDir)`,
    );
  }
  const manifests = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(dir, f), "utf8")) as ShardManifest),
  );
  manifests.sort((a, b) => a.shard.current - b.shard.current);
  const totals = new Set(manifests.map((m) => m.shard.total));
  if (totals.size !== 1) {
    throw new SdkTypeError(
      `Cannot merge shard reports: ${dir} holds manifests of runs with ${
        [...totals].join(" and ")
      } shards; keep one run's manifests in it`,
    );
  }
  const [total] = totals;
  const missing = Array.from({ length: total }, (_, i) => i + 1)
    .filter((i) => !manifests.some((m) => m.shard.current === i));
  if (missing.length > 0) {
    throw new SdkTypeError(
      `Cannot merge shard reports: shard ${missing.join(", ")} of ${total} has no manifest in ` +
        `${dir} (did that shard run, with the same outputDir?)`,
    );
  }
  const tool = new ReportMergingTool();
  for (const manifest of manifests) for (const report of manifest.reports) tool.append(report);
  const merged = await tool.mergeReports(name, { outputDir, overwrite: true });
  return merged!;
}
