/**
 * Reads the JSON object out of a model's answer: fenced, wrapped in prose, after a thinking block,
 * or near-JSON (repaired with `jsonrepair`).
 *
 * @module
 */

import { ModelResponseError, quoteExcerpt } from "../errors.ts";

/** Finds the first balanced `{...}` in `text`, skipping braces inside strings. */
function firstObject(text: string): string | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  let depth = 0, inString = false, escaped = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start);
}

/** The object with the surrounding blanks of its own keys trimmed (`{" bbox ": 1}`). */
function trimmedKeys(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.trim(), x]));
}

/**
 * Parses the answer's JSON object; the blanks around its keys are trimmed (`" bbox"` is
 * `bbox`), not those of nested objects (extracted data keeps its keys).
 *
 * @throws {ModelResponseError} quoting the raw answer when no object can be read.
 */
export async function parseJsonAnswer(raw: string): Promise<Record<string, unknown>> {
  const text = raw
    .replace(/<(think|thought|thinking)>[\s\S]*?<\/\1>/gi, "")
    .replace(/```(?:json)?/gi, "");
  const candidate = firstObject(text);
  if (candidate) {
    try {
      const v = JSON.parse(candidate);
      if (v && typeof v === "object" && !Array.isArray(v)) {
        return trimmedKeys(v as Record<string, unknown>);
      }
    } catch {
      try {
        const { jsonrepair } = await import("jsonrepair");
        const v = JSON.parse(jsonrepair(candidate));
        if (v && typeof v === "object" && !Array.isArray(v)) {
          return trimmedKeys(v as Record<string, unknown>);
        }
      } catch {
        // fall through to the error below
      }
    }
  }
  throw new ModelResponseError(
    `The model's answer is not a JSON object: ${quoteExcerpt(raw)}`,
    raw,
  );
}
