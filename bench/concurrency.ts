/**
 * Many agents in one process (issue 16): throughput of 1, 2, 4 and 8 DriverB page agents running
 * `aiTap` steps at the same time, each on its own page (its own browser context) of one headless
 * Chromium, all against one test model that runs in its own process and answers every locate
 * call at once with the "Click me" button's box (so the model costs ~0 ms).
 *
 * Each agent runs S steps (default 20) one after another; the agents run concurrently. Reports
 * are on (each agent writes its own, as users run them) into a temporary run directory;
 * `waitAfterAction` is 0, so the figures are the SDK's and the browser's own cost. It prints
 * steps per second over the whole run and the per-step p50 / p90, and writes
 * `bench/output/concurrency.json`. Exit code 1 when a run fails or a page missed a tap.
 *
 *     deno task bench:concurrency [steps]
 *
 * @module
 */

import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { DriverBPageAgent } from "@sdk/web";
import { launchChromium, measure } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import { startModelProcess } from "./_model_child.ts";

const OUTPUT = new URL("output/concurrency.json", import.meta.url);
const VIEWPORT = { width: 800, height: 600 };
const AGENT_COUNTS = [1, 2, 4, 8];

interface Row {
  agents: number;
  steps: number;
  wallMs: number;
  stepsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function openPages(browser: Browser, url: string, n: number): Promise<Page[]> {
  return await Promise.all(Array.from({ length: n }, async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }));
}

async function runCount(
  browser: Browser,
  url: string,
  n: number,
  steps: number,
  modelConfig: Record<string, string>,
): Promise<Row> {
  const pages = await openPages(browser, url, n);
  const agents = pages.map((page, i) =>
    new DriverBPageAgent(page, {
      modelConfig,
      waitAfterAction: 0,
      autoPrintReportMsg: false,
      reportFileName: `concurrency-${n}-${i}`,
    })
  );
  // One warm-up step each, untimed: first screenshots and the report's first write.
  await Promise.all(agents.map((agent) => agent.aiTap("the Click me button")));
  const durations: number[] = [];
  const started = performance.now();
  await Promise.all(agents.map(async (agent) => {
    for (let s = 0; s < steps; s++) {
      const t = performance.now();
      await agent.aiTap("the Click me button");
      durations.push(performance.now() - t);
    }
  }));
  const wallMs = performance.now() - started;
  await Promise.all(agents.map((agent) => agent.destroy()));
  for (const page of pages) {
    const count = Number(await page.locator("#click-count").textContent());
    if (count !== steps + 1) throw new Error(`a page counted ${count} taps, not ${steps + 1}`);
    await page.context().close();
  }
  durations.sort((a, b) => a - b);
  return {
    agents: n,
    steps: n * steps,
    wallMs,
    stepsPerSecond: (n * steps) / (wallMs / 1000),
    p50Ms: quantile(durations, 0.5),
    p90Ms: quantile(durations, 0.9),
  };
}

async function main(): Promise<void> {
  const steps = Number(Deno.args[0] ?? 20);
  const runDir = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bench-concurrency-"));
  Deno.env.set("SDK_RUN_DIR", runDir);
  const app = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  let model;
  try {
    const [probe] = await openPages(browser, `${app.url}actions.html`, 1);
    const box = await measure(probe, "#click-button");
    await probe.context().close();
    model = await startModelProcess(box, { viewport: VIEWPORT });
    const rows: Row[] = [];
    for (const n of AGENT_COUNTS) {
      rows.push(await runCount(browser, `${app.url}actions.html`, n, steps, model.modelConfig()));
    }
    console.log(
      `concurrent DriverB agents, aiTap on actions.html, ${steps} steps per agent, ` +
        `waitAfterAction 0, reports on, ${os.cpus().length} CPUs`,
    );
    console.log("| agents | steps | wall | steps/s | per-step p50 | per-step p90 |");
    console.log("| --: | --: | --: | --: | --: | --: |");
    for (const r of rows) {
      console.log(
        `| ${r.agents} | ${r.steps} | ${(r.wallMs / 1000).toFixed(1)} s | ${
          r.stepsPerSecond.toFixed(1)
        } | ${r.p50Ms.toFixed(0)} ms | ${r.p90Ms.toFixed(0)} ms |`,
      );
    }
    await fs.mkdir(path.dirname(OUTPUT.pathname), { recursive: true });
    await fs.writeFile(
      OUTPUT,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          cpus: os.cpus().length,
          loadavg: os.loadavg(),
          stepsPerAgent: steps,
          rows,
        },
        null,
        2,
      ) + "\n",
    );
    console.log(`written ${OUTPUT.pathname}`);
  } finally {
    await model?.close();
    await browser.close();
    await app.close();
    await fs.rm(runDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(error);
    Deno.exit(1);
  }
}
