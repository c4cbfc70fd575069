/**
 * The model configuration a playground shows: family, model name and base URL of each intent,
 * never the API key (spec 2.3).
 *
 * @module
 */

import { resolveIntentConfig } from "@sdk/core";
import type { ModelIntent } from "@sdk/core";

/** One intent's model, as the page shows it. */
export interface PlaygroundModel {
  /** What it serves: `default`, or `planning` / `insight` when they have a model of their own. */
  intent: ModelIntent;
  /** The family's name (`SDK_MODEL_FAMILY`, `"default"` when unset). */
  family: string;
  /** Model name sent as `model`. */
  modelName: string;
  /** The endpoint, without user info, query or fragment (where keys sometimes hide). */
  baseURL: string;
}

/** The model configuration in use, or the reason there is none. */
export interface PlaygroundModelInfo {
  /** The default intent's model, then `planning` and `insight` when they differ from it. */
  models: PlaygroundModel[];
  /** The configuration error (naming the variables to set) when a model is missing or invalid. */
  error?: string;
  /** Every API key of the configuration, to be cut out of anything the playground sends. */
  secrets: string[];
}

function publicURL(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/**
 * Reads the configuration the agent will use: `modelConfig` when given (it wins wholly), else the
 * `SDK_MODEL_*` environment variables.
 */
export function readModelInfo(modelConfig?: Record<string, string | number>): PlaygroundModelInfo {
  const info: PlaygroundModelInfo = { models: [], secrets: [] };
  try {
    const base = resolveIntentConfig("default", modelConfig);
    info.secrets.push(base.apiKey);
    const show = (c: typeof base): PlaygroundModel => ({
      intent: c.intent,
      family: c.family.name,
      modelName: c.modelName,
      baseURL: publicURL(c.baseURL),
    });
    info.models.push(show(base));
    for (const intent of ["planning", "insight"] as const) {
      const own = resolveIntentConfig(intent, modelConfig);
      info.secrets.push(own.apiKey);
      if (own.modelName !== base.modelName || own.baseURL !== base.baseURL) {
        info.models.push(show(own));
      }
    }
  } catch (e) {
    info.error = (e as Error).message;
  }
  info.secrets = [...new Set(info.secrets)];
  return info;
}

/**
 * Cuts every secret out of a text sent to the page (an error message may quote a request).
 * Secrets shorter than 4 characters are left alone: cutting them would garble ordinary words.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("***");
  }
  return out;
}
