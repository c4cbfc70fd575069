/**
 * Observation benchmark: memory and CPU of a long recording (issue 10).
 *
 * A DriverB page agent records `observe.html?animate&start` (a box that keeps moving, so the
 * DevTools screencast sends frames all the time) for 60 s at `intervalMs: 200` with the default
 * `maxFrames` (30). No model is involved: only the frame source, the sampling, the thinning and the
 * frame files. It reports:
 *
 * - process RSS growth from just before `startObserving` to just after `stop()` (target <= 30 MB;
 *   frames go to files, so the buffer costs no memory), and the peak growth seen while recording;
 * - CPU time of this process (user + system) over the recording, as a share of one core;
 * - frames kept, and the frame files on disk at the end (count and bytes); with
 *   `BENCH_OBSERVE_COUNT=1` also the frames the screencast delivers, counted on a second screencast
 *   of the page (which doubles the protocol traffic, so the memory figures are then not the
 *   observer's alone).
 *
 * It prints a table and writes `bench/output/observe.json`. Exit code 0 even when a target is
 * missed; 1 when the run itself fails. `BENCH_OBSERVE_SECONDS` shortens the recording.
 *
 *     deno run --allow-all bench/observe.ts
 *
 * @module
 */

import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { DriverBPageAgent, WebPageDevice } from "@sdk/web";
import { DriverBPageDriver } from "../web/driver_b/playwright_driver.ts";
import { launchChromium } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";

const SECONDS = Number(Deno.env.get("BENCH_OBSERVE_SECONDS") ?? 60);
const INTERVAL_MS = 200;
const RSS_TARGET_MB = 30;

// Frames go under the run dir: a fresh one, so the files counted are this run's.
const runDir = mkdtempSync(join(tmpdir(), "sdk-bench-observe-"));
Deno.env.set("SDK_RUN_DIR", runDir);

const mb = (bytes: number) => bytes / (1024 * 1024);

function filesUnder(dir: string): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        count++;
        bytes += statSync(path).size;
      }
    }
  };
  try {
    walk(dir);
  } catch {
    // No directory yet.
  }
  return { count, bytes };
}

async function main(): Promise<number> {
  const app = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${app.url}observe.html?animate&start`);
    const agent = new DriverBPageAgent(page, {
      // Never called: the recording asks no model.
      modelConfig: {
        SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
        SDK_MODEL_API_KEY: "unused",
        SDK_MODEL_NAME: "unused",
      },
      autoPrintReportMsg: false,
      generateReport: false,
    });

    // Optionally count what the screencast delivers, on a second stream of the same page.
    let delivered = 0;
    const counter = !Deno.env.get("BENCH_OBSERVE_COUNT")
      ? undefined
      : await new WebPageDevice(new DriverBPageDriver(page)).startFrameStream!({
        onFrame: () => delivered++,
      });

    (globalThis as { gc?: () => void }).gc?.();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    const cpuBefore = process.cpuUsage();
    const t0 = performance.now();
    const observer = await agent.startObserving({ intervalMs: INTERVAL_MS });
    let peakRss = rssBefore;
    let mostBuffered = 0;
    while (performance.now() - t0 < SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      mostBuffered = Math.max(mostBuffered, observer.bufferedFrameCount);
    }
    const observation = await observer.stop();
    const elapsedMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpuBefore);
    (globalThis as { gc?: () => void }).gc?.();
    const rssAfter = process.memoryUsage().rss;
    const heapAfter = process.memoryUsage().heapUsed;
    await counter?.stop();
    const onDisk = filesUnder(observation.framesDir ?? join(runDir, "observe"));

    const cpuMs = (cpu.user + cpu.system) / 1000;
    const result = {
      seconds: Math.round(elapsedMs / 100) / 10,
      intervalMs: INTERVAL_MS,
      framesDelivered: delivered,
      framesKept: observation.frameCount,
      mostBuffered,
      framesOnDisk: onDisk.count,
      framesOnDiskKB: Math.round(onDisk.bytes / 1024),
      rssBeforeMB: Math.round(mb(rssBefore) * 10) / 10,
      rssGrowthMB: Math.round(mb(rssAfter - rssBefore) * 10) / 10,
      heapGrowthMB: Math.round(mb(heapAfter - heapBefore) * 10) / 10,
      rssPeakGrowthMB: Math.round(mb(peakRss - rssBefore) * 10) / 10,
      cpuMs: Math.round(cpuMs),
      cpuShareOfOneCore: Math.round((cpuMs / elapsedMs) * 1000) / 10,
      rssTargetMB: RSS_TARGET_MB,
      pass: mb(rssAfter - rssBefore) <= RSS_TARGET_MB,
    };
    await observation.dispose();
    await agent.destroy();
    await context.close();

    const rows: Array<[string, string, string]> = [
      ["recording", `${result.seconds} s at ${INTERVAL_MS} ms`, ""],
      ["frames delivered by the screencast", String(delivered), ""],
      ["frames kept (maxFrames 30)", `${result.framesKept} (most ${mostBuffered})`, ""],
      ["frame files on disk at stop()", `${onDisk.count}, ${result.framesOnDiskKB} KB`, ""],
      [
        "RSS growth (stop)",
        `${result.rssGrowthMB} MB`,
        `<= ${RSS_TARGET_MB} MB ${result.pass ? "PASS" : "MISS"}`,
      ],
      ["JS heap growth (after GC)", `${result.heapGrowthMB} MB`, ""],
      ["RSS growth (peak while recording)", `${result.rssPeakGrowthMB} MB`, ""],
      ["CPU time (user+system)", `${result.cpuMs} ms = ${result.cpuShareOfOneCore}% of a core`, ""],
    ];
    for (const [name, value, target] of rows) {
      console.log(`${name.padEnd(38)} ${value.padEnd(28)} ${target}`);
    }
    mkdirSync(new URL("./output/", import.meta.url), { recursive: true });
    writeFileSync(
      new URL("./output/observe.json", import.meta.url),
      JSON.stringify(result, null, 2) + "\n",
    );
    return 0;
  } finally {
    await browser.close();
    await app.close();
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    console.error(error);
    Deno.exit(1);
  }
}
