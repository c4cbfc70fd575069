/**
 * The main job: an agent does a real multi-step task in real headless Chromium on the bundled
 * fixture app, then extracts and asserts, and prints where the report is.
 *
 * With SDK_MODEL_NAME, SDK_MODEL_BASE_URL and SDK_MODEL_API_KEY set it uses that model; with
 * none of the model variables set it uses the offline scripted test model (not an AI model) and
 * says so. Some of them set and others missing is an error naming the missing ones: the demo is
 * how a user checks their model, so it never falls back to the stand-in then.
 *
 * Ctrl+C stops the task, finalizes the report, prints its path and closes the browser (which then
 * removes its profile), then exits with code 130; a second Ctrl+C exits at once.
 *
 *     deno task demo
 *
 * @module
 */

import { DriverBPageAgent } from "@sdk/web";
import { isSdkError } from "@sdk/core";
import { startTestModel } from "@sdk/core/testing";
import type { TestModel } from "@sdk/core/testing";
import { launchChromium } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import { appModelScript } from "../tests/helpers/app_model.ts";
import { demoModelChoice } from "./model_choice.ts";

/** Exit code of a run stopped by Ctrl+C, as shells give it (128 + SIGINT). */
const INTERRUPTED = 130;

const abort = new AbortController();
const onInterrupt = () => {
  if (abort.signal.aborted) Deno.exit(INTERRUPTED);
  console.log("\nInterrupted (Ctrl+C): finalizing the report and closing the browser ...");
  abort.abort(new DOMException("interrupted (Ctrl+C)", "AbortError"));
};
Deno.addSignalListener("SIGINT", onInterrupt);

/** Waits for `call`, or rejects with the interrupt's reason at Ctrl+C (the call is left to end). */
function unlessInterrupted<T>(call: Promise<T>): Promise<T> {
  call.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(abort.signal.reason);
    if (abort.signal.aborted) return stop();
    abort.signal.addEventListener("abort", stop, { once: true });
    call.then(resolve, reject).finally(() => abort.signal.removeEventListener("abort", stop));
  });
}

async function demo(): Promise<void> {
  // Before anything starts: a model half set is an error, not the stand-in.
  const choice = demoModelChoice((name) => Deno.env.get(name));
  const app = await serveStatic(FIXTURE_APP_DIR);
  // The browser is closed here on Ctrl+C, so it can remove its profile and singleton files.
  const browser = await launchChromium({ handleSignals: false });
  let model: TestModel | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await unlessInterrupted(page.goto(`${app.url}login.html`));
    if (choice.live) {
      console.log(`Model: ${choice.modelName} at ${choice.baseURL}`);
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
        { abortSignal: abort.signal },
      );
      console.log(`aiAct finished: ${output ?? "(no output)"}`);
      const items = await unlessInterrupted(agent.aiQuery<string[]>(
        "the todo items in the list, as an array of strings",
      ));
      console.log(`aiQuery: ${JSON.stringify(items)}`);
      await unlessInterrupted(agent.aiAssert("the todo list shows 'Water the plants'"));
      console.log("aiAssert: passed");
      const m = agent.metrics;
      console.log(`Model calls: ${m.calls}, tokens: ${m.totalTokens}`);
    } finally {
      await agent.destroy();
      console.log(`Report: ${agent.reportFile ?? "none (no call reached the report)"}`);
    }
  } finally {
    await model?.close();
    await browser.close();
    await app.close();
  }
}

try {
  await demo();
} catch (e) {
  if (abort.signal.aborted) {
    Deno.exitCode = INTERRUPTED;
  } else if (isSdkError(e)) {
    // The SDK's own errors say what to do: one line with the class and code, no stack.
    console.error(`demo: ${e.name} (${e.code}): ${e.message}`);
    Deno.exitCode = 1;
  } else {
    throw e;
  }
} finally {
  Deno.removeSignalListener("SIGINT", onInterrupt);
}
