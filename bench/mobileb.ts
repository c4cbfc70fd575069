/**
 * MobileB step-overhead benchmark: what one `aiTap` costs through WebDriverAgent beyond
 * `waitAfterAction`.
 *
 * SDK -> `fetch` -> the WDA front of the device simulator (HTTP on 127.0.0.1) -> the virtual
 * phone (1170 x 2532 at scale 3: 390 x 844 points) -> Chromium. The test model runs in its own
 * process (`_model_child.ts`) and answers every locate call at once with a box measured once
 * before the loop, so what remains is the SDK and the WDA path. Every `fetch` is timed and told
 * apart by where it goes: the screenshot (`GET /screenshot`), the model round trip (HTTP to the
 * test model process), the tap (`POST /session/:id/actions`) and the rest (size, settling,
 * recording, image preparation).
 *
 * It prints the median step, the overhead (median - `waitAfterAction`) against the target of the
 * issue (150 ms), the split, the simulator's own capture measured apart, and writes
 * `bench/output/mobileb.json`. Exit code 0 even when the target is missed (a benchmark reports,
 * tests assert); 1 when the run itself fails, including when the phone did not get every tap.
 *
 *     deno run --allow-all bench/mobileb.ts [steps]
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { MobileBAgent, MobileBDevice } from "@sdk/mobileb";
import { startVirtualPhone } from "@sdk/web/testing";
import { startWdaFront } from "@sdk/mobileb/testing";
import { launchChromium } from "../tests/helpers/browser.ts";
import { serveStatic } from "../tests/helpers/static_server.ts";
import { startModelProcess } from "./_model_child.ts";

const WIDTH = 1170;
const HEIGHT = 2532;
const SCALE = 3;
const WAIT_AFTER_ACTION_MS = 300;
/** Target of the issue: median step - `waitAfterAction`, ms. */
export const OVERHEAD_TARGET_MS = 150;
const NOTES = "com.example.notes";

/** Median of a series. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const steps = Number(Deno.args[0] ?? 30);
const browser = await launchChromium();
const apps = await serveStatic(
  fileURLToPath(new URL("../tests/fixtures/mobile/", import.meta.url)),
);
const phone = await startVirtualPhone({
  browser,
  width: WIDTH,
  height: HEIGHT,
  density: SCALE,
  apps: { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } },
  startApp: NOTES,
});
const front = await startWdaFront(phone);
let exitCode = 0;
try {
  // The page's title bar: tapping it changes nothing, so every step sees the same screen.
  const found = await phone.foregroundPage().locator("#list-title").boundingBox();
  if (!found) throw new Error("the notes app has no #list-title to tap");
  const box = { left: found.x, top: found.y, width: found.width, height: found.height };
  const model = await startModelProcess(box, { imagePixelsPerCssPixel: SCALE });
  const device = new MobileBDevice({ driverHost: "127.0.0.1", driverPort: front.port });
  const agent = new MobileBAgent(device, {
    modelConfig: model.modelConfig(),
    waitAfterAction: WAIT_AFTER_ACTION_MS,
    generateReport: false,
    autoPrintReportMsg: false,
  });

  // Every HTTP call, timed by what it is.
  const parts = { shot: 0, model: 0, tap: 0, other: 0 };
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const url = new URL(args[0] instanceof Request ? args[0].url : String(args[0]));
    const kind = url.port !== String(front.port)
      ? "model"
      : url.pathname === "/screenshot"
      ? "shot"
      : url.pathname.endsWith("/actions")
      ? "tap"
      : "other";
    const t = performance.now();
    try {
      const response = await realFetch(...args);
      // The body is read by the caller: time it too by reading it here.
      const body = await response.arrayBuffer();
      return new Response(body, response);
    } finally {
      parts[kind] += performance.now() - t;
    }
  };

  const touches = () => phone.inputs.filter((i) => i.type === "multiTouch").length;
  const before = touches();
  const rows: { step: number; shot: number; model: number; tap: number; other: number }[] = [];
  for (let i = 0; i <= steps; i++) {
    parts.shot =
      parts.model =
      parts.tap =
      parts.other =
        0;
    const t = performance.now();
    await agent.aiTap("the title");
    const ms = performance.now() - t;
    if (i > 0) rows.push({ step: ms, ...parts }); // step 0 is cold (session, screen size)
  }
  globalThis.fetch = realFetch;
  // Each tap is a finger down and a lift: two touch events.
  if (touches() - before !== 2 * (steps + 1)) {
    throw new Error(
      `the phone got ${touches() - before} touch events, expected ${2 * (steps + 1)}`,
    );
  }
  // What the simulator itself spends on one capture (Chromium renders and PNG-encodes the
  // phone's page): not the SDK's, though it is inside "screenshot (WDA)".
  const simulatorShot: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await phone.screenshot();
    simulatorShot.push(performance.now() - t);
  }
  await agent.destroy();
  await model.close();

  const stepMedian = median(rows.map((r) => r.step));
  const split = {
    screenshot: median(rows.map((r) => r.shot)),
    model: median(rows.map((r) => r.model)),
    tap: median(rows.map((r) => r.tap)),
    otherDriverCalls: median(rows.map((r) => r.other)),
  };
  const overhead = stepMedian - WAIT_AFTER_ACTION_MS;
  const rest = overhead - split.screenshot - split.model - split.tap - split.otherDriverCalls;
  const simulatorCapture = median(simulatorShot);
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  const verdict = (v: number) => v <= OVERHEAD_TARGET_MS ? "PASS" : "MISS";
  console.log(
    `MobileB aiTap through WebDriverAgent on the simulator (${WIDTH}x${HEIGHT} @ ${SCALE})`,
  );
  console.log(`steps                 ${steps} (after one cold step)`);
  console.log(`median step           ${fmt(stepMedian)}`);
  console.log(
    `overhead              ${fmt(overhead)} (target <= ${OVERHEAD_TARGET_MS} ms: ${
      verdict(overhead)
    })`,
  );
  console.log(`  screenshot (WDA)    ${fmt(split.screenshot)}`);
  console.log(`  model round trip    ${fmt(split.model)}`);
  console.log(`  tap (W3C actions)   ${fmt(split.tap)}`);
  console.log(`  other WDA calls     ${fmt(split.otherDriverCalls)}`);
  console.log(`  rest (SDK)          ${fmt(rest)}`);
  console.log(
    `  of the screenshot, the simulator's own capture (Chromium, apart): ${fmt(simulatorCapture)}`,
  );
  const sdkOnly = overhead - simulatorCapture;
  console.log(
    `overhead without the simulator's capture: ${fmt(sdkOnly)} (target <= ${OVERHEAD_TARGET_MS} ` +
      `ms: ${verdict(sdkOnly)})`,
  );
  await Deno.mkdir(new URL("./output/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL("./output/mobileb.json", import.meta.url),
    JSON.stringify(
      {
        steps,
        waitAfterActionMs: WAIT_AFTER_ACTION_MS,
        stepMedianMs: stepMedian,
        overheadMs: overhead,
        targetMs: OVERHEAD_TARGET_MS,
        splitMedianMs: { ...split, rest },
        simulatorCaptureMedianMs: simulatorCapture,
        overheadWithoutSimulatorCaptureMs: sdkOnly,
        perStep: rows,
      },
      null,
      2,
    ) + "\n",
  );
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await front.close();
  await phone.close();
  await apps.close();
  await browser.close();
}
Deno.exit(exitCode);
