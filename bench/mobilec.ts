/**
 * MobileC step-overhead benchmark: what one `aiTap` costs through hdc beyond `waitAfterAction`.
 *
 * SDK -> `execFile` of the simulator's `hdc` (a `#!/bin/sh` script that starts the runtime on the
 * front's client) -> the hdc front -> the virtual phone (1260 x 2720 at density 3.25) -> Chromium.
 * The test model runs in its own process (`_model_child.ts`) and answers every locate call at
 * once with a box measured once before the loop, so what remains is the SDK and the hdc path:
 * the screenshot (`snapshot_display` and `hdc file recv`: two hdc runs), the model round trip,
 * the tap (`uitest uiInput click`: one hdc run) and the rest (image preparation, recording).
 *
 * Measured apart, to tell the SDK's share from the simulator's: one hdc run that does nothing on
 * the device (`hdc version`: starting the tool process), and the simulator's own capture with its
 * JPEG encoding (what `snapshot_display` costs inside the front).
 *
 * It prints the median step, the overhead (median - `waitAfterAction`), the split, and writes
 * `bench/output/mobilec.json`. Exit code 0 when the run completes (a benchmark reports, tests
 * assert); 1 when it fails, including when the simulator did not record every tap.
 *
 *     deno run --allow-all bench/mobilec.ts [steps]
 *
 * @module
 */

import { execFile } from "node:child_process";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import { MobileCAgent, MobileCDevice } from "@sdk/mobilec";
import { startVirtualPhone } from "@sdk/web/testing";
import { startHdcFront } from "@sdk/mobilec/testing";
import { launchChromium } from "../tests/helpers/browser.ts";
import { serveStatic } from "../tests/helpers/static_server.ts";
import { startModelProcess } from "./_model_child.ts";

const WIDTH = 1260;
const HEIGHT = 2720;
const DENSITY = 3.25;
const WAIT_AFTER_ACTION_MS = 300;
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
  density: DENSITY,
  apps: { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } },
  startApp: NOTES,
});
const front = await startHdcFront(phone);
let exitCode = 0;
try {
  // The page's title bar: tapping it changes nothing, so every step sees the same screen.
  const found = await phone.foregroundPage().locator("#list-title").boundingBox();
  if (!found) throw new Error("the notes app has no #list-title to tap");
  const box = { left: found.x, top: found.y, width: found.width, height: found.height };
  const model = await startModelProcess(box, { imagePixelsPerCssPixel: DENSITY });
  const device = new MobileCDevice(front.connectKey, { toolPath: front.toolPath });
  const agent = new MobileCAgent(device, {
    modelConfig: model.modelConfig(),
    waitAfterAction: WAIT_AFTER_ACTION_MS,
    generateReport: false,
    autoPrintReportMsg: false,
  });

  // The split: the device's screenshot and the Tap action timed in place, the model round trip
  // as the HTTP calls to the test model.
  const parts = { shot: 0, model: 0, tap: 0 };
  const shot = device.screenshotBase64.bind(device);
  device.screenshotBase64 = async () => {
    const t = performance.now();
    try {
      return await shot();
    } finally {
      parts.shot += performance.now() - t;
    }
  };
  const space = device.actionSpace.bind(device);
  device.actionSpace = () =>
    space().map((action) =>
      action.name !== "Tap" ? action : {
        ...action,
        call: async (...args: Parameters<typeof action.call>) => {
          const t = performance.now();
          try {
            return await action.call(...args);
          } finally {
            parts.tap += performance.now() - t;
          }
        },
      }
    );
  const fetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const t = performance.now();
    try {
      return await fetch(...args);
    } finally {
      parts.model += performance.now() - t;
    }
  };

  const taps = () => phone.inputs.filter((i) => i.type === "tap").length;
  const before = taps();
  const rows: { step: number; shot: number; model: number; tap: number }[] = [];
  for (let i = 0; i <= steps; i++) {
    parts.shot = parts.model = parts.tap = 0;
    const t = performance.now();
    await agent.aiTap("the title");
    if (i > 0) rows.push({ step: performance.now() - t, ...parts }); // step 0 is cold (hidumper)
  }
  globalThis.fetch = fetch;
  if (taps() - before !== steps + 1) {
    throw new Error(`the simulator recorded ${taps() - before} taps, expected ${steps + 1}`);
  }
  // Apart: one hdc run with no device work, and the simulator's capture with its JPEG encoding.
  const hdcRun: number[] = [];
  const capture: number[] = [];
  for (let i = 0; i < 10; i++) {
    let t = performance.now();
    await new Promise<void>((resolve, reject) =>
      execFile(front.toolPath, ["version"], (error) => error ? reject(error) : resolve())
    );
    hdcRun.push(performance.now() - t);
    t = performance.now();
    const png = PNG.sync.read(Buffer.from(await phone.screenshot()));
    jpeg.encode({ data: png.data, width: png.width, height: png.height }, 90);
    capture.push(performance.now() - t);
  }
  await agent.destroy();
  await model.close();

  const stepMedian = median(rows.map((r) => r.step));
  const split = {
    screenshot: median(rows.map((r) => r.shot)),
    model: median(rows.map((r) => r.model)),
    tap: median(rows.map((r) => r.tap)),
  };
  const overhead = stepMedian - WAIT_AFTER_ACTION_MS;
  const rest = overhead - split.screenshot - split.model - split.tap;
  const oneRun = median(hdcRun);
  const simulatorCapture = median(capture);
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`MobileC aiTap through hdc on the simulator (${WIDTH}x${HEIGHT} @ ${DENSITY})`);
  console.log(`steps                 ${steps} (after one cold step)`);
  console.log(`median step           ${fmt(stepMedian)}`);
  console.log(`overhead              ${fmt(overhead)} (median step - waitAfterAction)`);
  console.log(`  screenshot (2 hdc runs) ${fmt(split.screenshot)}`);
  console.log(`  model round trip    ${fmt(split.model)}`);
  console.log(`  tap (1 hdc run)     ${fmt(split.tap)}`);
  console.log(`  rest                ${fmt(rest)}`);
  console.log(`apart: one hdc run with no device work (hdc version): ${fmt(oneRun)}`);
  console.log(`apart: the simulator's capture + JPEG encoding: ${fmt(simulatorCapture)}`);
  const sdkOnly = overhead - simulatorCapture - 3 * oneRun;
  console.log(
    `overhead without the simulator's capture and the 3 tool process starts: ${fmt(sdkOnly)}`,
  );
  await Deno.mkdir(new URL("./output/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL("./output/mobilec.json", import.meta.url),
    JSON.stringify(
      {
        steps,
        waitAfterActionMs: WAIT_AFTER_ACTION_MS,
        stepMedianMs: stepMedian,
        overheadMs: overhead,
        splitMedianMs: { ...split, rest },
        hdcRunMedianMs: oneRun,
        simulatorCaptureMedianMs: simulatorCapture,
        overheadWithoutSimulatorAndToolStartsMs: sdkOnly,
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
