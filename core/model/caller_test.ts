import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { buildRequestBody, ModelCaller } from "./caller.ts";
import type { ChatMessage } from "./chat.ts";
import { resolveIntentConfig } from "./config.ts";
import type { IntentModelConfig, ModelIntent } from "./config.ts";
import { ModelCallError, ModelConfigError, ModelTimeoutError } from "../errors.ts";
import { MetricsCollector } from "../agent/metrics.ts";
import type { AIUsageInfo } from "../report/types.ts";

const KEY = "sk-test-SECRET-key-0123456789";
const MESSAGES: ChatMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "hi" },
];

interface Seen {
  body: Record<string, unknown>;
  authorization: string | undefined;
  /** Resolves when the request's socket closes. */
  socketClosed: Promise<void>;
  /** Whether the socket has closed yet. */
  closed: () => boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

/** A tiny OpenAI-compatible endpoint on 127.0.0.1; `handler` answers the n-th request (1-based). */
async function serve(handler: Handler) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => raw += c);
    req.on("end", () => {
      let closed = false;
      const socketClosed = new Promise<void>((r) =>
        req.socket.once("close", () => {
          closed = true;
          r();
        })
      );
      seen.push({
        body: raw ? JSON.parse(raw) : {},
        authorization: req.headers.authorization,
        socketClosed,
        closed: () => closed,
      });
      handler(req, res, seen.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const completion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 10,
    total_tokens: 110,
    prompt_tokens_details: { cached_tokens: 64 },
  },
});

function caller(baseURL: string, extra: Record<string, string | number> = {}) {
  const usages: AIUsageInfo[] = [];
  const c = new ModelCaller({
    modelConfig: {
      SDK_MODEL_NAME: "m-test",
      SDK_MODEL_BASE_URL: baseURL,
      SDK_MODEL_API_KEY: KEY,
      SDK_MODEL_MAX_RETRIES: 2,
      ...extra,
    },
    onUsage: (u) => usages.push(u),
  });
  return { c, usages };
}

async function rejects(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection");
}

function assertNoKey(e: unknown) {
  assert.ok(e instanceof Error);
  assert.ok(!e.message.includes(KEY), `key in message: ${e.message}`);
  assert.ok(!JSON.stringify(e).includes(KEY), "key in JSON of the error");
  assert.ok(!String(e.stack).includes(KEY), "key in stack");
}

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

test("ModelCaller.call returns the answer and usage with cached tokens; metrics group it", async () => {
  const srv = await serve((_req, res) => json(res, 200, completion("hello")));
  try {
    const { c, usages } = caller(srv.baseURL);
    const answer = await c.call("planning", MESSAGES);
    assert.equal(answer.content, "hello");
    assert.equal(srv.seen.length, 1);
    assert.equal(srv.seen[0].authorization, `Bearer ${KEY}`);
    assert.deepEqual(srv.seen[0].body, { model: "m-test", messages: MESSAGES, temperature: 0 });
    assert.equal(usages.length, 1);
    assert.equal(usages[0].cachedInputTokens, 64);
    assert.equal(usages[0].promptTokens, 100);
    assert.equal(usages[0].totalTokens, 110);
    assert.equal(usages[0].requestId, "chatcmpl-1");
    assert.equal(usages[0].intent, "planning");
    const m = new MetricsCollector();
    m.add(usages[0]);
    const snap = m.snapshot();
    assert.equal(snap.totalCachedInput, 64);
    assert.equal(snap.byIntent.planning.calls, 1);
    assert.equal(snap.byModel["m-test"].promptTokens, 100);
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call throws ModelTimeoutError after 1 + retries stalled attempts", async () => {
  const srv = await serve(() => {/* never answers */});
  try {
    const { c, usages } = caller(srv.baseURL, {
      SDK_MODEL_TIMEOUT: 300,
      SDK_MODEL_MAX_RETRIES: 1,
    });
    const e = await rejects(c.call("default", MESSAGES));
    assert.ok(e instanceof ModelTimeoutError, String(e));
    assert.ok(e instanceof ModelCallError);
    assert.equal(e.kind, "timeout");
    assert.equal(e.timeoutMs, 300);
    assert.equal(e.attempts, 2);
    assert.equal(srv.seen.length, 2);
    assert.match(e.message, /timed out after 300 ms/);
    assert.match(e.message, /SDK_MODEL_TIMEOUT/);
    assertNoKey(e);
    assert.equal(usages.length, 0);
    // Every stalled request was cancelled.
    await within(Promise.all(srv.seen.map((s) => s.socketClosed)), 2000, "sockets closing");
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call retries a 429 (retry-after: 0) and succeeds", async () => {
  const srv = await serve((_req, res, n) =>
    n === 1
      ? json(res, 429, { error: { message: "slow down" } }, { "retry-after": "0" })
      : json(res, 200, completion("ok"))
  );
  try {
    const { c, usages } = caller(srv.baseURL);
    const answer = await c.call("default", MESSAGES);
    assert.equal(answer.content, "ok");
    assert.equal(srv.seen.length, 2);
    assert.equal(usages.length, 1, "one usage record per call, not per attempt");
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call throws ModelCallError with status 500 after 1 + maxRetries attempts", async () => {
  const srv = await serve((_req, res) =>
    json(res, 500, { error: { message: "boom" } }, { "retry-after-ms": "0" })
  );
  try {
    const { c } = caller(srv.baseURL, { SDK_MODEL_MAX_RETRIES: 3 });
    const e = await rejects(c.call("insight", MESSAGES));
    assert.ok(e instanceof ModelCallError && !(e instanceof ModelTimeoutError), String(e));
    assert.equal(e.status, 500);
    assert.equal(e.kind, "http");
    assert.equal(e.attempts, 4);
    assert.equal(e.intent, "insight");
    assert.equal(e.modelName, "m-test");
    assert.equal(srv.seen.length, 4);
    assert.match(e.message, /HTTP 500 after 4 attempts: 500 boom/);
    assert.ok(e.message.includes(new URL(srv.baseURL).host));
    assertNoKey(e);
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call does not retry a 400 and keeps the server's message, never the key", async () => {
  const srv = await serve((req, res) =>
    json(res, 400, {
      error: { message: `bad request with key ${req.headers.authorization?.slice(7)}` },
    })
  );
  try {
    const { c } = caller(srv.baseURL);
    const e = await rejects(c.call("default", MESSAGES));
    assert.ok(e instanceof ModelCallError, String(e));
    assert.equal(e.status, 400);
    assert.equal(e.kind, "http");
    assert.equal(e.attempts, 1);
    assert.equal(srv.seen.length, 1);
    assert.match(
      e.message,
      /HTTP 400 \(not retried\) after 1 attempt: 400 bad request with key \*\*\*/,
    );
    assertNoKey(e);
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call does not retry a 401 or 404 either", async () => {
  for (const status of [401, 404, 422]) {
    const srv = await serve((_req, res) => json(res, status, { error: { message: "no" } }));
    try {
      const e = await rejects(caller(srv.baseURL).c.call("default", MESSAGES));
      assert.ok(e instanceof ModelCallError);
      assert.equal(e.status, status);
      assert.equal(srv.seen.length, 1, `status ${status} was retried`);
    } finally {
      await srv.close();
    }
  }
});

test("ModelCaller.call reports a refused connection as kind connection, naming the host", async () => {
  const port = await freePort();
  const { c } = caller(`http://127.0.0.1:${port}/v1?key=${KEY}`, { SDK_MODEL_MAX_RETRIES: 1 });
  const e = await rejects(c.call("default", MESSAGES));
  assert.ok(e instanceof ModelCallError && !(e instanceof ModelTimeoutError), String(e));
  assert.equal(e.kind, "connection");
  assert.equal(e.status, undefined);
  assert.equal(e.host, `127.0.0.1:${port}`);
  assert.equal(e.attempts, 2);
  assert.ok(e.message.includes(`127.0.0.1:${port}`), e.message);
  assert.match(e.message, /connection error after 2 attempts/);
  assert.match(e.message, /refused/i, "the reason from the end of the cause chain");
  assert.ok(!e.message.includes("/v1/chat"), `the URL's path is not shown: ${e.message}`);
  assertNoKey(e);
});

test("ModelCaller.call rejects with the signal's reason and closes the request on abort", async () => {
  let arrived!: () => void;
  const requestArrived = new Promise<void>((r) => arrived = r);
  const srv = await serve(() => arrived()); // holds the response
  try {
    const { c, usages } = caller(srv.baseURL);
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const p = c.call("default", MESSAGES, { signal: controller.signal });
    await requestArrived;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(srv.seen[0].closed(), false, "the request is open before the abort");
    controller.abort(reason);
    assert.equal(await rejects(p), reason);
    await within(srv.seen[0].socketClosed, 2000, "the server seeing the socket close");
    assert.equal(srv.seen.length, 1, "an abort is not retried");
    assert.equal(usages.length, 0);
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call with an already aborted signal sends nothing", async () => {
  const srv = await serve((_req, res) => json(res, 200, completion("x")));
  try {
    const reason = new Error("too late");
    const e = await rejects(
      caller(srv.baseURL).c.call("default", MESSAGES, { signal: AbortSignal.abort(reason) }),
    );
    assert.equal(e, reason);
    assert.equal(srv.seen.length, 0);
  } finally {
    await srv.close();
  }
});

function sse(res: ServerResponse, chunks: unknown[], gapMs: number, end = true) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    if (i < chunks.length) {
      res.write(`data: ${JSON.stringify(chunks[i++])}\n\n`);
      setTimeout(next, gapMs);
    } else if (end) {
      res.end("data: [DONE]\n\n");
    }
  };
  next();
}

const streamChunks = (words: string[]) => [
  ...words.map((w) => ({ id: "chatcmpl-s", choices: [{ index: 0, delta: { content: w } }] })),
  { id: "chatcmpl-s", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
  {
    id: "chatcmpl-s",
    choices: [],
    usage: {
      prompt_tokens: 50,
      completion_tokens: 5,
      total_tokens: 55,
      prompt_tokens_details: { cached_tokens: 32 },
    },
  },
];

test("ModelCaller.call reads a slow SSE stream to the end, with usage and cached tokens", async () => {
  // 40 chunks 60 ms apart: the stream takes about 2.6 s, within the 10 s that bound the whole
  // answer (deadline_test.ts has the stream that outlasts it).
  const words = ["{", '"a"', ":", "1", ...Array(35).fill(" "), "}"];
  const srv = await serve((_req, res) => sse(res, streamChunks(words), 60));
  try {
    const { c, usages } = caller(srv.baseURL, {
      SDK_MODEL_STREAM: "true",
      SDK_MODEL_TIMEOUT: 10_000,
    });
    const started = performance.now();
    const answer = await c.call("default", MESSAGES);
    assert.ok(performance.now() - started > 2000, "the stream was read slowly, to its end");
    assert.equal(answer.content, `{"a":1${" ".repeat(35)}}`);
    assert.equal(srv.seen[0].body.stream, true);
    assert.deepEqual(srv.seen[0].body.stream_options, { include_usage: true });
    assert.equal(usages.length, 1);
    assert.equal(usages[0].cachedInputTokens, 32);
    assert.equal(usages[0].promptTokens, 50);
    assert.equal(usages[0].completionTokens, 5);
    assert.equal(usages[0].requestId, "chatcmpl-s");
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call times out a stream that stalls and closes the request", async () => {
  const srv = await serve((_req, res) => sse(res, streamChunks(["a", "b"]).slice(0, 2), 10, false));
  try {
    const { c } = caller(srv.baseURL, { SDK_MODEL_STREAM: "true", SDK_MODEL_TIMEOUT: 300 });
    const e = await rejects(c.call("default", MESSAGES));
    assert.ok(e instanceof ModelTimeoutError, String(e));
    assert.match(e.message, /whole answer of an attempt/);
    assert.equal(srv.seen.length, 1);
    await within(srv.seen[0].socketClosed, 2000, "the server seeing the socket close");
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call rejects a stream cut before its end as a connection error", async () => {
  const srv = await serve((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`data: ${JSON.stringify(streamChunks(["a"])[0])}\n\n`);
  });
  try {
    const { c } = caller(srv.baseURL, { SDK_MODEL_STREAM: "true" });
    const e = await rejects(c.call("default", MESSAGES));
    assert.ok(e instanceof ModelCallError, String(e));
    assert.equal(e.kind, "connection");
    assert.match(e.message, /ended before it was complete/);
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call aborts a stream mid-way with the signal's reason", async () => {
  const srv = await serve((_req, res) => sse(res, streamChunks(["a", "b", "c", "d", "e"]), 100));
  try {
    const { c } = caller(srv.baseURL, { SDK_MODEL_STREAM: "true" });
    const controller = new AbortController();
    const reason = new Error("stop now");
    setTimeout(() => controller.abort(reason), 150);
    assert.equal(await rejects(c.call("default", MESSAGES, { signal: controller.signal })), reason);
    await within(srv.seen[0].socketClosed, 2000, "the server seeing the socket close");
  } finally {
    await srv.close();
  }
});

test("ModelCaller.call passes timeout, retries and the signal through a createModelClient wrapper", async () => {
  const srv = await serve((_req, res) =>
    json(res, 503, { error: { message: "busy" } }, { "retry-after-ms": "0" })
  );
  try {
    let wrapped = 0;
    const c = new ModelCaller({
      modelConfig: {
        SDK_MODEL_NAME: "m-test",
        SDK_MODEL_BASE_URL: srv.baseURL,
        SDK_MODEL_API_KEY: KEY,
        SDK_MODEL_MAX_RETRIES: 1,
      },
      createModelClient: (client) =>
        Promise.resolve({
          chat: {
            completions: {
              create: (body, opts) => (wrapped++, client.chat.completions.create(body, opts)),
            },
          },
        }),
      onUsage: () => {},
    });
    const e = await rejects(c.call("default", MESSAGES));
    assert.ok(e instanceof ModelCallError, String(e));
    assert.equal(e.status, 503);
    assert.equal(e.attempts, 2);
    assert.equal(wrapped, 1);
    assert.equal(srv.seen.length, 2);
  } finally {
    await srv.close();
  }
});

/** A caller whose family has a reasoning control (or none), whatever the registered families do. */
class FamilyCaller extends ModelCaller {
  constructor(
    baseURL: string,
    extra: Record<string, string>,
    private reasoning: ((on: boolean) => Record<string, unknown>) | undefined,
  ) {
    super({
      modelConfig: {
        SDK_MODEL_NAME: "m-test",
        SDK_MODEL_BASE_URL: baseURL,
        SDK_MODEL_API_KEY: KEY,
        ...extra,
      },
      onUsage: () => {},
    });
  }
  override config(intent: ModelIntent): IntentModelConfig {
    const c = super.config(intent);
    const family = { ...c.family, reasoningParams: this.reasoning };
    if (!this.reasoning) delete family.reasoningParams;
    return { ...c, family };
  }
}

test("ModelCaller.call merges the family's reasoning fields, then the extra body (which wins)", async () => {
  const srv = await serve((_req, res) => json(res, 200, completion("ok")));
  try {
    const c = new FamilyCaller(srv.baseURL, {
      SDK_MODEL_REASONING_ENABLED: "false",
      SDK_MODEL_EXTRA_BODY_JSON: '{"top_p":0.5,"temperature":0.2,"thinking":{"budget":5}}',
    }, (on) => ({ thinking: { type: on ? "enabled" : "disabled" } }));
    await c.call("default", MESSAGES);
    assert.deepEqual(srv.seen[0].body, {
      model: "m-test",
      messages: MESSAGES,
      temperature: 0.2,
      top_p: 0.5,
      thinking: { type: "disabled", budget: 5 },
    });
  } finally {
    await srv.close();
  }
});

test("SDK_MODEL_REASONING_ENABLED is ignored for a family without a reasoning control", async () => {
  const srv = await serve((_req, res) => json(res, 200, completion("ok")));
  try {
    const c = new FamilyCaller(srv.baseURL, { SDK_MODEL_REASONING_ENABLED: "true" }, undefined);
    await c.call("default", MESSAGES);
    assert.deepEqual(srv.seen[0].body, { model: "m-test", messages: MESSAGES, temperature: 0 });
  } finally {
    await srv.close();
  }
});

test("buildRequestBody sends no reasoning field when SDK_MODEL_REASONING_ENABLED is unset", () => {
  const config = resolveIntentConfig("default", {
    SDK_MODEL_NAME: "m",
    SDK_MODEL_BASE_URL: "http://127.0.0.1:1/v1",
    SDK_MODEL_API_KEY: KEY,
  });
  let asked = false;
  const family = { ...config.family, reasoningParams: () => (asked = true, { x: 1 }) };
  const body = buildRequestBody({ ...config, family }, MESSAGES);
  assert.equal(asked, false);
  assert.deepEqual(body, { model: "m", messages: MESSAGES, temperature: 0 });
});

const cfg = (extra: Record<string, string | number>, intent: ModelIntent = "default") =>
  resolveIntentConfig(intent, {
    SDK_MODEL_NAME: "m",
    SDK_MODEL_BASE_URL: "http://127.0.0.1:1/v1",
    SDK_MODEL_API_KEY: KEY,
    ...extra,
  });

test("resolveIntentConfig defaults: timeout 120000 ms, 2 retries, no reasoning, no extra, no stream", () => {
  const c = cfg({});
  assert.equal(c.timeoutMs, 120000);
  assert.equal(c.maxRetries, 2);
  assert.equal(c.reasoningEnabled, undefined);
  assert.equal(c.extraBody, undefined);
  assert.equal(c.stream, false);
});

test("resolveIntentConfig reads call settings per intent, falling back to the default ones", () => {
  const base = {
    SDK_MODEL_TIMEOUT: "5000",
    SDK_MODEL_MAX_RETRIES: 0,
    SDK_MODEL_REASONING_ENABLED: "TRUE",
    SDK_MODEL_EXTRA_BODY_JSON: '{"a":1}',
    SDK_PLANNING_MODEL_NAME: "p",
    SDK_PLANNING_MODEL_TIMEOUT: 9000,
    SDK_PLANNING_MODEL_EXTRA_BODY_JSON: "{}",
    SDK_PLANNING_MODEL_STREAM: "true",
  };
  const d = cfg(base);
  assert.deepEqual([d.timeoutMs, d.maxRetries, d.reasoningEnabled, d.extraBody, d.stream], [
    5000,
    0,
    true,
    { a: 1 },
    false,
  ]);
  const p = cfg(base, "planning");
  assert.deepEqual([p.timeoutMs, p.maxRetries, p.reasoningEnabled, p.extraBody, p.stream], [
    9000,
    0,
    true,
    {},
    true,
  ]);
});

test("resolveIntentConfig rejects bad numbers and flags, naming the key and the value", () => {
  for (
    const [key, value, pattern] of [
      ["SDK_MODEL_TIMEOUT", "-5", /SDK_MODEL_TIMEOUT must be a positive integer.*"-5"/],
      ["SDK_MODEL_TIMEOUT", "0", /SDK_MODEL_TIMEOUT must be a positive integer.*"0"/],
      ["SDK_MODEL_TIMEOUT", "1.5", /SDK_MODEL_TIMEOUT .*"1\.5"/],
      [
        "SDK_MODEL_MAX_RETRIES",
        "two",
        /SDK_MODEL_MAX_RETRIES must be a non-negative integer.*"two"/,
      ],
      [
        "SDK_MODEL_REASONING_ENABLED",
        "yes",
        /SDK_MODEL_REASONING_ENABLED must be "true" or "false".*"yes"/,
      ],
      ["SDK_MODEL_STREAM", "1", /SDK_MODEL_STREAM must be "true" or "false".*"1"/],
    ] as const
  ) {
    assert.throws(() => cfg({ [key]: value }), (e: unknown) => {
      assert.ok(e instanceof ModelConfigError);
      assert.match(e.message, pattern);
      return true;
    });
  }
});

test("resolveIntentConfig rejects an extra body that is not a JSON object, never echoing the key", () => {
  for (
    const [value, pattern] of [
      ["{not json", /SDK_MODEL_EXTRA_BODY_JSON is not valid JSON: got "\{not json"/],
      ["[1,2]", /SDK_MODEL_EXTRA_BODY_JSON must be a JSON object: got "\[1,2\]"/],
      ["null", /must be a JSON object/],
      [
        `{"api_key": "${KEY}", oops}`,
        /not valid JSON: got "\{\\"api_key\\": \\"\*\*\*\\", oops\}"/,
      ],
      [`{"long": "${"x".repeat(100)}"`, /got "\{\\"long\\": \\"x+\.\.\."/],
    ] as const
  ) {
    assert.throws(() => cfg({ SDK_MODEL_EXTRA_BODY_JSON: value }), (e: unknown) => {
      assert.ok(e instanceof ModelConfigError);
      assert.match(e.message, pattern);
      assertNoKey(e);
      return true;
    });
  }
});
