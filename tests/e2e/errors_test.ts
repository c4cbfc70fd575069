/// <reference lib="dom" />
/**
 * The error conditions of spec 7 that apply to web pages, on both drivers: each one triggered
 * for real, with the message checked, the page's state checked, and (for calls that ran) the
 * failure recorded in the finalized report, escaped.
 *
 * @module
 */

import { after } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readFile, rm } from "node:fs/promises";
import type { Page as PageB } from "playwright-core";
import type { Page as PageA } from "puppeteer-core";
import {
  Agent,
  AssertionError,
  type DeviceAction,
  ModelCallError,
  ModelConfigError,
  PlanningError,
  WaitForTimeoutError,
} from "@sdk/core";
import { startTestModel } from "@sdk/core/testing";
import type { LocateCall, PlanReply, TargetBox } from "@sdk/core/testing";
import { DriverAPageDriver, DriverBPageDriver, type PageDriver, WebPageDevice } from "@sdk/web";
import { escapeJsonForScript, parseReportHtml } from "../../core/report/_format.ts";
import { driverTest, type E2e, type E2ePage } from "./_drivers.ts";

const reports: string[] = [];
after(() => Promise.all(reports.map((file) => rm(file, { force: true }))));

/** Model text with characters that must be escaped in the report. */
const NASTY = `<b>"Checkout"</b> & <script>`;

/**
 * Destroys the agent (finalizing its report), then checks the report file records the failed
 * call of `apiName` with the error it was rejected with, escaped inside the file.
 */
async function assertReportedFailure(agent: Agent, apiName: string, error: string): Promise<void> {
  await agent.destroy();
  const file = agent.reportFile;
  assert.equal(typeof file, "string", "the report file exists");
  reports.push(file!);
  const html = await readFile(file!, "utf8");
  const failed = parseReportHtml(html).executions.filter((e) =>
    e.apiName === apiName && e.status === "failed"
  );
  assert.equal(failed.length, 1, `one failed ${apiName} in the report`);
  assert.equal(failed[0].error, error);
  // JSON inside a <script> tag: the text is there with every "<" escaped, never raw.
  assert.ok(html.includes(escapeJsonForScript(JSON.stringify(error).slice(1, -1))));
  if (error.includes("<")) assert.ok(!html.includes(error), "no raw '<' of the error in the file");
}

/** An error's message, for assertions after `assert.rejects`. */
async function rejection(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (e) {
    assert.ok(e instanceof Error, `rejected with an Error: ${e}`);
    return e;
  }
  assert.fail("expected a rejection");
}

/** A locate handler over actions.html's targets. */
function locateOn(page: E2ePage) {
  return (call: LocateCall): Promise<TargetBox | null> =>
    /click me/i.test(call.target)
      ? page.box("#click-button")
      : /key input/i.test(call.target)
      ? page.box("#key-input")
      : Promise.resolve(null);
}

/** A planned Tap on the Click me button. */
async function tapClickMe(page: E2ePage): Promise<PlanReply> {
  return {
    log: "Tap the Click me button",
    action: {
      type: "Tap",
      param: {
        locate: { prompt: "the Click me button", box: await page.measure("#click-button") },
      },
    },
  };
}

driverTest(
  "aiAct rejects with the model's reason when the plan cannot be executed",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, {
      plan: () => ({ log: "", error: `There is no ${NASTY} button on this page` }),
    });
    const e = await rejection(agent.aiAct("open the checkout"));
    assert.ok(e instanceof PlanningError);
    assert.equal(e.message, `aiAct failed: There is no ${NASTY} button on this page`);
    assert.equal(model.calls.length, 1);
    assert.equal(await page.state("clicks"), 0);
    await assertReportedFailure(agent, "aiAct", e.message);
  },
);

driverTest(
  "aiAct rejects with the action's error when a planned action fails, and plans no further",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const printer: DeviceAction = {
      name: "PrintPage",
      description: "Print the page.",
      params: [],
      call: () => Promise.reject(new Error(`The printer ${NASTY} is offline`)),
    };
    const { agent, model } = await e2e.agent(page, {
      plan: async (call) =>
        call.history.length === 0
          ? await tapClickMe(page)
          : { log: "Print the page", action: { type: "PrintPage", param: {} } },
    }, { customActions: [printer] });
    const e = await rejection(agent.aiAct("click the button, then print the page"));
    assert.equal(e.message, `The printer ${NASTY} is offline`);
    assert.equal(await page.state("clicks"), 1, "the step before the failure ran");
    assert.equal(model.calls.length, 2, "no planning after the failure");
    const steps = agent._unstableLogContent().executions[0].steps;
    const failedStep = steps.find((s) => s.title === "PrintPage")!;
    assert.deepEqual([failedStep.status, failedStep.error], ["failed", e.message]);
    await assertReportedFailure(agent, "aiAct", e.message);
  },
);

driverTest(
  "aiAct rejects when an assertion in its prompt is false, after the steps before it",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, {
      plan: async (call) =>
        call.history.length === 0
          ? await tapClickMe(page)
          : { log: "Check the counter", error: `The counter says 1 time, not 5 times ${NASTY}` },
    });
    const e = await rejection(
      agent.aiAct("click the Click me button, then check that the counter says 5 times"),
    );
    assert.ok(e instanceof PlanningError);
    assert.equal(e.message, `aiAct failed: The counter says 1 time, not 5 times ${NASTY}`);
    assert.equal(await page.state("clicks"), 1);
    // The planner is told to report a false assertion through "error".
    assert.match(
      model.calls[0].call!.systemPrompt,
      /"error": only when .* something the instruction asserts is false/,
    );
    await assertReportedFailure(agent, "aiAct", e.message);
  },
);

driverTest(
  "abortSignal aborted mid-aiAct rejects with its reason and makes no further model call",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const controller = new AbortController();
    const reason = new Error("the user pressed Stop");
    const { agent, model } = await e2e.agent(page, {
      plan: async (call) => {
        // The second plan is asked for: the user stops while the model is thinking.
        if (call.history.length > 0) controller.abort(reason);
        return await tapClickMe(page);
      },
    });
    const e = await rejection(
      agent.aiAct("click the Click me button forever", { abortSignal: controller.signal }),
    );
    assert.equal(e, reason, "rejects with the signal's reason itself");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(model.calls.length, 2);
    assert.equal(
      await page.state("clicks"),
      1,
      "the answer that arrived after the abort was not acted on",
    );

    // A signal aborted before the call stops it before any model call.
    const calls = model.calls.length;
    const early = await rejection(agent.aiAct("click", { abortSignal: controller.signal }));
    assert.equal(early, reason);
    assert.equal(model.calls.length, calls);
    await agent.destroy();
    reports.push(agent.reportFile!);
    const failed = parseReportHtml(await readFile(agent.reportFile!, "utf8")).executions;
    assert.deepEqual(failed.map((x) => [x.status, x.error]), [
      ["failed", reason.message],
      ["failed", reason.message],
    ]);
  },
);

driverTest(
  "aiAssert rejects with errorMsg and the model's reason when the assertion is false",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent } = await e2e.agent(page, {
      assert: () => ({ pass: false, thought: `The counter shows 0 times ${NASTY}` }),
    });
    const e = await rejection(
      agent.aiAssert("the counter shows 3 times", "The click counter is wrong"),
    );
    assert.ok(e instanceof AssertionError);
    assert.equal(
      e.message,
      `The click counter is wrong\nAssertion failed: the counter shows 3 times\nReason: The counter shows 0 times ${NASTY}`,
    );
    assert.equal(e.errorMsg, "The click counter is wrong");
    assert.equal(e.reason, `The counter shows 0 times ${NASTY}`);
    await assertReportedFailure(agent, "aiAssert", e.message);
  },
);

driverTest(
  "aiWaitFor rejects when its timeout passes without the condition holding",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, {
      assert: () => ({ pass: false, thought: `The counter still shows 0 ${NASTY}` }),
    });
    const started = Date.now();
    const e = await rejection(
      agent.aiWaitFor("the counter shows 1 time", { timeoutMs: 400, checkIntervalMs: 150 }),
    );
    const took = Date.now() - started;
    assert.ok(e instanceof WaitForTimeoutError);
    assert.equal(
      e.message,
      `aiWaitFor timed out after 400 ms: the counter shows 1 time\nLast check: The counter still shows 0 ${NASTY}`,
    );
    // Checks start 150 ms apart while less than 400 ms have passed: the last one at 250 ms or later.
    assert.ok(model.calls.length >= 2 && model.calls.length <= 3, `${model.calls.length} checks`);
    assert.ok(took >= 250 && took < 5000, `took ${took} ms`);
    await assertReportedFailure(agent, "aiWaitFor", e.message);
  },
);

driverTest(
  "inputStrategy 'bulk' with a delay, and a negative or non-finite keyboardTypeDelay, are rejected on aiInput and on the agent",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, { locate: locateOn(page) });
    const field = "the key input";
    await assert.rejects(
      agent.aiInput(field, { value: "abc", inputStrategy: "bulk", keyboardTypeDelay: 20 }),
      (e: unknown) =>
        e instanceof RangeError && /inputStrategy 'bulk'/.test(e.message) &&
        /keyboardTypeDelay/.test(e.message) && /current value is 20\b/.test(e.message),
    );
    for (const bad of [-1, NaN, Infinity]) {
      await assert.rejects(
        agent.aiInput(field, { value: "abc", keyboardTypeDelay: bad }),
        (e: unknown) =>
          e instanceof RangeError &&
          e.message.includes(
            `'keyboardTypeDelay' must be a finite number >= 0: current value is ${bad}`,
          ),
      );
    }
    assert.equal(model.calls.length, 0, "rejected before the model was asked");
    assert.equal(await page.state("inputValue"), "");

    await assert.rejects(
      e2e.agent(page, {}, { inputStrategy: "bulk", keyboardTypeDelay: 5 }),
      /inputStrategy 'bulk'.*keyboardTypeDelay.*current value is 5\b/,
    );
    for (const bad of [-3, NaN, -Infinity]) {
      await assert.rejects(
        e2e.agent(page, {}, { keyboardTypeDelay: bad }),
        (e: unknown) =>
          e instanceof RangeError && e.message.includes("'keyboardTypeDelay'") &&
          e.message.includes(`current value is ${bad}`),
      );
    }
  },
);

driverTest("aiKeyboardPress rejects a key the page cannot press", async (e2e) => {
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, { locate: locateOn(page) });
  // Not a combination: rejected before the element is clicked.
  const combo = await rejection(agent.aiKeyboardPress("the key input", { keyName: "Hyper+Q" }));
  assert.equal(
    combo.message,
    `Cannot run KeyboardPress: 'keyName' is not a key: Cannot press keys: "Hyper" in "Hyper+Q" is not a modifier (Control, Shift, Alt, Meta)`,
  );
  assert.equal(model.calls.length, 1, "located once");
  assert.notEqual(
    await page.evaluate(() => document.activeElement?.id),
    "key-input",
    "the field was not clicked",
  );
  // A name the browser has no key for: the driver says so.
  const unknown = await rejection(agent.aiKeyboardPress(undefined, { keyName: "Frobnicate" }));
  assert.match(unknown.message, /Unknown key: "Frobnicate"/);
  assert.equal(await page.state("lastKey"), null, "no key reached the page");
  await agent.destroy();
  reports.push(agent.reportFile!);
  const recorded = parseReportHtml(await readFile(agent.reportFile!, "utf8")).executions;
  assert.deepEqual(recorded.map((x) => [x.apiName, x.status, x.error]), [
    ["aiKeyboardPress", "failed", combo.message],
    ["aiKeyboardPress", "failed", unknown.message],
  ]);
});

/** The driver of the page, for building a device by hand. */
function pageDriver(e2e: E2e, page: E2ePage): PageDriver {
  return e2e.driver === "DriverA"
    ? new DriverAPageDriver(page.raw as PageA)
    : new DriverBPageDriver(page.raw as PageB);
}

driverTest(
  "destroy() rejects when the device's cleanup fails, after finalizing the report",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    class BrokenCleanupDevice extends WebPageDevice {
      override async destroy(): Promise<void> {
        await super.destroy();
        throw new Error("cleanup failed: the browser connection is gone");
      }
    }
    await using model = await startTestModel({
      script: { locate: locateOn(page) },
      viewport: () => page.viewport(),
    });
    const agent = new Agent(new BrokenCleanupDevice(pageDriver(e2e, page)), {
      modelConfig: model.modelConfig(),
      autoPrintReportMsg: false,
      waitAfterAction: 0,
    });
    await agent.aiTap("the Click me button");
    assert.equal(await page.state("clicks"), 1);
    await assert.rejects(
      agent.destroy(),
      /^Error: cleanup failed: the browser connection is gone$/,
    );
    const file = agent.reportFile;
    assert.equal(typeof file, "string");
    reports.push(file!);
    const report = parseReportHtml(await readFile(file!, "utf8"));
    assert.deepEqual(report.executions.map((x) => [x.apiName, x.status]), [["aiTap", "passed"]]);
    // Finalized: every screenshot a step refers to is in the file.
    const shots = report.executions.flatMap((x) => x.steps.map((s) => s.screenshot)).filter(
      Boolean,
    );
    assert.ok(shots.length > 0);
    for (const id of shots) assert.ok(report.screenshots.has(id!), `screenshot ${id} written`);
    await agent.destroy(); // a second call does nothing
    await assert.rejects(agent.aiTap("the Click me button"), /this agent was destroyed/);
    assert.equal(page.isClosed(), false, "the page stays open");
  },
);

driverTest(
  "without a valid model configuration, model-driven calls fail before any action",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const configs: Record<string, string>[] = [
      { SDK_MODEL_NAME: "some-model" },
      { SDK_MODEL_NAME: "m", SDK_MODEL_API_KEY: "k", SDK_MODEL_BASE_URL: "ftp://models.example" },
    ];
    for (const modelConfig of configs) {
      const { agent } = await e2e.agent(page, {}, { modelConfig });
      const calls: [string, () => Promise<unknown>][] = [
        ["aiTap", () => agent.aiTap("the Click me button")],
        ["aiAct", () => agent.aiAct("click the Click me button")],
        ["aiInput", () => agent.aiInput("the key input", { value: "x" })],
        ["aiKeyboardPress", () => agent.aiKeyboardPress(undefined, { keyName: "a" })],
        ["aiAssert", () => agent.aiAssert("the page is open")],
      ];
      for (const [api, call] of calls) {
        const e = await rejection(call());
        assert.ok(e instanceof ModelConfigError, `${api}: ${e}`);
        assert.match(
          e.message,
          modelConfig.SDK_MODEL_BASE_URL
            ? /SDK_MODEL_BASE_URL must be an http\(s\) URL .*"ftp:\/\/models\.example"/
            : /SDK_MODEL_BASE_URL, SDK_MODEL_API_KEY are not set/,
        );
      }
      assert.equal(await page.state("clicks"), 0);
      assert.equal(await page.state("inputValue"), "");
      assert.equal(await page.state("lastKey"), null);
      // Nothing ran, so there is nothing to report.
      await agent.destroy();
      assert.equal(agent.reportFile, undefined);
    }
  },
);

driverTest(
  "a model answering an HTTP error status fails the call with the status, intent and endpoint",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, {
      locate: () => {
        throw new Error(`overloaded ${NASTY}`);
      },
    });
    const e = await rejection(agent.aiTap("the Click me button"));
    assert.ok(e instanceof ModelCallError);
    assert.equal(e.status, 500);
    assert.equal(e.kind, "http");
    assert.equal(e.intent, "default");
    const host = new URL(model.baseURL).host;
    assert.ok(
      e.message.startsWith(
        `Model call failed (intent default, model "sdk-test-model", endpoint ${host}): HTTP 500`,
      ),
      e.message,
    );
    assert.ok(e.message.includes(`overloaded ${NASTY}`), "the endpoint's own message is kept");
    assert.ok(!e.message.includes(model.apiKey), "the API key is never in the message");
    assert.equal(await page.state("clicks"), 0);
    await assertReportedFailure(agent, "aiTap", e.message);
  },
);
