/**
 * The test model's public types: what a script answers ({@link TestModelScript}), the options of
 * `startTestModel`, and the running server with the calls it recorded.
 *
 * @module
 */

import type { TargetBox, TestModelFamily } from "./_bbox.ts";
import type { DialectFamily } from "./_dialects.ts";
import type {
  AssertCall,
  CallKind,
  ExtractCall,
  LocateCall,
  PlanCall,
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
  /**
   * Several actions for one answer (when the call allows them: `call.maxActions` > 1), each with
   * its own `log`; answered as `"actions"`. Takes the place of `action`.
   */
  actions?: { type: string; param?: Record<string, unknown>; log?: string }[];
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
   * Size of the request body as the server received it, bytes (images included): what the SDK
   * really sent, e.g. to check that a conversation's history stays bounded. 0 until it is read.
   */
  requestBytes: number;
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
