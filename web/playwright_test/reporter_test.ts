/**
 * SdkReporter's shard manifests and mergeShardReports, with real report files and the reporter
 * driven as Playwright Test drives it (onBegin, onTestEnd, onEnd): manifests hold paths relative
 * to themselves, so a shard folder that CI copies elsewhere still merges, and a missing report is
 * an error naming the file and the shard.
 *
 * @module
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { FileError } from "@sdk/core";
import { ReportWriter } from "@sdk/core/report";
import { parseReportHtml } from "../../core/report/_format.ts";
import { mergeShardReports, SdkReporter, type ShardManifest } from "./reporter.ts";
import { SDK_REPORT_ATTACHMENT } from "./fixtures.ts";
import type { PlaywrightFullConfig, PlaywrightTestCase, PlaywrightTestResult } from "./types.ts";

/** A report with one aiTap execution named after `title`, written in `SDK_RUN_DIR`. */
async function report(title: string): Promise<string> {
  const writer = await ReportWriter.create({
    name: title.replace(/\W+/g, "-"),
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
  });
  await writer.writeExecution({
    id: "1",
    apiName: "aiTap",
    prompt: `the button of ${title}`,
    status: "passed",
    startedAt: 1_700_000_000_000,
    endedAt: 1_700_000_001_000,
    steps: [],
  });
  return (await writer.finalize())!;
}

/** Runs one shard's reporter over tests with the given titles; returns what it printed. */
async function runShard(current: number, total: number, titles: string[]): Promise<void> {
  const reporter = new SdkReporter();
  reporter.onBegin({ shard: { current, total } } as PlaywrightFullConfig);
  for (const title of titles) {
    const file = await report(title);
    reporter.onTestEnd(
      {
        id: title,
        titlePath: () => ["", "chromium", "taps.spec.mjs", title],
        location: { file: "taps.spec.mjs", line: 1, column: 1 },
      } as unknown as PlaywrightTestCase,
      {
        status: "passed",
        retry: 0,
        duration: 10,
        attachments: [{
          name: SDK_REPORT_ATTACHMENT,
          contentType: "text/plain",
          body: Buffer.from(file),
        }],
      } as unknown as PlaywrightTestResult,
    );
  }
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await reporter.onEnd();
  } finally {
    process.stdout.write = write;
  }
}

/** Runs two shards in a fresh run directory; returns its report folder. */
async function twoShards(work: string): Promise<string> {
  const runDir = join(work, "sdk_run");
  const before = process.env.SDK_RUN_DIR;
  process.env.SDK_RUN_DIR = runDir;
  try {
    await runShard(1, 2, ["first test", "second test"]);
    await runShard(2, 2, ["third test"]);
  } finally {
    if (before === undefined) delete process.env.SDK_RUN_DIR;
    else process.env.SDK_RUN_DIR = before;
  }
  return join(runDir, "report");
}

test("shard manifests hold paths relative to themselves, and a shard folder copied elsewhere merges", async () => {
  const work = await mkdtemp(join(tmpdir(), "sdk-shards-"));
  try {
    const reports = await twoShards(work);
    const manifest = JSON.parse(
      await readFile(join(reports, "sdk-shard-1-of-2.json"), "utf8"),
    ) as ShardManifest;
    assert.deepEqual(
      manifest.reports.map((r) => r.reportFilePath),
      ["first-test.html", "second-test.html"],
    );
    // CI collects each shard's folder into another place; the run's own folder is gone.
    const collected = join(work, "collected", "all-shards");
    await mkdir(join(work, "collected"));
    await cp(reports, collected, { recursive: true });
    await rm(join(work, "sdk_run"), { recursive: true });
    const merged = await mergeShardReports(collected, "nightly");
    assert.equal(merged, join(collected, "nightly.html"));
    const parsed = parseReportHtml(await readFile(merged, "utf8"));
    assert.deepEqual(
      parsed.sources.map((s) => s.testTitle),
      ["taps.spec.mjs › first test", "taps.spec.mjs › second test", "taps.spec.mjs › third test"],
    );
    assert.equal(parsed.executions.length, 3);

    // Or each shard's folder in a subfolder of its own, as CI downloads artifacts.
    const split = join(work, "artifacts");
    for (const shard of [1, 2]) {
      await cp(collected, join(split, `shard-${shard}`), { recursive: true });
      await rm(join(split, `shard-${shard}`, `sdk-shard-${3 - shard}-of-2.json`));
    }
    const again = parseReportHtml(await readFile(await mergeShardReports(split, "again"), "utf8"));
    assert.equal(again.sources.length, 3);
    assert.equal(again.executions.length, 3);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test("mergeShardReports: a report missing from a shard folder is a FileError naming the file and the shard", async () => {
  const work = await mkdtemp(join(tmpdir(), "sdk-shards-"));
  try {
    const reports = await twoShards(work);
    await rm(join(reports, "third-test.html"));
    const error = await mergeShardReports(reports, "nightly").then(() => null, (e) => e);
    assert.ok(error instanceof FileError, String(error));
    assert.equal(error.code, "FILE_NOT_FOUND");
    assert.equal(error.path, join(reports, "third-test.html"));
    assert.match(error.message, /third-test\.html/);
    assert.match(error.message, /shard 2 of 2/);
    assert.match(error.message, /sdk-shard-2-of-2\.json/);
    assert.doesNotMatch(error.message, /destroy\(\)/);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
