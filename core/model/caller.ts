/**
 * The one path every model call takes: resolve the intent's configuration, get (or wrap) the
 * `openai` client, send the chat completion, and report usage (spec 2.3, 2.7, 4.1.3).
 *
 * Call mechanics (docs/model-protocol.md, "Call mechanics"): retries with back-off come from the
 * `openai` client itself (`maxRetries` per request); the timeout of an attempt is the client's until
 * the headers arrive, then the SDK's deadline ({@link CallDeadline}) until the last byte, so the whole
 * answer of an attempt arrives within `SDK_MODEL_TIMEOUT` however the endpoint trickles it. The caller
 * adds the reasoning fields of the family and the extra body, reads streamed answers, and turns the
 * client's errors into {@link ModelCallError} / {@link ModelTimeoutError}.
 *
 * @module
 */

import { ModelCallError, ModelTimeoutError, SdkError } from "../errors.ts";
import type { ModelCallErrorKind } from "../errors.ts";
import type { AIUsageInfo } from "../report/types.ts";
import { runtimeKind } from "../runtime/runtime.ts";
import { resolveIntentConfig } from "./config.ts";
import { logger, runLog } from "../log/run_log.ts";
import { requestForLog } from "../log/model_entries.ts";
import { secretFieldValues } from "../log/redact.ts";
import type { IntentModelConfig, ModelIntent } from "./config.ts";
import type { ChatMessage } from "./chat.ts";
import { bodyUnderDeadline, CallDeadline } from "./deadline.ts";

/** Per-request options the SDK passes to `chat.completions.create` (the `openai` client's own). */
export interface ModelRequestOptions {
  /** Cancels the call; the HTTP request is aborted. */
  signal?: AbortSignal;
  /** Timeout of one attempt, ms. */
  timeout?: number;
  /** Retries after the first attempt (on 408, 409, 429, 5xx and connection errors). */
  maxRetries?: number;
  /** Extra `fetch` options; the SDK uses them to count attempts. */
  fetchOptions?: Record<string | symbol, unknown>;
}

/** The minimal client surface the SDK uses: an `openai` client, or a wrapper of one. */
export interface ModelClient {
  /** OpenAI's chat completions resource. */
  chat: {
    completions: {
      create(
        body: Record<string, unknown>,
        options?: ModelRequestOptions,
      ): Promise<unknown>;
    };
  };
}

/**
 * Wraps the model client (spec 4.1.3). `options` carries `baseURL`, `apiKey` and
 * `dangerouslyAllowBrowser: true`; resolve to `undefined` to keep the original client.
 */
export type CreateModelClient = (
  client: ModelClient,
  options: Record<string, unknown>,
) => Promise<ModelClient | undefined>;

/** The answer of one model call. */
export interface ModelAnswer {
  /** `choices[0].message.content`. */
  content: string;
  /** Usage and identity of the call. */
  usage: AIUsageInfo;
}

interface UsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

interface CompletionLike {
  id?: string;
  choices?: { message?: { content?: string | null } }[];
  usage?: UsageLike | null;
}

interface ChunkLike {
  id?: string;
  choices?: { delta?: { content?: string | null } | null; finish_reason?: string | null }[];
  usage?: UsageLike | null;
}

/** What one call read from the endpoint. */
interface RawAnswer {
  content: string;
  id?: string;
  usage: UsageLike;
}

let localRequestCounter = 0;

const log = logger("sdk:model");

/**
 * Key of the call's {@link CallDeadline} put in each request's `fetchOptions`; the `fetch` given to
 * the `openai` client counts every HTTP attempt of the call that carries it, and runs the deadline
 * over each attempt's body.
 */
const DEADLINE = Symbol("sdk.modelCallDeadline");

const countingFetch = async (
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> => {
  const deadline = (init as Record<symbol, CallDeadline | undefined> | undefined)?.[DEADLINE];
  if (!deadline) return globalThis.fetch(input, init);
  deadline.attempts++;
  deadline.disarm();
  const started = Date.now();
  // Until the headers arrive the client's own timeout bounds the attempt (and retries it).
  const response = await globalThis.fetch(input, init);
  deadline.arm(started);
  return bodyUnderDeadline(response, deadline);
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Merges `extra` into `target` key by key: nested objects are merged, other values replaced. */
function mergeInto(target: Record<string, unknown>, extra: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(extra)) {
    const old = target[k];
    if (isPlainObject(old) && isPlainObject(v)) {
      const copy = { ...old };
      mergeInto(copy, v);
      target[k] = copy;
    } else {
      target[k] = v;
    }
  }
}

/**
 * The request body of a call: the SDK's fields, then the family's reasoning fields when
 * `SDK_MODEL_REASONING_ENABLED` is set (nothing when the family has no such control), then the
 * stream fields when `SDK_MODEL_STREAM` is on, then `SDK_MODEL_EXTRA_BODY_JSON` (which wins).
 */
export function buildRequestBody(
  config: IntentModelConfig,
  messages: ChatMessage[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: config.modelName, messages, temperature: 0 };
  if (config.reasoningEnabled !== undefined) {
    const reasoning = config.family.reasoningParams?.(config.reasoningEnabled);
    if (reasoning) mergeInto(body, reasoning);
  }
  if (config.stream) mergeInto(body, { stream: true, stream_options: { include_usage: true } });
  if (config.extraBody) mergeInto(body, config.extraBody);
  return body;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return "(invalid URL)";
  }
}

/** Reads a streamed answer; the call's deadline bounds it whole. */
async function readStream(
  stream: AsyncIterable<ChunkLike>,
): Promise<RawAnswer & { complete: boolean }> {
  let content = "";
  let id: string | undefined;
  let usage: UsageLike = {};
  let complete = false;
  for await (const chunk of stream) {
    id ??= chunk.id || undefined;
    const choice = chunk.choices?.[0];
    content += choice?.delta?.content ?? "";
    if (choice?.finish_reason) complete = true;
    if (chunk.usage) usage = chunk.usage;
  }
  return { content, id, usage, complete };
}

/** Calls models for an agent; one per agent, clients cached per endpoint and key. */
/**
 * In a page, a fetch to another origin that fails without an answer is most often the endpoint
 * refusing CORS (the browser gives no other word than "Failed to fetch"): say so, and where the
 * docs explain it.
 */
function corsHint(baseURL: string): string {
  if (runtimeKind !== "browser") return "";
  const page = (globalThis as { location?: { origin?: string } }).location?.origin;
  let endpoint: string;
  try {
    endpoint = new URL(baseURL).origin;
  } catch {
    return "";
  }
  if (!page || page === endpoint) return "";
  return `. In a browser page this is most often CORS: the endpoint ${endpoint} must allow this ` +
    `page's origin ${page} (Access-Control-Allow-Origin, and the preflight of a request with an ` +
    `Authorization header), or be reached through a proxy on ${page}; see docs/in-browser.md, ` +
    `"The model endpoint: CORS"`;
}

export class ModelCaller {
  #modelConfig?: Record<string, string | number>;
  #createModelClient?: CreateModelClient;
  #onUsage: (usage: AIUsageInfo) => void;
  #clients = new Map<string, Promise<ModelClient>>();

  /** Creates a caller; `onUsage` receives every call's usage. */
  constructor(options: {
    modelConfig?: Record<string, string | number>;
    createModelClient?: CreateModelClient;
    onUsage: (usage: AIUsageInfo) => void;
  }) {
    this.#modelConfig = options.modelConfig;
    this.#createModelClient = options.createModelClient;
    this.#onUsage = options.onUsage;
  }

  /**
   * The configuration an intent uses.
   *
   * @throws {ModelConfigError} when it is missing or invalid.
   */
  config(intent: ModelIntent): IntentModelConfig {
    return resolveIntentConfig(intent, this.#modelConfig);
  }

  #client(config: IntentModelConfig): Promise<ModelClient> {
    const key = `${config.baseURL}\n${config.apiKey}`;
    let client = this.#clients.get(key);
    if (!client) {
      client = (async () => {
        // Loaded on first use so that importing the SDK stays light.
        const { default: OpenAI } = await import("openai");
        const options = {
          baseURL: config.baseURL,
          apiKey: config.apiKey,
          dangerouslyAllowBrowser: true,
        };
        // Timeout and retries are set per request from the intent's configuration.
        const base = new OpenAI({ ...options, fetch: countingFetch }) as unknown as ModelClient;
        return (await this.#createModelClient?.(base, { ...options })) ?? base;
      })();
      client.catch(() => this.#clients.delete(key));
      this.#clients.set(key, client);
    }
    return client;
  }

  /**
   * Sends one chat completion for `intent` and returns its text and usage.
   *
   * @throws {ModelTimeoutError} when the last attempt timed out.
   * @throws {ModelCallError} when the endpoint answered an error status (after the retries for
   * 408, 409, 429 and 5xx), could not be reached, or the call failed otherwise.
   * @throws the signal's reason when `options.signal` aborts; the HTTP request is cancelled.
   */
  async call(
    intent: ModelIntent,
    messages: ChatMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<ModelAnswer> {
    const config = this.config(intent);
    runLog().addSecret(config.apiKey);
    // A token of the extra body (`{"provider": {"auth_token": ...}}`) is cut from every line too.
    for (const secret of secretFieldValues(config.extraBody)) runLog().addSecret(secret);
    const client = await this.#client(config);
    const body = buildRequestBody(config, messages);
    log("request", { intent, host: hostOf(config.baseURL), body: requestForLog(body) });
    // The client's timeout ends when the headers arrive; the deadline bounds the rest.
    const deadline = new CallDeadline(config.timeoutMs);
    const signal = options.signal
      ? AbortSignal.any([options.signal, deadline.signal])
      : deadline.signal;
    const started = Date.now();
    let answer: RawAnswer;
    try {
      const response = await client.chat.completions.create(body, {
        signal,
        timeout: config.timeoutMs,
        maxRetries: config.maxRetries,
        fetchOptions: { [DEADLINE]: deadline },
      });
      if (isAsyncIterable(response)) {
        // A wrapping client that bypasses the SDK's fetch: the stream gets the deadline from here.
        if (deadline.attempts === 0) deadline.arm();
        const read = await readStream(response as AsyncIterable<ChunkLike>);
        // The client ends an aborted stream quietly; tell the reason.
        options.signal?.throwIfAborted();
        if (deadline.expired) throw deadline.signal.reason;
        if (!read.complete) {
          throw new ModelCallError(
            `${describe(config)}: the streamed answer ended before it was complete ` +
              `(no finish_reason after ${read.content.length} characters).`,
            { ...details(config, Math.max(1, deadline.attempts)), kind: "connection" },
          );
        }
        answer = read;
      } else {
        const completion = response as CompletionLike;
        answer = {
          content: completion.choices?.[0]?.message?.content ?? "",
          id: completion.id,
          usage: completion.usage ?? {},
        };
      }
    } catch (e) {
      // The client reports an abort as its own error; callers expect the signal's reason.
      const ms = Date.now() - started;
      if (options.signal?.aborted) {
        log("aborted", { intent, ms, attempts: deadline.attempts });
        throw options.signal.reason;
      }
      const error = await toCallError(e, config, deadline.attempts, deadline.expired);
      log("error", { intent, ms, attempts: deadline.attempts, error });
      throw error;
    } finally {
      deadline.disarm();
    }
    const u = answer.usage;
    const usage: AIUsageInfo = {
      promptTokens: u.prompt_tokens ?? 0,
      completionTokens: u.completion_tokens ?? 0,
      totalTokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0),
      cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
      modelName: config.modelName,
      intent,
      requestId: answer.id ?? `local-${++localRequestCounter}`,
      timeCostMs: Date.now() - started,
    };
    log("answer", {
      intent,
      ms: usage.timeCostMs,
      attempts: deadline.attempts,
      usage,
      content: answer.content,
    });
    this.#onUsage(usage);
    return { content: answer.content, usage };
  }
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && Symbol.asyncIterator in v;
}

function describe(config: IntentModelConfig): string {
  return `Model call failed (intent ${config.intent}, model ${
    JSON.stringify(config.modelName)
  }, endpoint ${hostOf(config.baseURL)})`;
}

function details(config: IntentModelConfig, attempts: number) {
  return {
    intent: config.intent,
    modelName: config.modelName,
    host: hostOf(config.baseURL),
    attempts,
  };
}

const RETRIED_STATUS = (status: number) =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/** Turns what a call threw into the SDK's typed error; the API key is cut out of any text. */
async function toCallError(
  e: unknown,
  config: IntentModelConfig,
  counted: number,
  deadlinePassed: boolean,
): Promise<unknown> {
  if (e instanceof SdkError) return e;
  // URLs in messages (Deno's fetch quotes the request URL) keep only their origin.
  const redact = (text: string) =>
    (config.apiKey.length >= 4 ? text.split(config.apiKey).join("***") : text)
      .replace(/\bhttps?:\/\/[^\s)"'<>]+/gi, (url) => {
        try {
          return `${new URL(url).origin}/...`;
        } catch {
          return "(URL)";
        }
      });
  const { APIError, APIConnectionError, APIConnectionTimeoutError } = await import("openai");
  const status = e instanceof APIError && typeof e.status === "number"
    ? e.status
    : typeof (e as { status?: unknown })?.status === "number"
    ? (e as { status: number }).status
    : undefined;
  let kind: ModelCallErrorKind;
  if (deadlinePassed || e instanceof APIConnectionTimeoutError) kind = "timeout";
  else if (status !== undefined) kind = "http";
  else if (e instanceof APIConnectionError) kind = "connection";
  else kind = "other";
  // Attempts are counted by the SDK's fetch; a client that bypasses it gets the client's rule.
  const retried = kind === "timeout" || kind === "connection" ||
    (status !== undefined && RETRIED_STATUS(status));
  const attempts = counted > 0 ? counted : retried ? 1 + config.maxRetries : 1;
  const tries = `${attempts} attempt${attempts === 1 ? "" : "s"}`;
  // The reason of a connection error ("Connection refused") sits at the end of the cause chain.
  let root: unknown = e;
  for (let i = 0; i < 5 && (root as { cause?: unknown })?.cause instanceof Error; i++) {
    root = (root as { cause: Error }).cause;
  }
  const text = redact(
    (e instanceof Error ? e.message : String(e)) +
      (kind === "connection" && root !== e && root instanceof Error ? ` (${root.message})` : ""),
  );
  if (kind === "timeout") {
    return new ModelTimeoutError(
      `${describe(config)}: timed out after ${config.timeoutMs} ms (${tries}): the whole answer ` +
        `of an attempt, first byte to last, must arrive within SDK_MODEL_TIMEOUT. Raise it if the ` +
        `model needs longer.`,
      { ...details(config, attempts), timeoutMs: config.timeoutMs },
      { cause: e },
    );
  }
  const what = kind === "http"
    ? `HTTP ${status}${retried ? "" : " (not retried)"}`
    : kind === "connection"
    ? "connection error"
    : "error";
  return new ModelCallError(
    `${describe(config)}: ${what} after ${tries}: ${text}` +
      (kind === "connection" ? corsHint(config.baseURL) : ""),
    { ...details(config, attempts), kind, status },
    { cause: e },
  );
}
