/**
 * The main job: an agent does a real multi-step task in real headless Chromium on the bundled
 * fixture app, then extracts and asserts, and prints where the report is.
 *
 * With SDK_MODEL_NAME, SDK_MODEL_BASE_URL and SDK_MODEL_API_KEY set it uses that model; without
 * them it uses the offline scripted test model (not an AI model) and says so.
 *
 *     deno task demo
 *
 * @module
 */

import { DriverBPageAgent } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import type { TestModel } from "@sdk/core/testing";
import { launchChromium } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import { appModelScript } from "../tests/helpers/app_model.ts";

const live = ["SDK_MODEL_NAME", "SDK_MODEL_BASE_URL", "SDK_MODEL_API_KEY"].every((k) =>
  Deno.env.get(k)
);

const app = await serveStatic(FIXTURE_APP_DIR);
const browser = await launchChromium();
let model: TestModel | undefined;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${app.url}login.html`);
  if (live) {
    console.log(
      `Model: ${Deno.env.get("SDK_MODEL_NAME")} at ${Deno.env.get("SDK_MODEL_BASE_URL")}`,
    );
  } else {
    model = await startTestModel({
      // It plans as the planning prompt asks: a form's fields and its submit in one answer.
      script: appModelScript(page, { batch: true }),
      viewport: () => page.viewportSize()!,
    });
    console.log(
      "Model: OFFLINE SCRIPTED TEST MODEL. No SDK_MODEL_* variables are set, so a local stand-in\n" +
        "server answers the SDK's model calls over HTTP from a script that reads the page with\n" +
        "Playwright. It is not an AI model. Set SDK_MODEL_NAME, SDK_MODEL_BASE_URL and\n" +
        "SDK_MODEL_API_KEY (and SDK_MODEL_FAMILY) to run the demo with a real model.",
    );
  }
  const agent = new DriverBPageAgent(page, {
    modelConfig: model?.modelConfig(),
    reportFileName: "demo",
    onTaskStartTip: (tip) => console.log(`> ${tip}`),
  });
  try {
    const output = await agent.aiAct(
      "Sign in as alice with password secret, then add the todo item 'Water the plants' to the list",
    );
    console.log(`aiAct finished: ${output ?? "(no output)"}`);
    const items = await agent.aiQuery<string[]>(
      "the todo items in the list, as an array of strings",
    );
    console.log(`aiQuery: ${JSON.stringify(items)}`);
    await agent.aiAssert("the todo list shows 'Water the plants'");
    console.log("aiAssert: passed");
    const m = agent.metrics;
    console.log(`Model calls: ${m.calls}, tokens: ${m.totalTokens}`);
  } finally {
    await agent.destroy();
    console.log(`Report: ${agent.reportFile}`);
  }
} finally {
  await model?.close();
  await browser.close();
  await app.close();
}
