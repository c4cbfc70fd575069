/**
 * The native-dialog scenarios (docs/web.md, "Native dialogs") every web driver runs: `alert`,
 * `confirm`, `prompt` and `beforeunload` on the fixture page `dialogs.html`, answered by the
 * agent's `nativeDialogs` option, through the real model path (the test model locates the buttons
 * and plans the taps). A test file registers them for its one browser with a
 * {@link DialogsPageOpener} of its driver.
 *
 * Everything is read through the agent (`evaluateJavaScript`, the report's executions), so the
 * same body checks DriverA, DriverB and the extension bridge; a page the dialog still blocks
 * would make those reads hang, and the test's time limit fail it.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { WebPageAgent, WebPageAgentOptions } from "@sdk/web";
import type { ReportStep } from "@sdk/core/report";
import type { PlanReply, TargetBox, TestModelScript } from "@sdk/core/testing";

/**
 * Opens `dialogs.html` in a new page and an agent of the file's driver on it, over a test model
 * answering with `script(agent)`; the agent gets `options` (and the file's quick defaults).
 */
export type DialogsPageOpener = (
  script: (agent: () => WebPageAgent) => TestModelScript,
  options?: WebPageAgentOptions,
) => Promise<WebPageAgent>;

/** Registers one scenario as a test of the file's driver. */
export type RegisterDialogTest = (
  name: string,
  body: (open: DialogsPageOpener) => Promise<void>,
) => void;

/** What the page's dialogs returned, in order (`window.appState.answers`). */
interface PageAnswer {
  dialog: string;
  value?: unknown;
}

const TARGETS: [RegExp, string][] = [
  [/alert/i, "#alert-button"],
  [/confirm/i, "#confirm-button"],
  [/name/i, "#prompt-button"],
  [/leave/i, "#leave-link"],
];

/** The box of the element `selector` matches, read through the agent. */
async function measure(agent: WebPageAgent, selector: string): Promise<TargetBox> {
  const json = await agent.evaluateJavaScript(
    `JSON.stringify(document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect())`,
  );
  const r = JSON.parse(json as string);
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

/**
 * Locates the page's buttons and link; plans one Tap on the "Leave this page" link, then
 * finishes.
 */
export function dialogsScript(agent: () => WebPageAgent): TestModelScript {
  return {
    locate: ({ target }) => {
      const hit = TARGETS.find(([re]) => re.test(target));
      return hit ? measure(agent(), hit[1]) : null;
    },
    plan: async ({ history }): Promise<PlanReply> => {
      if (history.length) return { log: "Done", finished: true };
      return {
        log: "Tap the Leave this page link",
        action: {
          type: "Tap",
          param: {
            locate: {
              prompt: "the Leave this page link",
              box: await measure(agent(), "#leave-link"),
            },
          },
        },
      };
    },
  };
}

async function answers(agent: WebPageAgent): Promise<PageAnswer[]> {
  return JSON.parse(await agent.evaluateJavaScript("JSON.stringify(appState.answers)") as string);
}

async function pathname(agent: WebPageAgent): Promise<string> {
  return await agent.evaluateJavaScript("location.pathname") as string;
}

/** The dialog steps of the agent's report, with the API call each belongs to. */
function dialogSteps(agent: WebPageAgent): (ReportStep & { apiName: string })[] {
  return agent._unstableLogContent().executions.flatMap((e) =>
    e.steps.filter((s) => s.title.startsWith("Dialog: ")).map((s) => ({
      ...s,
      apiName: e.apiName,
    }))
  );
}

/** Resolves once `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Registers every scenario with `register`. */
export function nativeDialogTests(register: RegisterDialogTest): void {
  register(
    "by default alert, confirm and prompt are dismissed: no hang, confirm false, prompt null, a step each",
    async (open) => {
      const agent = await open(dialogsScript);
      await agent.aiTap("the Show an alert button");
      await agent.aiTap("the Ask to confirm button");
      await agent.aiTap("the Ask for a name button");
      assert.deepEqual(await answers(agent), [
        { dialog: "alert" },
        { dialog: "confirm", value: false },
        { dialog: "prompt", value: null },
      ]);
      // The page is not blocked: screenshots and scripts go on.
      assert.match(await agent.interface.screenshotBase64(), /^data:image\/png;base64,/);
      const steps = dialogSteps(agent);
      assert.deepEqual(
        steps.map((s) => [s.apiName, s.kind, s.title, s.thought, s.status]),
        [
          ["aiTap", "Log", "Dialog: alert, dismissed", "Saved: the draft is stored", "passed"],
          ["aiTap", "Log", "Dialog: confirm, dismissed", "Delete the draft?", "passed"],
          ["aiTap", "Log", "Dialog: prompt, dismissed", "Your name?", "passed"],
        ],
      );
      assert.deepEqual(steps[2].param, {
        type: "prompt",
        message: "Your name?",
        defaultValue: "guest",
        accept: false,
      });
      // Each dialog's step follows the tap that opened it.
      const tap = agent._unstableLogContent().executions[1].steps;
      assert.deepEqual(tap.map((s) => s.kind).slice(-2), ["Action", "Log"]);
    },
  );

  register(
    "nativeDialogs 'accept': confirm returns true, prompt its default value",
    async (open) => {
      const agent = await open(dialogsScript, { nativeDialogs: "accept" });
      await agent.aiTap("the Ask to confirm button");
      await agent.aiTap("the Ask for a name button");
      assert.deepEqual(await answers(agent), [
        { dialog: "confirm", value: true },
        { dialog: "prompt", value: "guest" },
      ]);
      assert.deepEqual(dialogSteps(agent).map((s) => s.title), [
        "Dialog: confirm, accepted",
        'Dialog: prompt, accepted with "guest"',
      ]);
    },
  );

  register(
    "a function answers each dialog from its type, message and default value",
    async (open) => {
      const seen: unknown[] = [];
      const agent = await open(dialogsScript, {
        nativeDialogs: async (dialog) => {
          seen.push(dialog);
          await new Promise((resolve) => setTimeout(resolve, 100)); // an async answer
          return dialog.type === "prompt"
            ? { accept: true, promptText: "Ada" }
            : { accept: dialog.type === "confirm" };
        },
      });
      await agent.aiTap("the Ask for a name button");
      await agent.aiTap("the Ask to confirm button");
      assert.deepEqual(await answers(agent), [
        { dialog: "prompt", value: "Ada" },
        { dialog: "confirm", value: true },
      ]);
      assert.deepEqual(seen, [
        { type: "prompt", message: "Your name?", defaultValue: "guest" },
        { type: "confirm", message: "Delete the draft?", defaultValue: "" },
      ]);
      const [prompt] = dialogSteps(agent);
      assert.equal(prompt.title, 'Dialog: prompt, accepted with "Ada"');
      assert.deepEqual(prompt.param, {
        type: "prompt",
        message: "Your name?",
        defaultValue: "guest",
        accept: true,
        promptText: "Ada",
      });
    },
  );

  register(
    "beforeunload is accepted by default: aiAct's tap on the leave link leaves the page",
    async (open) => {
      const agent = await open(dialogsScript);
      await agent.aiAct("leave this page");
      assert.equal(await pathname(agent), "/leave.html");
      const steps = dialogSteps(agent);
      assert.deepEqual(
        steps.map((s) => [s.apiName, s.kind, s.title, s.status]),
        [["aiAct", "Log", "Dialog: beforeunload, accepted", "passed"]],
      );
      assert.equal((steps[0].param as { type: string }).type, "beforeunload");
    },
  );

  register("a function that dismisses beforeunload keeps the page", async (open) => {
    const agent = await open(dialogsScript, {
      nativeDialogs: (dialog) => ({ accept: dialog.type !== "beforeunload" }),
    });
    await agent.aiTap("the Leave this page link");
    assert.equal(await pathname(agent), "/dialogs.html");
    assert.deepEqual(dialogSteps(agent).map((s) => s.title), ["Dialog: beforeunload, dismissed"]);
  });

  register(
    "a dialog between calls (a timer's alert) is answered and recorded as its own call",
    async (open) => {
      const agent = await open(dialogsScript);
      await agent.evaluateJavaScript(
        "setTimeout(() => appState.answers.push({ dialog: 'alert', value: alert('Time is up') }), 0)",
      );
      await until(async () => (await answers(agent)).length === 1, "the timer's alert");
      await until(() => dialogSteps(agent).length === 1, "the dialog's step");
      const [step] = dialogSteps(agent);
      assert.deepEqual([step.apiName, step.title, step.thought], [
        "deviceEvent",
        "Dialog: alert, dismissed",
        "Time is up",
      ]);
      // The next call runs as usual.
      await agent.aiTap("the Ask to confirm button");
      assert.deepEqual((await answers(agent))[1], { dialog: "confirm", value: false });
    },
  );

  register(
    "a function that throws or answers nonsense: the dialog gets the default answer, the step says why",
    async (open) => {
      const agent = await open(dialogsScript, {
        nativeDialogs: (dialog) => {
          if (dialog.type === "confirm") throw new Error("no answer today");
          return { accept: "yes" } as unknown as { accept: boolean };
        },
      });
      await agent.aiTap("the Ask to confirm button");
      await agent.aiTap("the Ask for a name button");
      assert.deepEqual(await answers(agent), [
        { dialog: "confirm", value: false },
        { dialog: "prompt", value: null },
      ]);
      const steps = dialogSteps(agent);
      assert.deepEqual(steps.map((s) => [s.title, s.status]), [
        ["Dialog: confirm, dismissed", "failed"],
        ["Dialog: prompt, dismissed", "failed"],
      ]);
      assert.match(steps[0].error!, /nativeDialogs.*threw.*no answer today/);
      assert.match(steps[1].error!, /nativeDialogs.*'accept' must be a boolean/);
    },
  );
}
