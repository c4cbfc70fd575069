/**
 * Desktop step-overhead benchmark: what one `aiTap` costs on the local desktop beyond
 * `waitAfterAction`.
 *
 * SDK -> the device's nut-js host process -> a real X server (the agent's own Xvfb, `headless`,
 * at the default 1920 x 1080) with the Tk fixture app of `tests/fixtures/desktop/app.py`. The
 * test model runs in its own process (`_model_child.ts`) and answers every locate call at once
 * with the Save button's box, read from the app before the loop, so what remains is the SDK and
 * the desktop path: the screenshot (XGetImage in the host, PNG encoding with alpha 255, base64 over
 * its pipe), the model round trip, the click (pointer move and click through XTest), and the rest.
 *
 * It prints the median step, the overhead (median - `waitAfterAction`), the split, and writes
 * `bench/output/computer.json` (`computer_rdp.json` with `--rdp`). Exit code 0 whatever the numbers; 1 when the run fails, including
 * when the app did not count every click.
 *
 * With `--rdp` the same step goes over RDP: an `RDPDevice` (xfreerdp on its own Xvfb) logged in
 * to FreeRDP's shadow server (NLA, a SAM-file user), which shares a second Xvfb with the app at
 * 1280 x 800; the screenshot is then of the client's window and the click travels over RDP.
 *
 *     deno run --allow-all bench/computer.ts [steps] [--rdp]
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import process from "node:process";
import { ComputerAgent, ComputerDevice, RDPDevice } from "@sdk/computer";
import {
  type DesktopApp,
  ensureDesktopTools,
  nutJsDir,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
} from "../tests/helpers/desktop.ts";
import { startModelProcess } from "./_model_child.ts";

const WAIT_AFTER_ACTION_MS = 300;

/** Median of a series. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const rdp = Deno.args.includes("--rdp");
const steps = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 30);
await ensureDesktopTools();
process.env.SDK_NUT_JS_DIR ??= nutJsDir();
// Over RDP the "remote" is a second Xvfb with the app, shared by FreeRDP's shadow server.
const cleanup: (() => Promise<void>)[] = [];
let device: ComputerDevice;
let app!: DesktopApp;
if (rdp) {
  const remote = await startTestDisplay("1280x800x24");
  cleanup.push(() => remote.close());
  app = await startDesktopApp(remote.display);
  cleanup.unshift(() => app.close());
  const password = randomBytes(12).toString("base64url");
  const shadow = await startShadowServer(remote.display, "bench", password);
  cleanup.unshift(() => shadow.close());
  device = new RDPDevice({
    host: "127.0.0.1",
    port: shadow.port,
    username: "bench",
    password,
    ignoreCertificate: true,
  });
} else {
  device = new ComputerDevice({ headless: true });
}
let exitCode = 0;
try {
  await device.connect();
  if (!rdp) {
    app = await startDesktopApp(device.display!);
    cleanup.push(() => app.close());
  }
  const save = (await app.state()).widgets.save;
  const box = { left: save.x, top: save.y, width: save.width, height: save.height };
  const model = await startModelProcess(box, { imagePixelsPerCssPixel: 1 });
  const agent = new ComputerAgent(device, {
    modelConfig: model.modelConfig(),
    waitAfterAction: WAIT_AFTER_ACTION_MS,
    generateReport: false,
    autoPrintReportMsg: false,
  });

  // The split: the device's screenshot and the Tap action timed in place, the model round trip
  // as the HTTP calls to the test model.
  const parts = { shot: 0, model: 0, tap: 0 };
  const marks = { shotEnd: NaN, modelStart: NaN, tapEnd: NaN };
  const shot = device.screenshotBase64.bind(device);
  device.screenshotBase64 = async () => {
    const t = performance.now();
    try {
      return await shot();
    } finally {
      marks.shotEnd = performance.now();
      parts.shot += marks.shotEnd - t;
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
            marks.tapEnd = performance.now();
            parts.tap += marks.tapEnd - t;
          }
        },
      }
    );
  const fetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const t = performance.now();
    marks.modelStart = t;
    try {
      return await fetch(...args);
    } finally {
      parts.model += performance.now() - t;
    }
  };

  const before = (await app.state()).clicks;
  const rows: { step: number; shot: number; model: number; tap: number; prep: number }[] = [];
  for (let i = 0; i <= steps; i++) {
    parts.shot = parts.model = parts.tap = 0;
    const t = performance.now();
    await agent.aiTap("the Save button");
    const ms = performance.now() - t;
    const prep = marks.modelStart - marks.shotEnd;
    if (i > 0) rows.push({ step: ms, ...parts, prep }); // step 0 is cold
  }
  globalThis.fetch = fetch;
  const clicks = (await app.state()).clicks - before;
  if (clicks !== steps + 1) {
    throw new Error(`the app counted ${clicks} clicks, expected ${steps + 1}`);
  }
  // The screenshot alone, apart from the agent: the host's capture, encoding and transfer.
  const captures: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await shot();
    captures.push(performance.now() - t);
  }
  const png = await shot();
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
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  const pngKb = Math.round((png.length - "data:image/png;base64,".length) * 3 / 4 / 1024);
  console.log(
    rdp
      ? "Desktop aiTap over RDP (xfreerdp -> FreeRDP shadow server, 1280x800), Tk fixture app"
      : "Desktop aiTap on Xvfb 1920x1080 (headless), Tk fixture app",
  );
  console.log(`steps                 ${steps} (after one cold step)`);
  console.log(`median step           ${fmt(stepMedian)}`);
  console.log(
    `overhead              ${fmt(overhead)} (beyond waitAfterAction ${WAIT_AFTER_ACTION_MS} ms)`,
  );
  console.log(`  screenshot          ${fmt(split.screenshot)} (PNG ${pngKb} KB)`);
  console.log(`  model round trip    ${fmt(split.model)}`);
  console.log(`  click               ${fmt(split.tap)}`);
  console.log(`  rest                ${fmt(rest)}`);
  console.log(`    screenshot -> model request: ${fmt(median(rows.map((r) => r.prep)))}`);
  console.log(`  screenshot alone, 10 captures: ${fmt(median(captures))}`);
  await Deno.mkdir(new URL("./output/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL(rdp ? "./output/computer_rdp.json" : "./output/computer.json", import.meta.url),
    JSON.stringify(
      {
        mode: rdp ? "rdp" : "local",
        steps,
        waitAfterActionMs: WAIT_AFTER_ACTION_MS,
        stepMedianMs: stepMedian,
        overheadMs: overhead,
        splitMedianMs: { ...split, rest },
        screenshotAloneMedianMs: median(captures),
        pngKb,
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
  await device.destroy();
  for (const step of cleanup) await step();
}
Deno.exit(exitCode);
