/**
 * Locate answers that hold neither a `bbox` nor an `error` (docs/model-protocol.md, "Unusable
 * answers: one retry"): they are unusable, not a "not found", so they get the one retry and, when
 * the retry's answer is unusable too, a `ModelResponseError` quoting both answers. An explicit
 * `"bbox": null` stays a not-found after one call.
 *
 * @module
 */

import { after } from "node:test";
import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { LocateError, ModelResponseError } from "@sdk/core";
import { locateTarget } from "../helpers/app_model.ts";
import { appState, startE2e } from "./_setup.ts";

const env = await startE2e();
after(() => env.close());

test("a locate answer with a point but no bbox is retried once, naming what is missing; the good second answer is used", async () => {
  const page = await env.open("actions.html");
  let n = 0;
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page, call.target),
  }, {
    model: {
      answerOverride: () => n++ === 0 ? JSON.stringify({ point: [0.5, 0.1] }) : undefined,
    },
  });
  await agent.aiTap("the click button");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(model.calls.length, 2);
  assert.match(model.calls[1].call!.feedback!, /^Your previous answer could not be used: /);
  assert.match(model.calls[1].call!.feedback!, /neither "bbox" nor "error"/);
});

test("two locate answers with neither bbox nor error: a ModelResponseError quoting both, nothing clicked", async () => {
  const page = await env.open("actions.html");
  const bad = [
    JSON.stringify({ point: [0.5, 0.1] }),
    JSON.stringify({ thought: "The button is in the middle of the page." }),
  ];
  let n = 0;
  const { agent, model } = await env.agent(page, { locate: () => null }, {
    model: { answerOverride: () => bad[n++] },
  });
  await assert.rejects(agent.aiTap("the click button"), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError, `expected a ModelResponseError, got ${e}`);
    assert.ok(e.message.includes(JSON.stringify(bad[0])), e.message);
    assert.ok(e.message.includes(JSON.stringify(bad[1])), e.message);
    assert.match(e.message, /neither "bbox" nor "error"/);
    assert.ok(e.rawResponse.includes(bad[0]) && e.rawResponse.includes(bad[1]));
    return true;
  });
  assert.equal(model.calls.length, 2);
  assert.equal(await appState(page, "clicks"), 0);
});

test("kimi: a point under bbox locates in one call, a point under another key gets the retry", async () => {
  const page = await env.open("actions.html");
  let n = 0;
  // The kimi family's answer is a point [x, y] in the bbox field (fractions of the image).
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page, call.target),
  }, {
    model: {
      family: "kimi",
      answerOverride: (call) =>
        call.kind === "locate" && n++ === 1 ? JSON.stringify({ point: [0.5, 0.1] }) : undefined,
    },
  });
  await agent.aiTap("the click button");
  assert.equal(model.calls.length, 1);
  await agent.aiTap("the click button");
  assert.equal(model.calls.length, 3);
  assert.match(model.calls[2].call!.feedback!, /neither "bbox" nor "error"/);
  assert.equal(await appState(page, "clicks"), 2);
});

test('a locate answer with "bbox": null is a not-found after one call, even without an error', async () => {
  const page = await env.open("actions.html");
  const { agent, model } = await env.agent(page, { locate: () => null }, {
    model: {
      answerOverride: () => JSON.stringify({ thought: "No such button.", bbox: null }),
    },
  });
  await assert.rejects(
    agent.aiTap("the purple button"),
    (e: unknown) => e instanceof LocateError && /The model said: No such button\./.test(e.message),
  );
  assert.equal(model.calls.length, 1);
});

test("two unusable answers of 50 MB each end in a ModelResponseError whose message quotes short excerpts with their sizes", async () => {
  const page = await env.open("actions.html");
  const huge = (c: string) => `{"thought": "${c.repeat(50_000_000)}"}`;
  const bad = [huge("A"), huge("B")];
  let n = 0;
  const { agent, model } = await env.agent(page, { locate: () => null }, {
    model: { answerOverride: () => bad[n++] },
  });
  await assert.rejects(agent.aiTap("the click button"), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError, `expected a ModelResponseError, got ${e}`);
    assert.equal(e.code, "MODEL_RESPONSE_UNUSABLE");
    assert.ok(e.message.length < 2_000, `the message is ${e.message.length} characters`);
    assert.match(e.message, /\(50000015 characters in all\)/);
    assert.ok(e.rawResponse.startsWith(bad[0]) && e.rawResponse.endsWith(bad[1]));
    return true;
  });
  assert.equal(model.calls.length, 2);
  // The retry sends back a bounded copy of the first answer, not 50 MB.
  const retryBody = JSON.stringify(model.calls[1].call);
  assert.ok(retryBody.length < 1_000_000, `the retry's recorded call is ${retryBody.length} chars`);
});
