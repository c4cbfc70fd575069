/**
 * Locate answers that hold neither a `bbox` nor an `error` (docs/model-protocol.md, "Unusable
 * answers: one retry"): they are unusable, not a "not found", so they get the one retry and, when
 * the retry's answer is unusable too, a `ModelResponseError` quoting both answers. An explicit
 * `"bbox": null` stays a not-found after one call. A long unusable answer goes back to the model,
 * and into the report, cut to 20,000 characters: measured in the HTTP request the test model
 * received and in the report file as written.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { LocateError, ModelResponseError } from "@sdk/core";
import { parseReportHtml } from "../../core/report/_format.ts";
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
  // The retry sends back a bounded copy of the first answer, not 50 MB: the request body as the
  // server received it.
  const grown = model.calls[1].requestBytes - model.calls[0].requestBytes;
  assert.ok(grown < 1_000_000, `the retry's request body is ${grown} bytes longer than the first`);
});

// ---- the cap on an unusable answer quoted back (docs/model-protocol.md, "Unusable answers") -----

/** What the SDK keeps of an unusable answer for the retry's history and the report, characters. */
const ANSWER_KEEP_CHARS = 20_000;

/**
 * An aiTap whose first locate answer is `answer` (unusable: neither bbox nor error), the second
 * the test model's good one; returns the agent and the model once the tap landed.
 */
async function tapAfterUnusable(answer: string) {
  const page = await env.open("actions.html");
  let n = 0;
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page, call.target),
  }, {
    model: { answerOverride: () => n++ === 0 ? answer : undefined },
  });
  await agent.aiTap("the click button");
  assert.equal(await appState(page, "clicks"), 1);
  assert.equal(model.calls.length, 2);
  return { agent, model };
}

/** A 100,015-character unusable answer: a thought and no box. */
const LONG_ANSWER = `{"thought": "${"A".repeat(100_000)}"}`;
const CUT_NOTE = `\n[... the answer was ${LONG_ANSWER.length} characters; cut here]`;

/** Asserts `text` is {@link LONG_ANSWER} as the SDK keeps it (a failure names sizes, not text). */
function assertKept(text: unknown, what: string): void {
  const want = LONG_ANSWER.slice(0, ANSWER_KEEP_CHARS) + CUT_NOTE;
  assert.ok(
    text === want,
    `${what} is not the answer's first ${ANSWER_KEEP_CHARS} characters and the note: ` +
      (typeof text === "string"
        ? `${text.length} characters, ending ${JSON.stringify(text.slice(-60))}`
        : String(text)),
  );
}

test("the retry's HTTP request quotes a 100,000-character unusable answer cut to 20,000 characters", async () => {
  const { model } = await tapAfterUnusable(LONG_ANSWER);
  const [first, retry] = model.calls;
  // The retry's request is the first one (the same screenshot) plus the unusable answer as the
  // assistant's turn and the user message saying what was wrong: measured as the server got it.
  const grown = retry.requestBytes - first.requestBytes;
  assert.ok(
    grown > ANSWER_KEEP_CHARS && grown < ANSWER_KEEP_CHARS + 1_000,
    `the retry's request body is ${grown} bytes longer than the first one's ` +
      `(${first.requestBytes} -> ${retry.requestBytes})`,
  );
  const messages = retry.request!.messages as { role: string; content: unknown }[];
  assert.deepEqual(messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
  assertKept(messages[2].content, "the assistant's turn of the retry");
});

test("the report keeps a 100,000-character unusable answer cut to 20,000 characters, the good one whole", async () => {
  const { agent, model } = await tapAfterUnusable(LONG_ANSWER);
  await agent.destroy();
  // The report file as written, read back as the viewer reads it.
  const report = parseReportHtml(await readFile(agent.reportFile!, "utf8"));
  const steps = report.executions.flatMap((e) => e.steps);
  const locate = steps.filter((s) => s.kind === "Locate");
  assert.equal(locate.length, 1, JSON.stringify(steps.map((s) => s.kind)));
  const attempts = locate[0].attempts ?? [];
  assert.equal(attempts.length, 2);
  assertKept(attempts[0].rawResponse, "the report's first attempt");
  assert.equal(attempts[1].rawResponse, model.calls[1].answer);
  assert.equal(locate[0].rawResponse, model.calls[1].answer);
  // Nowhere in the file is the whole answer, nor more of it than is kept.
  const html = await readFile(agent.reportFile!, "utf8");
  assert.ok(
    !html.includes("A".repeat(ANSWER_KEEP_CHARS + 1)),
    "the report holds more of the answer",
  );
});
