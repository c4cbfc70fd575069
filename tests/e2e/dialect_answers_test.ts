/**
 * Dialect answers with several actions, end to end on the fixture page (docs/model-protocol.md,
 * "Planning dialects"): of two UI-TARS `Action:` lines the last is performed; of an `Action:`
 * block with several calls the first is performed and each other one is a `Not performed: ...`
 * step of the report; an AutoGLM answer with two calls is unusable and gets the one retry.
 *
 * Shapes from the UI-TARS reference parser's tests (bytedance/UI-TARS-desktop,
 * packages/ui-tars/action-parser/test/actionParser.test.ts: "should handle multiple actions",
 * "should parse action from the final explicit Action marker").
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { DriverBPageAgent } from "@sdk/web";
import { locateTarget } from "../helpers/app_model.ts";
import { appState, startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

/** The center of `what` on a 1280 x 800 page (dpr 1) in the dialect's 0-1000 scale. */
async function centerOf(page: Page, what: string): Promise<string> {
  const b = (await locateTarget(page, what))!;
  const n = (v: number, size: number) => Math.round(v * 1000 / (size - 1));
  return `(${n(b.left + b.width / 2, 1280)},${n(b.top + b.height / 2, 800)})`;
}

function steps(agent: DriverBPageAgent) {
  return agent._unstableLogContent().executions.at(-1)!.steps;
}

test(
  "UI-TARS: two Action lines, the last is performed; an Action block with two calls, the first, the second shown as not performed",
  {
    timeout: 60_000,
  },
  async () => {
    const page = await env.open("actions.html");
    const click = await centerOf(page, "click");
    const answers = [
      // Two Action lines: an Escape press the model thought about, then the click it chose.
      `Thought: Maybe close a popup.\nAction: hotkey(key='esc')\nThought: Click the button.\nAction: click(start_box='${click}')`,
      // One Action block, two calls (blank line between them, as the reference parser splits).
      `Thought: Click it again, then type.\nAction: click(start_box='${click}')\n\ntype(content='Hello')`,
      "Thought: Done.\nAction: finished(content='clicked twice')",
    ];
    let n = 0;
    const { agent, model } = await env.agent(page, {}, {
      model: { family: "vlm-ui-tars", answerOverride: () => answers[n++] },
    });
    assert.equal(await agent.aiAct("click the button twice"), "clicked twice");
    assert.equal(await appState(page, "clicks"), 2);
    assert.equal(model.calls.length, 3);
    const shown = steps(agent).map((s) => `${s.kind}: ${s.title}`);
    assert.deepEqual(shown, [
      "Planning: Plan step 1",
      "Action: Tap",
      "Planning: Plan step 2",
      "Log: Not performed: type(content='Hello')",
      "Action: Tap",
      "Planning: Plan step 3",
    ]);
    const note = steps(agent).find((s) => s.kind === "Log")!;
    assert.match(note.thought ?? "", /only the first \(click\(start_box=.*\)\) is performed/);
    // No Escape was pressed: the first Action line of answer 1 was not performed.
    assert.equal(steps(agent).filter((s) => s.title === "KeyboardPress").length, 0);
  },
);

test("AutoGLM: an answer with two calls is retried once, saying one action per answer", {
  timeout: 60_000,
}, async () => {
  const page = await env.open("actions.html");
  const b = (await locateTarget(page, "click"))!;
  const n = (v: number, size: number) => Math.round(v * 1000 / (size - 1));
  const at = `[${n(b.left + b.width / 2, 1280)},${n(b.top + b.height / 2, 800)}]`;
  const answers = [
    `<think>Tap twice.</think><answer>do(action="Tap", element=${at})\ndo(action="Tap", element=${at})</answer>`,
    `<think>Tap once.</think><answer>do(action="Tap", element=${at})</answer>`,
    `<think>Done.</think><answer>finish(message="tapped")</answer>`,
  ];
  let i = 0;
  const { agent, model } = await env.agent(page, {}, {
    model: { family: "auto-glm", answerOverride: () => answers[i++] },
  });
  assert.equal(await agent.aiAct("tap the button"), "tapped");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(model.calls.length, 3);
  assert.match(model.calls[1].call!.feedback!, /more than one action/);
});
