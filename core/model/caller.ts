/**
 * The one path every model call takes: resolve the intent's configuration, get (or wrap) the
 * `openai` client, send the chat completion, and report usage (spec 2.3, 2.7, 4.1.3).
 *
 * @module
 */

import type { AIUsageInfo } from "../report/types.ts";
import { resolveIntentConfig } from "./config.ts";
import type { IntentModelConfig, ModelIntent } from "./config.ts";

/** A chat message part: text, or an image given as a data URI or URL. */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

/** A chat message as sent to the model. */
export interface ChatMessage {
  /** Who speaks. */
  role: "system" | "user" | "assistant";
  /** Text, or text and images. */
  content: string | ChatContentPart[];
}

/** The minimal client surface the SDK uses: an `openai` client, or a wrapper of one. */
export interface ModelClient {
  /** OpenAI's chat completions resource. */
  chat: {
    completions: {
      create(
        body: Record<string, unknown>,
        options?: { signal?: AbortSignal },
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

interface CompletionLike {
  id?: string;
  choices?: { message?: { content?: string | null } }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  };
}

let localRequestCounter = 0;

/** Calls models for an agent; one per agent, clients cached per endpoint and key. */
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
        const base = new OpenAI(options) as unknown as ModelClient;
        return (await this.#createModelClient?.(base, { ...options })) ?? base;
      })();
      client.catch(() => this.#clients.delete(key));
      this.#clients.set(key, client);
    }
    return client;
  }

  /** Sends one chat completion for `intent` and returns its text and usage. */
  async call(
    intent: ModelIntent,
    messages: ChatMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<ModelAnswer> {
    const config = this.config(intent);
    const client = await this.#client(config);
    const started = Date.now();
    let completion: CompletionLike;
    try {
      completion = await client.chat.completions.create(
        { model: config.modelName, messages, temperature: 0 },
        { signal: options.signal },
      ) as CompletionLike;
    } catch (e) {
      // The client reports an abort as its own error; callers expect the signal's reason.
      if (options.signal?.aborted) throw options.signal.reason;
      throw e;
    }
    const content = completion.choices?.[0]?.message?.content ?? "";
    const u = completion.usage ?? {};
    const usage: AIUsageInfo = {
      promptTokens: u.prompt_tokens ?? 0,
      completionTokens: u.completion_tokens ?? 0,
      totalTokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0),
      cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
      modelName: config.modelName,
      intent,
      requestId: completion.id ?? `local-${++localRequestCounter}`,
      timeCostMs: Date.now() - started,
    };
    this.#onUsage(usage);
    return { content, usage };
  }
}
