/**
 * Report-merging benchmark (spec 4.6): what `ReportMergingTool.mergeReports` costs in time and
 * memory for a realistic batch of reports.
 *
 * It captures realistic screenshots first: `tests/fixtures/app/rich.html` in headless Chromium at
 * 1280 x 800, dpr 1, as Chromium's JPEG at the agents' default quality (60), scrolled a little
 * before each capture so every image differs. Then it writes R reports (default 10) with the real
 * `ReportWriter`, each of S steps (default 100), every step with its own screenshot (no screenshot
 * is shared between reports either: each report's copy carries a few distinct trailing bytes
 * after the JPEG's end marker, so nothing is deduplicated and the merge does the most work). A
 * report is written the way an agent writes it: one `aiAct` of 60% of the steps, written after
 * each step (delta tags), then one `aiTap` execution per remaining step.
 *
 * Each merge runs in a fresh Deno process, which reports its wall time and its peak resident
 * memory (`VmHWM` from `/proc/self/status`) against its resident memory before the merge:
 *
 * - `single`: every source `single-html`, output one HTML file with the screenshots inline;
 * - `dir`: the first source `html-and-external-assets`, output a directory whose screenshots are
 *   all written out as files (decoded from the other sources' base64);
 * - `single` again with V8's old space capped at 48 MB (`--max-old-space-size`): it completes only
 *   if the merge keeps a bounded amount alive (a chunk of a source and the tag being read), not
 *   whole sources or every screenshot. Peak RSS itself mostly shows how late the collector runs.
 *
 * It prints a table and writes every number to `bench/output/report_merge.json`. The exit code is
 * 0 even when a number looks bad (a benchmark reports, tests assert); 1 when the run fails.
 *
 *     deno run --allow-all bench/report_merge.ts [--reports=10] [--steps=100]
 *
 * @module
 */

/// <reference lib="dom" />

import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { ReportMergingTool, type ReportOutputFormat, ReportWriter } from "../core/report/mod.ts";
import type { ReportExecution, ReportStep } from "../core/report/mod.ts";

/**
 * V8 old-space cap of the third run: the merge must still finish, which shows that what it keeps
 * alive does not grow with the number or size of the sources.
 */
const CAPPED_HEAP_MB = 48;
const OUT = new URL("./output/report_merge/", import.meta.url).pathname;

function arg(name: string, fallback: number): number {
  const hit = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
}

/** Peak and current resident memory of this process, bytes. */
async function memory(): Promise<{ peak: number; now: number }> {
  const status = await readFile("/proc/self/status", "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]) * 1024;
  return { peak: kb("VmHWM"), now: kb("VmRSS") };
}

/** Child mode: merge the sources listed in a JSON file, print the numbers as JSON. */
async function child(listFile: string, name: string): Promise<void> {
  const list = JSON.parse(await readFile(listFile, "utf8")) as string[];
  const tool = new ReportMergingTool();
  list.forEach((file, i) =>
    tool.append({
      reportFilePath: file,
      reportAttributes: {
        testId: `t${i}`,
        testTitle: `Test ${i}`,
        testDescription: "bench",
        testDuration: 1000,
        testStatus: i % 4 === 3 ? "failed" : "passed",
      },
    })
  );
  // Warm the modules the merge loads lazily, so the baseline includes them.
  await import("node:fs/promises");
  await import("node:path");
  const before = await memory();
  const t0 = performance.now();
  const out = await tool.mergeReports(name, { outputDir: join(OUT, "merged"), overwrite: true });
  const ms = performance.now() - t0;
  const after = await memory();
  console.log(JSON.stringify({ out, ms, rssBefore: before.now, peak: after.peak }));
}

async function captureScreenshots(count: number): Promise<Uint8Array[]> {
  // Loaded here, so the merge processes do not load the browser driver.
  const { launchChromium } = await import("../tests/helpers/browser.ts");
  const { FIXTURE_APP_DIR, serveStatic } = await import("../tests/helpers/static_server.ts");
  const app = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(new URL("rich.html", app.url).href);
    const shots: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      await page.evaluate((y) => scrollTo(0, y), (i * 37) % 1200);
      shots.push(new Uint8Array(await page.screenshot({ type: "jpeg", quality: 60 })));
    }
    return shots;
  } finally {
    await browser.close();
    await app.close();
  }
}

function dataUri(jpeg: Uint8Array, salt: number): string {
  const bytes = new Uint8Array(jpeg.length + 4);
  bytes.set(jpeg);
  new DataView(bytes.buffer).setUint32(jpeg.length, salt);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:image/jpeg;base64,${btoa(bin)}`;
}

async function writeReport(
  index: number,
  shots: Uint8Array[],
  format: ReportOutputFormat,
): Promise<string> {
  const writer = await ReportWriter.create({
    name: `source-${index}${format === "single-html" ? "" : "-ext"}`,
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    outputFormat: format,
  });
  const t0 = Date.UTC(2026, 10, 22);
  const stepOf = (i: number, kind: ReportStep["kind"]): ReportStep => ({
    kind,
    title: `${kind} ${i}`,
    status: "passed",
    startedAt: t0 + i * 1000,
    endedAt: t0 + i * 1000 + 800,
    screenshot: writer.addScreenshot(dataUri(shots[i], index * 100_000 + i)),
    screenshotSize: { width: 1280, height: 800 },
    target: { left: 100 + i, top: 200, width: 180, height: 44 },
    thought: `Step ${i}: the target is the button in the card.`,
    rawResponse: JSON.stringify({ bbox: [100 + i, 200, 280 + i, 244] }),
  });
  const planned = Math.round(shots.length * 0.6);
  const act: ReportExecution = {
    id: "act",
    apiName: "aiAct",
    prompt: "work through the page",
    status: "running",
    startedAt: t0,
    steps: [],
  };
  for (let i = 0; i < planned; i++) {
    act.steps.push(stepOf(i, i % 2 ? "Action" : "Planning"));
    await writer.writeExecution(act);
  }
  act.status = "passed";
  act.endedAt = t0 + planned * 1000;
  await writer.writeExecution(act);
  for (let i = planned; i < shots.length; i++) {
    await writer.writeExecution({
      id: `tap-${i}`,
      apiName: "aiTap",
      prompt: `the button ${i}`,
      status: "passed",
      startedAt: t0 + i * 1000,
      endedAt: t0 + i * 1000 + 900,
      steps: [stepOf(i, "Locate")],
    });
  }
  return (await writer.finalize())!;
}

async function runChild(list: string[], name: string, maxOldSpaceMb?: number) {
  const listFile = join(OUT, `${name}.json`);
  await writeFile(listFile, JSON.stringify(list));
  const cmd = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      ...(maxOldSpaceMb ? [`--v8-flags=--max-old-space-size=${maxOldSpaceMb}`] : []),
      new URL(import.meta.url).pathname,
      "--child",
      listFile,
      name,
    ],
    env: { SDK_RUN_DIR: join(OUT, "sdk_run") },
    stdout: "piped",
    stderr: "inherit",
  });
  const { code, stdout } = await cmd.output();
  if (code !== 0) throw new Error(`merge child exited with ${code}`);
  const lines = new TextDecoder().decode(stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]) as {
    out: string;
    ms: number;
    rssBefore: number;
    peak: number;
  };
}

async function dirSize(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await dirSize(p) : (await stat(p)).size;
  }
  return total;
}

async function main(): Promise<void> {
  const reports = arg("reports", 10);
  const steps = arg("steps", 100);
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  process.env.SDK_RUN_DIR = join(OUT, "sdk_run");
  console.log(`capturing ${steps} screenshots of rich.html ...`);
  const shots = await captureScreenshots(steps);
  const jpegKb = shots.reduce((a, s) => a + s.length, 0) / shots.length / 1024;
  console.log(
    `writing ${reports} reports of ${steps} steps (JPEG ${jpegKb.toFixed(0)} KB avg) ...`,
  );
  const single: string[] = [];
  for (let r = 0; r < reports; r++) single.push(await writeReport(r, shots, "single-html"));
  const ext = await writeReport(0, shots, "html-and-external-assets");
  let sourceBytes = 0;
  for (const f of single) sourceBytes += (await stat(f)).size;

  const results: Record<string, unknown>[] = [];
  const variants: [string, string[], number | undefined][] = [
    ["single", single, undefined],
    ["dir", [ext, ...single.slice(1)], undefined],
    [`single, old space ${CAPPED_HEAP_MB} MB`, single, CAPPED_HEAP_MB],
  ];
  for (const [i, [variant, list, cap]] of variants.entries()) {
    const r = await runChild(list, `merged-${i}`, cap);
    const size = list[0] === ext ? await dirSize(join(r.out, "..")) : (await stat(r.out)).size;
    results.push({
      variant,
      reports,
      steps,
      sourceMB: +(sourceBytes / 2 ** 20).toFixed(1),
      outputMB: +(size / 2 ** 20).toFixed(1),
      mergeMs: Math.round(r.ms),
      rssBeforeMB: +(r.rssBefore / 2 ** 20).toFixed(1),
      peakRssMB: +(r.peak / 2 ** 20).toFixed(1),
      peakOverBaselineMB: +((r.peak - r.rssBefore) / 2 ** 20).toFixed(1),
    });
  }
  console.table(results);
  await writeFile(
    new URL("./output/report_merge.json", import.meta.url),
    JSON.stringify({ jpegKb, results }, null, 2),
  );
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1], Deno.args[2]);
} else {
  try {
    await main();
  } catch (e) {
    console.error(e);
    Deno.exit(1);
  }
}
