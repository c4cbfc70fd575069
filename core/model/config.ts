/**
 * Model configuration (spec 2.3): from the agent's `modelConfig` (which then wins wholly) or from
 * `SDK_*` environment variables, per intent.
 *
 * @module
 */

import { ModelConfigError, SdkTypeError } from "../errors.ts";
import { getEnv } from "../runtime/runtime.ts";
import { getModelFamily } from "./families/mod.ts";
import type { ModelFamily } from "./families/mod.ts";

/** What a model call is for; each intent may use its own model (docs/model-protocol.md). */
export type ModelIntent = "default" | "planning" | "insight";

/** The configuration of one intent, ready to call. */
export interface IntentModelConfig {
  /** The intent it serves. */
  intent: ModelIntent;
  /** Model name sent as `model`. */
  modelName: string;
  /** OpenAI-compatible base URL, e.g. `https://host/v1`. */
  baseURL: string;
  /** API key (never logged or reported). */
  apiKey: string;
  /** The model family's conventions. */
  family: ModelFamily;
  /** Timeout of one HTTP attempt, ms (`SDK_MODEL_TIMEOUT`, default {@link DEFAULT_MODEL_TIMEOUT_MS}). */
  timeoutMs: number;
  /** Retries after the first attempt (`SDK_MODEL_MAX_RETRIES`, default {@link DEFAULT_MODEL_MAX_RETRIES}). */
  maxRetries: number;
  /** `SDK_MODEL_REASONING_ENABLED`: turn the model's reasoning on or off; undefined sends nothing. */
  reasoningEnabled?: boolean;
  /** `SDK_MODEL_EXTRA_BODY_JSON`: fields merged into the request body last. */
  extraBody?: Record<string, unknown>;
  /** `SDK_MODEL_STREAM`: ask for a streamed answer and read it to the end (default false). */
  stream: boolean;
}

/** Default timeout of one HTTP attempt of a model call, ms (`SDK_MODEL_TIMEOUT`). */
const DEFAULT_MODEL_TIMEOUT_MS = 120_000;

/** Default number of retries after the first attempt (`SDK_MODEL_MAX_RETRIES`). */
const DEFAULT_MODEL_MAX_RETRIES = 2;

const PREFIX: Record<ModelIntent, string> = {
  default: "SDK_MODEL_",
  planning: "SDK_PLANNING_MODEL_",
  insight: "SDK_INSIGHT_MODEL_",
};

/** Every key read, so that a `modelConfig` from the environment can be built by callers. */
export const MODEL_CONFIG_KEYS: readonly string[] = Object.values(PREFIX).flatMap((p) =>
  [
    "NAME",
    "BASE_URL",
    "API_KEY",
    "FAMILY",
    "TIMEOUT",
    "MAX_RETRIES",
    "REASONING_ENABLED",
    "EXTRA_BODY_JSON",
    "STREAM",
  ].map((k) => p + k)
);

/** Levenshtein distance, for the did-you-mean of an unknown key (keys are short). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * Checks that every key of a `modelConfig` is one the SDK reads ({@link MODEL_CONFIG_KEYS}), so a
 * misspelt key fails at once instead of being ignored.
 *
 * @throws {ModelConfigError} naming each unknown key, with the closest known key when one is near
 * (`SDK_MODEL_NAM`: did you mean `SDK_MODEL_NAME`?), and saying that runtime variables such as
 * `SDK_PLAYGROUND_HOST` are environment-only (spec 2.3).
 * @throws {SdkTypeError} when `modelConfig` is not an object.
 */
export function checkModelConfigKeys(modelConfig: unknown): void {
  if (modelConfig === undefined) return;
  if (typeof modelConfig !== "object" || modelConfig === null || Array.isArray(modelConfig)) {
    throw new SdkTypeError(
      `'modelConfig' must be an object of SDK_MODEL_* keys: current value is ${
        JSON.stringify(modelConfig)
      }`,
    );
  }
  const unknown = Object.keys(modelConfig).filter((key) => !MODEL_CONFIG_KEYS.includes(key));
  if (unknown.length === 0) return;
  const hints = unknown.map((key) => {
    const upper = key.toUpperCase();
    const [best] = MODEL_CONFIG_KEYS.map((k) => [k, editDistance(upper, k)] as const)
      .sort((x, y) => x[1] - y[1]);
    return best && best[1] <= 3 ? `'${key}' (did you mean '${best[0]}'?)` : `'${key}'`;
  });
  throw new ModelConfigError(
    `modelConfig has ${unknown.length > 1 ? "keys" : "a key"} the SDK does not read: ${
      hints.join(", ")
    }. It reads ${MODEL_CONFIG_KEYS.join(", ")}; runtime variables (SDK_PLAYGROUND_HOST, ` +
      `SDK_RUN_DIR, DEBUG, ...) are read from the environment only.`,
  );
}

/**
 * Resolves the configuration of one intent.
 *
 * With `modelConfig` given, only it is read; else the environment. An intent's own keys apply when
 * its `..._MODEL_NAME` is set; its missing base URL, key, family and call settings (timeout,
 * retries, reasoning, extra body, stream) fall back to the default ones.
 *
 * @throws {ModelConfigError} naming the variables to set when something is missing or invalid.
 */
export function resolveIntentConfig(
  intent: ModelIntent,
  modelConfig?: Record<string, string | number>,
): IntentModelConfig {
  const source = modelConfig ? "modelConfig" : "environment";
  const read = (key: string): string | undefined => {
    const v = modelConfig ? modelConfig[key] : getEnv(key);
    return v === undefined || v === null || String(v).trim() === "" ? undefined : String(v).trim();
  };
  const own = intent !== "default" && read(PREFIX[intent] + "NAME") ? PREFIX[intent] : undefined;
  const pick = (key: string): [string | undefined, string] => {
    const ownValue = own ? read(own + key) : undefined;
    return ownValue !== undefined
      ? [ownValue, own + key]
      : [read(PREFIX.default + key), PREFIX.default + key];
  };
  const [modelName] = pick("NAME");
  const [baseURL, baseKey] = pick("BASE_URL");
  const [apiKey] = pick("API_KEY");
  const [familyName, familyKey] = pick("FAMILY");
  const missing = [
    !modelName && "SDK_MODEL_NAME",
    !baseURL && "SDK_MODEL_BASE_URL",
    !apiKey && "SDK_MODEL_API_KEY",
  ].filter(Boolean);
  if (missing.length) {
    throw new ModelConfigError(
      `No valid model configuration (read from the ${source}): ${missing.join(", ")} ${
        missing.length > 1 ? "are" : "is"
      } not set. Set SDK_MODEL_NAME, SDK_MODEL_BASE_URL (an OpenAI-compatible endpoint, e.g. ` +
        `https://host/v1) and SDK_MODEL_API_KEY (any non-empty value for endpoints without auth), ` +
        `and SDK_MODEL_FAMILY for the model's coordinate convention, as environment variables or ` +
        `in the agent option modelConfig.`,
    );
  }
  if (!/^https?:\/\/[^\s]+$/i.test(baseURL!)) {
    throw new ModelConfigError(
      `${baseKey} must be an http(s) URL of an OpenAI-compatible endpoint, got ${
        JSON.stringify(baseURL)
      }.`,
    );
  }
  const redact = (text: string) => apiKey!.length >= 4 ? text.split(apiKey!).join("***") : text;
  const integer = (key: string, fallback: number, min: number): number => {
    const [value, name] = pick(key);
    if (value === undefined) return fallback;
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      throw new ModelConfigError(
        `${name} must be ${min > 0 ? "a positive" : "a non-negative"} integer${
          key === "TIMEOUT" ? " (milliseconds)" : ""
        }, got ${JSON.stringify(redact(value))}.`,
      );
    }
    return n;
  };
  const flag = (key: string): boolean | undefined => {
    const [value, name] = pick(key);
    if (value === undefined) return undefined;
    const v = value.toLowerCase();
    if (v === "true") return true;
    if (v === "false") return false;
    throw new ModelConfigError(
      `${name} must be "true" or "false", got ${JSON.stringify(redact(value))}.`,
    );
  };
  const [extraJson, extraKey] = pick("EXTRA_BODY_JSON");
  let extraBody: Record<string, unknown> | undefined;
  if (extraJson !== undefined) {
    let parsed: unknown;
    let problem: string | undefined;
    try {
      parsed = JSON.parse(extraJson);
    } catch {
      // The parser's own message quotes the text at length; only a short prefix is shown.
      problem = "is not valid JSON";
    }
    if (!problem && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))) {
      problem = "must be a JSON object";
    }
    if (problem) {
      const shown = redact(extraJson);
      throw new ModelConfigError(
        `${extraKey} ${problem}: got ${
          JSON.stringify(shown.length > 40 ? shown.slice(0, 40) + "..." : shown)
        }. Give a JSON object of extra request fields, e.g. {"top_p": 0.1}.`,
      );
    }
    extraBody = parsed as Record<string, unknown>;
  }
  return {
    intent,
    modelName: modelName!,
    baseURL: baseURL!,
    apiKey: apiKey!,
    family: getModelFamily(familyName, familyKey),
    timeoutMs: integer("TIMEOUT", DEFAULT_MODEL_TIMEOUT_MS, 1),
    maxRetries: integer("MAX_RETRIES", DEFAULT_MODEL_MAX_RETRIES, 0),
    reasoningEnabled: flag("REASONING_ENABLED"),
    extraBody,
    stream: flag("STREAM") ?? false,
  };
}
