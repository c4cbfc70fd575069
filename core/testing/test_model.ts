/**
 * The test model: a local OpenAI-compatible HTTP server that reads the SDK's model calls like a
 * vision-language model would (docs/model-protocol.md) and answers them from a script, in the
 * answer format of a chosen model family.
 *
 * @module
 */

import { encodeBox, padTo28, type TargetBox, TEST_MODEL_FAMILIES } from "./_bbox.ts";
import type { EncodedBbox, TestModelFamily } from "./_bbox.ts";
import type { ImageSize } from "./_image.ts";
import {
  DIALECT_FAMILIES,
  type DialectFamily,
  dialectOf,
  dialectPoint,
  encodeDialectBox,
  readDialectPlanRequest,
  renderDialectPlan,
} from "./_dialects.ts";
import { parseRequest, ProtocolError, redactBody } from "./_request.ts";
import type {
  AssertCall,
  CallKind,
  ExtractCall,
  LocateCall,
  PlanCall,
  TestModelCall,
} from "./_request.ts";

export type { TargetBox, TestModelFamily } from "./_bbox.ts";
export type { ImageSize, ReceivedScreenshot } from "./_image.ts";
export type {
  AssertCall,
  CallBase,
  CallKind,
  ExtractCall,
  LocateCall,
  PlanCall,
  ReceivedPromptImage,
  TestModelCall,
} from "./_request.ts";

/**
 * A `locate` parameter as a script writes it in {@link PlanReply}: the element's box in CSS
 * pixels. The server rewrites it to `{ prompt, bbox }` in the family's convention.
 */
export interface ScriptedLocate {
  /** Description of the element, kept in the answer. */
  prompt: string;
  /** The element's box in CSS pixels of the page. */
  box: TargetBox;
}

/** What a script answers to a planning call; becomes the planning answer JSON. */
export interface PlanReply {
  /** The model's reasoning. Default: `"Scripted step: {log}"`. */
  thought?: string;
  /** Short description of the action, kept in the SDK's history. */
  log: string;
  /**
   * The action to perform; left out or `null` for none. Parameters that are
   * {@link ScriptedLocate} objects (`{ prompt, box }`) are rewritten to `{ prompt, bbox }`;
   * everything else is passed through as written.
   */
  action?: { type: string; param?: Record<string, unknown> } | null;
  /** Whether the instruction is done. Default `false`. */
  finished?: boolean;
  /** Text returned to the caller when finished. */
  output?: string;
  /** Set when the instruction cannot be done; makes `aiAct` throw. */
  error?: string;
}

/** What a script answers to an assertion call. */
export interface AssertReply {
  /** Whether the statement holds. */
  pass: boolean;
  /** The reason shown to the user. Default: a sentence naming the assertion. */
  thought?: string;
}

/**
 * The handlers that answer each call kind. A missing handler, one that throws, or one that returns
 * `undefined` makes the server answer HTTP 500 with an OpenAI-style error naming the problem.
 */
export interface TestModelScript {
  /** Answers a planning call (`aiAct`). */
  plan?(call: PlanCall): PlanReply | Promise<PlanReply>;
  /**
   * Answers a locate call with the element's box in CSS pixels, or `null` when the element is not
   * on screen (the answer then carries `"bbox": null` and an `error`).
   */
  locate?(call: LocateCall): TargetBox | null | Promise<TargetBox | null>;
  /** Answers an extract call with the value for `data` (any JSON value; `null` allowed). */
  extract?(call: ExtractCall): unknown;
  /** Answers an assertion call. */
  assert?(call: AssertCall): AssertReply | Promise<AssertReply>;
}

/** CSS size of the page (the device's logical size). */
export interface ViewportSize {
  /** Width in CSS pixels. */
  width: number;
  /** Height in CSS pixels. */
  height: number;
}

/** How answers are wrapped, to exercise the SDK's tolerant parsing. */
export type AnswerWrap = "plain" | "fence" | "prose";

/** Options of {@link startTestModel}. */
export interface TestModelOptions {
  /** The handlers that answer the calls. */
  script: TestModelScript;
  /** Answer format (`SDK_MODEL_FAMILY`). Default `"default"` (the variable unset). */
  family?: TestModelFamily | DialectFamily;
  /** Host to listen on. Default `"127.0.0.1"`. */
  host?: string;
  /** Port to listen on. Default `0`: any free port. */
  port?: number;
  /**
   * CSS size of the page, used to turn CSS boxes into image pixels
   * (`scale = image.width / viewport.width`). A value or a function asked at each conversion.
   * Without it (and without `imagePixelsPerCssPixel`) one image pixel is one CSS pixel.
   */
  viewport?: ViewportSize | (() => ViewportSize | Promise<ViewportSize>);
  /**
   * Image pixels per CSS pixel (device pixel ratio / screenshot shrink factor). Overrides the
   * scale read from `viewport`. Needed for `qwen2.5-vl` when the scale is not 1, because that
   * family's images are padded to multiples of 28 px.
   */
  imagePixelsPerCssPixel?: number;
  /** `"plain"` JSON (default), a `json` code `"fence"`, or JSON with `"prose"` around it. */
  wrap?: AnswerWrap;
  /**
   * Called first for every call; a string returned is sent as the answer text verbatim (for
   * malformed-answer tests), `undefined` lets the script answer.
   */
  answerOverride?: (call: TestModelCall) => string | undefined | Promise<string | undefined>;
  /** Model name handed out by {@link TestModel.modelConfig}. Default `"sdk-test-model"`. */
  modelName?: string;
  /**
   * API key handed out by {@link TestModel.modelConfig}; requests whose `Authorization` header is
   * not `Bearer {apiKey}` get HTTP 401. Default `"sdk-test-model-key"`.
   */
  apiKey?: string;
  /**
   * Lets a web page call the server with `fetch` (the SDK running inside a page, docs/in-browser.md):
   * `true` allows any origin (`Access-Control-Allow-Origin: *`), a string allows that one origin
   * (e.g. `"http://127.0.0.1:8080"`). Every answer then carries the header, and a CORS preflight
   * (`OPTIONS` with `Access-Control-Request-Method`) gets 204 allowing `GET`, `POST` and the
   * headers it asks for (the `openai` client sends `Authorization` and its `x-stainless-*`
   * headers). Default `false`: no CORS headers, and `OPTIONS` gets 404 like any unknown route.
   */
  cors?: boolean | string;
}

/** Token counts the server reported for a call (also sent as `usage`). */
export interface TestModelUsage {
  /** Prompt tokens: text length / 4 plus 1000 per image. */
  promptTokens: number;
  /** Completion tokens: answer length / 4. */
  completionTokens: number;
  /** Prompt tokens counted as cached: the system prompt's share when it was seen before. */
  cachedTokens: number;
}

/** One request the server received, as recorded in {@link TestModel.calls}. */
export interface RecordedCall {
  /** Position in `calls`, from 0. */
  index: number;
  /** Request path, e.g. `"/v1/chat/completions"`. */
  path: string;
  /** Call kind, or `null` when the request could not be read as one. */
  kind: CallKind | null;
  /** The typed call handed to the script, when the request could be read. */
  call?: TestModelCall;
  /** The request body with image data left out; `null` when it was not JSON. */
  request: Record<string, unknown> | null;
  /**
   * The `Authorization` header: `"expected"` (the server's key), `"other"` (some other value) or
   * `"none"`. Its value is never recorded.
   */
  authorization: "expected" | "other" | "none";
  /** HTTP status of the response. */
  status: number;
  /** The answer text sent as `choices[0].message.content` (status 200 only). */
  answer?: string;
  /** The error message sent (status other than 200). */
  error?: string;
  /** Token counts sent (status 200 only). */
  usage?: TestModelUsage;
}

/** A running test model. */
export interface TestModel {
  /** Base URL for an OpenAI client, e.g. `"http://127.0.0.1:40123/v1"`. */
  readonly baseURL: string;
  /** The API key the server expects. */
  readonly apiKey: string;
  /** The model name handed out. */
  readonly modelName: string;
  /** The answer format. */
  readonly family: TestModelFamily | DialectFamily;
  /** Every request received, in arrival order (authorization values are never kept). */
  readonly calls: RecordedCall[];
  /**
   * `SDK_MODEL_*` keys pointing at this server, for an agent's `modelConfig`:
   * `SDK_MODEL_BASE_URL`, `SDK_MODEL_API_KEY`, `SDK_MODEL_NAME`, and `SDK_MODEL_FAMILY` unless the
   * family is `"default"`.
   */
  modelConfig(): Record<string, string>;
  /** Stops the server and drops open connections. Safe to call twice. */
  close(): Promise<void>;
  /** Same as {@link TestModel.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

type Http = typeof import("node:http");
type IncomingMessage = import("node:http").IncomingMessage;
type ServerResponse = import("node:http").ServerResponse;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

function validateOptions(options: TestModelOptions): void {
  if (!options || typeof options !== "object" || !options.script) {
    throw new TypeError("Cannot start the test model as 'script' is missing");
  }
  const family = options.family ?? "default";
  if (!TEST_MODEL_FAMILIES.includes(family as TestModelFamily) && !dialectOf(family)) {
    throw new RangeError(
      `Cannot start the test model as 'family' must be one of ${
        [...TEST_MODEL_FAMILIES, ...DIALECT_FAMILIES].join(", ")
      }: current value is "${family}"`,
    );
  }
  const scale = options.imagePixelsPerCssPixel;
  if (scale !== undefined && !(Number.isFinite(scale) && scale > 0)) {
    throw new RangeError(
      `Cannot start the test model as 'imagePixelsPerCssPixel' must be > 0: current value is ${scale}`,
    );
  }
  const wrap = options.wrap ?? "plain";
  if (!["plain", "fence", "prose"].includes(wrap)) {
    throw new RangeError(
      `Cannot start the test model as 'wrap' must be "plain", "fence" or "prose": current value is "${wrap}"`,
    );
  }
  const cors = options.cors;
  if (
    cors !== undefined && typeof cors !== "boolean" &&
    !(typeof cors === "string" && /^https?:\/\/[^/\s]+$/.test(cors))
  ) {
    throw new TypeError(
      `Cannot start the test model as 'cors' must be a boolean or an origin such as "http://127.0.0.1:8080": current value is ${
        JSON.stringify(cors)
      }`,
    );
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(
      `Cannot start the test model as 'port' must be an integer 0-65535: current value is ${port}`,
    );
  }
}

function wrapAnswer(value: unknown, wrap: AnswerWrap): string {
  switch (wrap) {
    case "fence":
      return "```json\n" + JSON.stringify(value, null, 2) + "\n```";
    case "prose":
      return `I looked at the screenshot carefully. Here is my answer:\n${
        JSON.stringify(value)
      }\nLet me know if anything else is needed.`;
    default:
      return JSON.stringify(value);
  }
}

function isScriptedLocate(value: unknown): value is ScriptedLocate {
  if (!value || typeof value !== "object") return false;
  const box = (value as { box?: unknown }).box;
  return !!box && typeof box === "object" &&
    ["left", "top", "width", "height"].every((k) =>
      typeof (box as Record<string, unknown>)[k] === "number"
    );
}

function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Starts the test model: an OpenAI-compatible chat-completions server on `127.0.0.1` that answers
 * the SDK's planning, locate, extract and assertion calls from `options.script`.
 *
 * The server answers `POST /v1/chat/completions` (and `/chat/completions`) in the response shape of
 * OpenAI chat completions, and `GET /v1/models`. For each call it:
 * 1. tells the call kind from the system prompt's first line and reads the user text's blocks
 *    (`<instruction>`, `<history>`, `<target>`, `<demand>`, `<return-type>`, `<assertion>`,
 *    `<context>`, and `<page-dom>` as `call.dom`) and the image size from the PNG or JPEG
 *    header; the prompt's named images
 *    (spec 2.5: a text part `Image "<name>":`, then the image) become `call.promptImages`, each
 *    with its `name`, its `size` read from the PNG/JPEG/GIF/WebP header (`null` for an http(s)
 *    link, whose `url` is given instead) and the data URI's `mime`, so a script can answer from
 *    them and a test can check what was sent;
 * 2. hands the typed call to the script's handler;
 * 3. turns CSS boxes in the reply into the family's `bbox` (image pixels are
 *    `css * (imagePixelsPerCssPixel ?? image.width / viewport.width)`; `default`/`qwen3-vl`:
 *    `[x1, y1, x2, y2]` 0-1000, `qwen2.5-vl`: absolute pixels, `gemini`: `[ymin, xmin, ymax, xmax]`
 *    0-1000; the other families as MODEL_FAMILIES.md says, doubao as a loose string, kimi as a
 *    point) and sends the answer JSON, wrapped as `options.wrap` says.
 *
 * Errors: a request that breaks the protocol (unknown system prompt, missing block, a stated image
 * size that differs from the image, a named image that is missing, named twice or unreadable)
 * gets HTTP 400; a wrong API key 401; a missing handler, a
 * handler that throws or returns `undefined` 500. Error responses carry `x-should-retry: false`
 * so the `openai` client does not retry them.
 *
 * @param options the script and how to answer.
 * @returns the running server; close it with `close()` (or `await using`).
 * With `cors` set, every answer carries `Access-Control-Allow-Origin` and a CORS preflight is
 * answered, so a page can call the server (see {@link TestModelOptions.cors}).
 *
 * @throws {TypeError} when `script` is missing or `cors` is neither a boolean nor an origin.
 * @throws {RangeError} when an option is out of range (family, port, scale, wrap).
 *
 * @example Answer a locate call in the qwen3-vl format
 * ```ts
 * import OpenAI from "openai";
 * import { createTestPng, startTestModel } from "@sdk/core/testing";
 *
 * const model = await startTestModel({
 *   family: "qwen3-vl",
 *   viewport: { width: 1280, height: 800 },
 *   script: { locate: () => ({ left: 100, top: 200, width: 120, height: 40 }) },
 * });
 * const client = new OpenAI({ baseURL: model.baseURL, apiKey: model.apiKey });
 * const answer = await client.chat.completions.create({
 *   model: model.modelName,
 *   messages: [
 *     { role: "system", content: "You are a UI element locator.\n..." },
 *     {
 *       role: "user",
 *       content: [
 *         { type: "image_url", image_url: { url: await createTestPng(1280, 800) } },
 *         { type: "text", text: "<target>\nthe Sign in button\n</target>\nThe screenshot is 1280 x 800 pixels." },
 *       ],
 *     },
 *   ],
 * });
 * console.log(answer.choices[0].message.content); // {"thought":"...","bbox":[78,250,172,300]}
 * await model.close();
 * ```
 */
export async function startTestModel(options: TestModelOptions): Promise<TestModel> {
  validateOptions(options);
  const http: Http = await import("node:http");
  const family = options.family ?? "default";
  const dialect = dialectOf(family);
  const wrap = options.wrap ?? "plain";
  const host = options.host ?? "127.0.0.1";
  const modelName = options.modelName ?? "sdk-test-model";
  const apiKey = options.apiKey ?? "sdk-test-model-key";
  const script = options.script;
  const calls: RecordedCall[] = [];
  const seenSystemPrompts = new Set<string>();
  let nextId = 1;

  async function scaleFor(image: ImageSize): Promise<number> {
    if (options.imagePixelsPerCssPixel !== undefined) return options.imagePixelsPerCssPixel;
    if (!options.viewport) return 1;
    const viewport = typeof options.viewport === "function"
      ? await options.viewport()
      : options.viewport;
    if (!(viewport.width > 0 && viewport.height > 0)) {
      throw new HttpError(
        500,
        "server_error",
        `test model viewport must have a positive size: got ${viewport.width} x ${viewport.height}`,
      );
    }
    if (family !== "qwen2.5-vl") return image.width / viewport.width;
    // qwen2.5-vl images are padded to multiples of 28 px, so the width alone does not give the
    // scale; only scale 1 can be recognised.
    if (padTo28(viewport.width) === image.width && padTo28(viewport.height) === image.height) {
      return 1;
    }
    throw new HttpError(
      500,
      "server_error",
      `test model cannot tell the scale of a qwen2.5-vl image (${image.width} x ${image.height}, padded to multiples of 28 px) from the viewport (${viewport.width} x ${viewport.height}); set imagePixelsPerCssPixel`,
    );
  }

  async function bboxFor(box: TargetBox, image: ImageSize | null): Promise<EncodedBbox> {
    if (!image) {
      throw new HttpError(
        500,
        "server_error",
        "test model cannot give a bbox: the request carried no image",
      );
    }
    const scale = await scaleFor(image);
    return dialect
      ? encodeDialectBox(dialect, box, image, scale)
      : encodeBox(family as TestModelFamily, box, image, scale);
  }

  async function runHandler<T>(kind: CallKind, run: () => T | Promise<T>): Promise<T> {
    if (!script[kind]) {
      throw new HttpError(500, "server_error", `test model has no \`${kind}\` handler`);
    }
    let result: T;
    try {
      result = await run();
    } catch (error) {
      throw new HttpError(
        500,
        "server_error",
        `test model \`${kind}\` handler threw: ${(error as Error)?.message ?? String(error)}`,
      );
    }
    if (result === undefined) {
      throw new HttpError(500, "server_error", `test model \`${kind}\` handler returned nothing`);
    }
    return result;
  }

  async function answerFor(call: TestModelCall): Promise<string> {
    const override = await options.answerOverride?.(call);
    if (typeof override === "string") return override;
    switch (call.kind) {
      case "plan": {
        const reply = await runHandler("plan", () => script.plan!(call));
        if (typeof reply !== "object" || reply === null || typeof reply.log !== "string") {
          throw new HttpError(
            500,
            "server_error",
            "test model `plan` handler must return an object with a string `log`",
          );
        }
        if (dialect) {
          const image = call.image!;
          return await renderDialectPlan(
            dialect,
            reply,
            async (box) => dialectPoint(dialect, box, image, await scaleFor(image)),
          );
        }
        let action: { type: string; param: Record<string, unknown> } | null = null;
        if (reply.action) {
          const param: Record<string, unknown> = {};
          for (const [name, value] of Object.entries(reply.action.param ?? {})) {
            param[name] = isScriptedLocate(value)
              ? { prompt: value.prompt, bbox: await bboxFor(value.box, call.image) }
              : value;
          }
          action = { type: reply.action.type, param };
        }
        const answer: Record<string, unknown> = {
          thought: reply.thought ?? `Scripted step: ${reply.log}`,
          log: reply.log,
          action,
          finished: reply.finished ?? false,
        };
        if (reply.output !== undefined) answer.output = reply.output;
        if (reply.error !== undefined) answer.error = reply.error;
        return wrapAnswer(answer, wrap);
      }
      case "locate": {
        const box = await runHandler("locate", () => script.locate!(call));
        if (box === null) {
          return wrapAnswer({
            thought: `I cannot find "${call.target}" on the screenshot.`,
            bbox: null,
            error: `"${call.target}" is not visible on the screenshot`,
          }, wrap);
        }
        return wrapAnswer({
          thought: `"${call.target}" is visible on the screenshot.`,
          bbox: await bboxFor(box, call.image),
        }, wrap);
      }
      case "extract": {
        const data = await runHandler("extract", () => script.extract!(call));
        return wrapAnswer({ thought: "Read from the screenshot as demanded.", data }, wrap);
      }
      case "assert": {
        const reply = await runHandler("assert", () => script.assert!(call));
        if (typeof reply !== "object" || reply === null || typeof reply.pass !== "boolean") {
          throw new HttpError(
            500,
            "server_error",
            "test model `assert` handler must return an object with a boolean `pass`",
          );
        }
        return wrapAnswer({
          thought: reply.thought ??
            `The statement "${call.assertion}" is ${reply.pass ? "true" : "false"}.`,
          pass: reply.pass,
        }, wrap);
      }
    }
  }

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    extraHeaders: Record<string, string> = {},
  ): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": String(new TextEncoder().encode(text).length),
      ...extraHeaders,
    });
    res.end(text);
  }

  function sendError(res: ServerResponse, error: HttpError): void {
    send(res, error.status, {
      error: { message: error.message, type: error.type, param: null, code: null },
    }, { "x-should-retry": "false" });
  }

  function readBody(req: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      req.on("data", (c: Uint8Array) => chunks.push(c));
      req.on("end", () => {
        const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let offset = 0;
        for (const c of chunks) {
          all.set(c, offset);
          offset += c.length;
        }
        resolve(new TextDecoder().decode(all));
      });
      req.on("error", reject);
    });
  }

  async function handleCompletion(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
  ): Promise<void> {
    const header = req.headers.authorization;
    const authorization: RecordedCall["authorization"] = header === undefined
      ? "none"
      : header === `Bearer ${apiKey}`
      ? "expected"
      : "other";
    const record: RecordedCall = {
      index: calls.length,
      path,
      kind: null,
      request: null,
      authorization,
      status: 0,
    };
    calls.push(record);
    try {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new HttpError(400, "invalid_request_error", "request body is not JSON");
      }
      if (!body || typeof body !== "object" || Array.isArray(body)) {
        throw new HttpError(400, "invalid_request_error", "request body is not a JSON object");
      }
      const bodyObject = body as Record<string, unknown>;
      record.request = redactBody(bodyObject);
      if (authorization !== "expected") {
        throw new HttpError(
          401,
          "invalid_request_error",
          authorization === "none"
            ? "test model: no Authorization header"
            : "test model: Authorization header does not carry the expected API key",
        );
      }
      let parsed;
      try {
        parsed = (dialect && readDialectPlanRequest(bodyObject)) || parseRequest(bodyObject);
      } catch (error) {
        if (error instanceof ProtocolError) {
          throw new HttpError(400, "invalid_request_error", `test model: ${error.message}`);
        }
        throw error;
      }
      const call = parsed.call;
      record.kind = call.kind;
      record.call = call;

      const answer = await answerFor(call);
      const promptTokens = Math.ceil(parsed.textLength / 4) + 1000 * parsed.imageCount;
      const cachedTokens = seenSystemPrompts.has(call.systemPrompt) ? tokens(call.systemPrompt) : 0;
      seenSystemPrompts.add(call.systemPrompt);
      const completionTokens = tokens(answer);
      record.answer = answer;
      record.usage = { promptTokens, completionTokens, cachedTokens };
      record.status = 200;
      send(res, 200, {
        id: `chatcmpl-test-${nextId++}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: typeof bodyObject.model === "string" ? bodyObject.model : modelName,
        system_fingerprint: "sdk-test-model",
        choices: [{
          index: 0,
          message: { role: "assistant", content: answer, refusal: null },
          logprobs: null,
          finish_reason: "stop",
        }],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          prompt_tokens_details: { cached_tokens: cachedTokens },
        },
      });
    } catch (error) {
      const httpError = error instanceof HttpError
        ? error
        : new HttpError(500, "server_error", `test model failed: ${(error as Error)?.message}`);
      record.status = httpError.status;
      record.error = httpError.message;
      sendError(res, httpError);
    }
  }

  const corsOrigin = options.cors === true
    ? "*"
    : typeof options.cors === "string"
    ? options.cors
    : undefined;

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://test-model").pathname.replace(/\/+$/, "");
    if (corsOrigin) {
      res.setHeader("access-control-allow-origin", corsOrigin);
      if (corsOrigin !== "*") res.setHeader("vary", "Origin");
      if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
        req.resume();
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, OPTIONS",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ??
            "authorization, content-type",
          "access-control-max-age": "600",
          "content-length": "0",
        });
        res.end();
        return;
      }
    }
    if (
      req.method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")
    ) {
      handleCompletion(req, res, path).catch(() => {
        if (!res.headersSent) {
          sendError(res, new HttpError(500, "server_error", "test model failed"));
        }
      });
      return;
    }
    if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
      send(res, 200, {
        object: "list",
        data: [{ id: modelName, object: "model", created: 0, owned_by: "sdk-testing" }],
      });
      return;
    }
    req.resume();
    sendError(
      res,
      new HttpError(404, "invalid_request_error", `test model: no route ${req.method} ${path}`),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port ?? 0;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const baseURL = `http://${urlHost}:${port}/v1`;
  let closing: Promise<void> | undefined;

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
    return closing;
  };

  return {
    baseURL,
    apiKey,
    modelName,
    family,
    calls,
    modelConfig(): Record<string, string> {
      const config: Record<string, string> = {
        SDK_MODEL_BASE_URL: baseURL,
        SDK_MODEL_API_KEY: apiKey,
        SDK_MODEL_NAME: modelName,
      };
      if (family !== "default") config.SDK_MODEL_FAMILY = family;
      return config;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
