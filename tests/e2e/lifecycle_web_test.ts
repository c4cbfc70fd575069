/**
 * Lifecycle of web and MobileB scripts (tests/helpers/lifecycle.ts): a child script with a DriverA
 * page agent, one with a DriverB page agent (each on a headless Chromium it launches itself) and
 * one with a MobileB agent (against a WDA front started here, observing its MJPEG stream), each
 * ended by each of the six ways of `END_WAYS`. Each must end with the exit code of its way (ending
 * without `destroy()` included: nothing of the SDK keeps it alive), leave no process of the SDK
 * behind, and, when it printed a report, leave one that parses.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { launchChromium } from "../helpers/browser.ts";
import {
  END_WAYS,
  type EndBy,
  type EndedRun,
  parseReport,
  runAndEnd,
  type SeenProcess,
  stillRunning,
} from "../helpers/lifecycle.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/lifecycle/", import.meta.url));

let model: TestModel;
let browser: Browser;
let phone: VirtualPhone;
let front: WdaFront;
let runDir: string;

before(async () => {
  runDir = await mkdtemp(join(tmpdir(), "sdk-lifecycle-web-"));
  // Every call locates one box: the button of the web pages, a spot on the phone's screen.
  model = await startTestModel({
    script: { locate: () => ({ left: 10, top: 10, width: 100, height: 40 }) },
  });
  browser = await launchChromium();
  phone = await startVirtualPhone({ browser, width: 390, height: 844, density: 1 });
  front = await startWdaFront(phone, {});
});

after(async () => {
  await front?.close();
  await phone?.close();
  await browser?.close();
  await model?.close();
  if (runDir) await rm(runDir, { recursive: true, force: true });
});

/** The exit each way must give: an exit code, or the signal (Deno exits 128 + n or by it). */
function assertEndedAsTold(run: EndedRun, way: EndBy): void {
  const status = `code ${run.code}, signal ${run.signal}; output:\n${run.output}`;
  switch (way) {
    case "end-without-destroy":
      return assert.equal(run.code, 0, status);
    case "sigint":
      return assert.ok(run.code === 130 || run.signal === "SIGINT", status);
    case "sigterm":
      return assert.ok(run.code === 143 || run.signal === "SIGTERM", status);
    case "deno-exit":
      return assert.equal(run.code, 3, status);
    case "process-exit":
      return assert.equal(run.code, 4, status);
    case "uncaught-error":
      assert.equal(run.code, 1, status);
      return assert.match(run.output, /the script's uncaught error/);
  }
}

// A Chromium the script launched itself through Playwright or Puppeteer is the script's, not the
// SDK's: when the script is killed, or exits without closing its browser, the driver library may
// not get to close it. Those processes (chromium, its crashpad handler, zygotes and renderers, all
// named after it) are filtered out by name; anything else still alive was started by the SDK.
const isScriptsChromium = (p: SeenProcess) => /chrom/i.test(p.name);

/** Ends what is left of the Chromium a script launched itself, so that tests leave no process. */
async function endScriptsChromium(left: SeenProcess[]): Promise<void> {
  for (const p of left) {
    try {
      if (await stillRunning(p)) process.kill(p.pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}

const SCRIPTS = [
  { name: "DriverA page agent", file: "driver_a_page.ts", ownChromium: true },
  { name: "DriverB page agent", file: "driver_b_page.ts", ownChromium: true },
  { name: "MobileB agent observing WDA's MJPEG stream", file: "mobileb.ts", ownChromium: false },
] as const;

for (const script of SCRIPTS) {
  for (const way of END_WAYS) {
    test(
      `${script.name}: a script ended by ${way} exits as told, leaves no process of the SDK and a report that parses`,
      {
        timeout: 90_000,
      },
      async () => {
        // Its own temporary folder, removed with runDir: the profile of a Chromium it leaves.
        const tmp = await mkdtemp(join(runDir, "tmp-"));
        const run = await runAndEnd({
          script: join(FIXTURES, script.file),
          env: {
            ...model.modelConfig(),
            TMPDIR: tmp,
            SDK_RUN_DIR: runDir,
            SDK_TEST_WDA_PORT: String(front.port),
            SDK_TEST_WDA_MJPEG_PORT: String(front.mjpegPort),
          },
          endBy: way,
          afterReadyMs: 300,
          timeoutMs: 60_000,
        });
        assert.match(run.output, /^ready$/m, `the script acted:\n${run.output}`);
        assertEndedAsTold(run, way);
        const survivors = script.ownChromium
          ? run.survivors.filter((p) => !isScriptsChromium(p))
          : run.survivors;
        await endScriptsChromium(run.survivors.filter(isScriptsChromium));
        assert.deepEqual(
          survivors,
          [],
          `still running after the script ended (seen: ${
            run.descendants.map((p) => `${p.name}:${p.pid}`).join(", ")
          })`,
        );
        if (run.reportFile) {
          assert.ok(await parseReport(run.reportFile) >= 1, `${run.reportFile} has its executions`);
        }
      },
    );
  }
}
