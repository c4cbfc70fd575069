/**
 * The retry covers the plan (docs/model-protocol.md, "Unusable answers: one retry"): a JSON plan
 * whose action type the device does not have, whose parameters do not fit the action, or whose
 * box is not a box is an unusable answer: one retry, then a ModelResponseError quoting both
 * answers. Blanks around keys, the action type and enum values are trimmed, never around an
 * Input value.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ModelResponseError } from "@sdk/core";
import { locateTarget } from "../helpers/app_model.ts";
import { appState, startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

/** The click button's box on a 1280 x 800 page, in the default family's 0-1000 scale. */
async function clickBox(page: Page): Promise<number[]> {
  const b = (await locateTarget(page, "click"))!;
  const n = (v: number, size: number) => Math.round(v * 1000 / (size - 1));
  return [n(b.left, 1280), n(b.top, 800), n(b.left + b.width, 1280), n(b.top + b.height, 800)];
}

const DONE = JSON.stringify({ log: "done", action: null, finished: true, output: "ok" });

test('a padded action type and padded keys are read: " Tap" taps at once, without a retry', {
  timeout: 60_000,
}, async () => {
  const page = await env.open("actions.html");
  const bbox = await clickBox(page);
  const locate = { prompt: "the click button", bbox };
  const answers = [
    // The case: only the type is padded.
    JSON.stringify({ log: "tap", action: { type: " Tap", param: { locate } } }),
    DONE,
    // Padded keys at every level of the plan.
    `{" log": "tap", " action ": {" type": "Tap ", "param ": {" locate": {"prompt ": "the click button", " bbox": ${
      JSON.stringify(bbox)
    }}}}, "finished": false}`,
    DONE,
  ];
  let n = 0;
  const { agent, model } = await env.agent(page, {}, {
    model: { answerOverride: () => answers[n++] },
  });
  assert.equal(await agent.aiAct("click the button"), "ok");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(await agent.aiAct("click the button"), "ok");
  assert.equal(await appState(page, "clicks"), 2);
  assert.equal(model.calls.length, 4);
  assert.ok(model.calls.every((c) => c.call!.feedback === undefined));
});

test("an action type the page does not have is retried; the good second answer is used", {
  timeout: 60_000,
}, async () => {
  const page = await env.open("actions.html");
  const bbox = await clickBox(page);
  const answers = [
    JSON.stringify({ log: "open", action: { type: "Launch", param: { uri: "Settings" } } }),
    JSON.stringify({
      log: "tap",
      action: { type: "Tap", param: { locate: { prompt: "the click button", bbox } } },
    }),
    DONE,
  ];
  let n = 0;
  const { agent, model } = await env.agent(page, {}, {
    model: { answerOverride: () => answers[n++] },
  });
  assert.equal(await agent.aiAct("click the button"), "ok");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(model.calls.length, 3);
  const feedback = model.calls[1].call!.feedback!;
  assert.match(feedback, /^Your previous answer could not be used: /);
  assert.match(feedback, /no action named "Launch".*Tap, DoubleClick/);
});

test(
  "two plans that do not fit (a missing parameter, then a bad enum value): a ModelResponseError quoting both, nothing done",
  {
    timeout: 60_000,
  },
  async () => {
    const page = await env.open("actions.html");
    const answers = [
      JSON.stringify({ log: "tap", action: { type: "Tap", param: {} } }),
      JSON.stringify({
        log: "scroll",
        action: { type: "Scroll", param: { direction: "sideways" } },
      }),
    ];
    let n = 0;
    const { agent, model } = await env.agent(page, {}, {
      model: { answerOverride: () => answers[n++] },
    });
    await assert.rejects(agent.aiAct("click the button"), (e: unknown) => {
      assert.ok(e instanceof ModelResponseError, String(e));
      assert.match(e.message, /even after one retry/);
      assert.match(e.message, /Tap needs the parameter "locate"/);
      assert.match(e.message, /Scroll\.direction must be one of down, up, left, right/);
      assert.ok(e.rawResponse.includes(answers[0]) && e.rawResponse.includes(answers[1]));
      return true;
    });
    assert.equal(model.calls.length, 2);
    assert.equal(await appState(page, "clicks"), 0);
  },
);

test(
  "a plan whose bbox is not a box (words with numbers) is retried, not tapped at those numbers",
  {
    timeout: 60_000,
  },
  async () => {
    const page = await env.open("actions.html");
    const bbox = await clickBox(page);
    const answers = [
      JSON.stringify({
        log: "tap",
        action: {
          type: "Tap",
          param: { locate: { prompt: "the click button", bbox: "error: 500, 503" } },
        },
      }),
      JSON.stringify({
        log: "tap",
        action: { type: "Tap", param: { locate: { prompt: "the click button", bbox } } },
      }),
      DONE,
    ];
    let n = 0;
    const { agent, model } = await env.agent(page, {}, {
      model: { family: "doubao-vision", answerOverride: () => answers[n++] },
    });
    assert.equal(await agent.aiAct("click the button"), "ok");
    assert.equal(await appState(page, "clicks"), 1);
    assert.equal(model.calls.length, 3);
    assert.match(model.calls[1].call!.feedback!, /neither a point nor a box.*error: 500, 503/);
  },
);
