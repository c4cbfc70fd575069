/// <reference lib="dom" />
/**
 * Bridge overhead benchmark (issue 11): what one `aiTap` costs through the extension bridge
 * (`AgentOverBrowserBridge` -> WebSocket -> the SDK Bridge extension -> `chrome.debugger`) compared
 * with the DriverB page agent (`playwright-core` over CDP), on the same page of the same browser.
 *
 * One headless Chromium (`--headless=new`, 1280 x 800 window) with the built extension loaded runs
 * two tabs on `tests/fixtures/app/actions.html`: one driven by the bridge, one by
 * `DriverBPageAgent`. The test model runs in its own process and answers every locate call at once
 * with the "Click me" button's box, so the model costs ~0 ms. Both agents tap in alternating
 * blocks of 5 steps (the tab in use is brought to the front outside the timed call), N steps each
 * (default 30), with `waitAfterAction` 300 ms (the default) and 0 ms (the SDK's cost alone), each
 * with the bridge's water-flow overlay on (the default: drawn, hidden for each screenshot) and
 * off. Reports are off for both (`generateReport: false`): same work on both sides, less noise.
 *
 * It prints the medians and the ratio bridge / DriverB (issue 11's target: <= 1.3x) and writes
 * `bench/output/bridge.json`. Exit code 0 even when the target is missed; 1 when the run fails,
 * including when a page did not count every tap.
 *
 *     deno task bench:bridge [steps]
 *
 * @module
 */

import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { AgentOverBrowserBridge, DriverBPageAgent } from "@sdk/web";
import { measure } from "../tests/helpers/browser.ts";
import { launchWithBridgeExtension } from "../tests/helpers/bridge_extension.ts";
import { freePort } from "../tests/helpers/free_port.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import { type ModelProcess, startModelProcess } from "./_model_child.ts";

/** Issue 11's target: a bridge step costs at most this many times a DriverB step. */
export const RATIO_TARGET = 1.3;
/** Steps per block before switching to the other agent. */
const BLOCK = 5;
const TOKEN = "bench-bridge-token-0123456789";
const OUTPUT = new URL("output/bridge.json", import.meta.url);

/** One `waitAfterAction` setting's result. */
export interface BridgeBenchRow {
  waitAfterActionMs: number;
  /** The bridge agent's `enableWaterFlowAnimation` (the overlay drawn, hidden for each capture). */
  overlay: boolean;
  steps: number;
  bridgeMs: number[];
  driverBMs: number[];
  bridgeMedianMs: number;
  driverBMedianMs: number;
  /** Median step less `waitAfterAction`. */
  bridgeOverheadMs: number;
  driverBOverheadMs: number;
  /** `bridgeMedianMs / driverBMedianMs`. */
  ratio: number;
  pass: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const clicks = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { appState: { clicks: number } }).appState.clicks);

async function runSetting(
  context: BrowserContext,
  appUrl: string,
  port: number,
  steps: number,
  waitAfterAction: number,
  overlay: boolean,
): Promise<BridgeBenchRow> {
  const url = new URL("actions.html", appUrl).href;
  const driverBPage = await context.newPage();
  await driverBPage.goto(url);
  const viewport = await driverBPage.evaluate(() => ({ width: innerWidth, height: innerHeight }));
  const box = await measure(driverBPage, "#click-button");
  let model: ModelProcess | undefined;
  let bridge: AgentOverBrowserBridge | undefined;
  let driverB: DriverBPageAgent | undefined;
  try {
    model = await startModelProcess(box, { viewport });
    const common = {
      modelConfig: model.modelConfig(),
      waitAfterAction,
      generateReport: false,
      autoPrintReportMsg: false,
    };
    driverB = new DriverBPageAgent(driverBPage, common);
    bridge = new AgentOverBrowserBridge({
      ...common,
      port,
      token: TOKEN,
      connectTimeout: 30_000,
      enableWaterFlowAnimation: overlay,
    });
    const opened = context.waitForEvent("page", { timeout: 60_000 });
    opened.catch(() => {});
    await bridge.connectNewTabWithUrl(url);
    const bridgePage = await opened;
    await bridgePage.waitForLoadState("load");
    const bridgeBox = await measure(bridgePage, "#click-button");
    if (JSON.stringify(bridgeBox) !== JSON.stringify(box)) {
      throw new Error(
        `the button is not at the same place in both tabs: ${JSON.stringify(bridgeBox)} vs ${
          JSON.stringify(box)
        }`,
      );
    }
    // One warm-up step each (client creation, first screenshot), not counted.
    await bridgePage.bringToFront();
    await bridge.aiTap("the 'Click me' button");
    await driverBPage.bringToFront();
    await driverB.aiTap("the 'Click me' button");

    const bridgeMs: number[] = [];
    const driverBMs: number[] = [];
    while (bridgeMs.length < steps || driverBMs.length < steps) {
      for (
        const [agent, page, times] of [
          [bridge, bridgePage, bridgeMs],
          [driverB, driverBPage, driverBMs],
        ] as const
      ) {
        await page.bringToFront();
        for (let i = 0; i < BLOCK && times.length < steps; i++) {
          const start = performance.now();
          await agent.aiTap("the 'Click me' button");
          times.push(performance.now() - start);
        }
      }
    }
    for (const [name, page] of [["bridge", bridgePage], ["DriverB", driverBPage]] as const) {
      const counted = await clicks(page);
      if (counted !== steps + 1) {
        throw new Error(`the ${name} tab counted ${counted} taps, expected ${steps + 1}`);
      }
    }
    const bridgeMedianMs = median(bridgeMs);
    const driverBMedianMs = median(driverBMs);
    const ratio = bridgeMedianMs / driverBMedianMs;
    return {
      waitAfterActionMs: waitAfterAction,
      overlay,
      steps,
      bridgeMs,
      driverBMs,
      bridgeMedianMs,
      driverBMedianMs,
      bridgeOverheadMs: bridgeMedianMs - waitAfterAction,
      driverBOverheadMs: driverBMedianMs - waitAfterAction,
      ratio,
      pass: ratio <= RATIO_TARGET,
    };
  } finally {
    await bridge?.destroy(true);
    await driverB?.destroy();
    await model?.close();
    await driverBPage.close();
  }
}

async function main(): Promise<void> {
  const steps = Number(Deno.args[0] ?? 30);
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`steps must be >= 1: ${Deno.args[0]}`);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bench-bridge-"));
  const app = await serveStatic(FIXTURE_APP_DIR);
  let context: BrowserContext | undefined;
  try {
    const port = await freePort();
    const launched = await launchWithBridgeExtension(tmp, { port, token: TOKEN });
    context = launched.context;
    const rows: BridgeBenchRow[] = [];
    for (const overlay of [true, false]) {
      for (const wait of [300, 0]) {
        rows.push(await runSetting(context, app.url, port, steps, wait, overlay));
      }
    }

    console.log(
      `bridge vs DriverB, one aiTap on actions.html, ${steps} steps each, blocks of ${BLOCK}, ` +
        `test model in its own process`,
    );
    console.log(
      "| waitAfterAction | overlay | bridge median | DriverB median | bridge overhead | DriverB overhead | ratio | target |",
    );
    console.log("| --: | :-- | --: | --: | --: | --: | --: | :-- |");
    for (const r of rows) {
      console.log(
        `| ${r.waitAfterActionMs} ms | ${r.overlay ? "on" : "off"} | ${
          r.bridgeMedianMs.toFixed(1)
        } ms | ${r.driverBMedianMs.toFixed(1)} ms | ${r.bridgeOverheadMs.toFixed(1)} ms | ${
          r.driverBOverheadMs.toFixed(1)
        } ms | ${r.ratio.toFixed(2)}x | <= ${RATIO_TARGET}x ${r.pass ? "PASS" : "MISS"} |`,
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
          ratioTarget: RATIO_TARGET,
          block: BLOCK,
          rows,
        },
        null,
        2,
      ) + "\n",
    );
    console.log(`written ${OUTPUT.pathname}`);
  } finally {
    await context?.close();
    await app.close();
    await fs.rm(tmp, { recursive: true, force: true });
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
