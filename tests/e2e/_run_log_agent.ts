/**
 * A whole run in its own process, for run_log_test.ts: the run log is per process and reads
 * `SDK_RUN_DIR` and `DEBUG` once, so each setting needs a fresh process. Opens the fixture app's
 * actions page in headless Chromium, runs `aiAct` against the test model configured with the API
 * key given as the first argument, which goes in the Authorization header and in the request body
 * (one planned Tap on "Click me", then done; then a call the model says is impossible), and prints
 * what the test checks beside the log: the page's click count and the Authorization results the
 * model server saw.
 *
 * @module
 */

import { DriverBPageAgent } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import { launchChromium, measure } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";

const apiKey = Deno.args[0];
const app = await serveStatic(FIXTURE_APP_DIR);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  await page.goto(new URL("actions.html", app.url).href);
  const box = await measure(page, "#click-button");
  let planned = 0;
  const model = await startTestModel({
    apiKey,
    viewport: () => page.viewportSize()!,
    script: {
      plan: () =>
        ++planned === 1
          ? {
            log: "Tap the Click me button",
            action: { type: "Tap", param: { locate: { prompt: "the Click me button", box } } },
          }
          : planned === 2
          ? { log: "done", finished: true, output: "clicked" }
          : { log: "", error: "There is no checkout button on this page." },
    },
  });
  try {
    const agent = new DriverBPageAgent(page, {
      // Some gateways take the key in the body too: the key then reaches the logged request.
      modelConfig: {
        ...model.modelConfig(),
        SDK_MODEL_EXTRA_BODY_JSON: JSON.stringify({ metadata: { gateway_key: apiKey } }),
      },
      waitAfterAction: 0,
      autoPrintReportMsg: false,
      generateReport: false,
    });
    await agent.aiAct("click the Click me button once");
    // A failing call, for the log's error line.
    await agent.aiAct("press checkout").catch(() => {});
    await agent.destroy();
    const clicks = await page.evaluate(() =>
      (globalThis as unknown as { appState: { clicks: number } }).appState.clicks
    );
    console.log(JSON.stringify({ clicks, authorization: model.calls.map((c) => c.authorization) }));
  } finally {
    await model.close();
  }
} finally {
  await browser.close();
  await app.close();
}
