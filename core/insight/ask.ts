/**
 * One model call with the SDK's JSON protocol: system prompt, user text, optional screenshot;
 * returns the parsed answer with its raw text and usage.
 *
 * @module
 */

import type { CallSession } from "../agent/session.ts";
import type { Screen } from "../agent/screen.ts";
import type { ChatContentPart } from "../model/caller.ts";
import type { ModelIntent } from "../model/config.ts";
import { parseJsonAnswer } from "../model/parse.ts";
import type { AIUsageInfo } from "../report/types.ts";

/** A parsed answer. */
export interface ParsedAnswer {
  /** The answer's JSON object. */
  json: Record<string, unknown>;
  /** The raw answer text. */
  raw: string;
  /** Usage of the call. */
  usage: AIUsageInfo;
}

/** Asks the model of `intent` and parses its JSON answer. */
export async function askModel(
  s: CallSession,
  intent: ModelIntent,
  system: string,
  userText: string,
  screen: Screen | undefined,
): Promise<ParsedAnswer> {
  const content: ChatContentPart[] = [];
  if (screen) content.push({ type: "image_url", image_url: { url: screen.image.dataUri } });
  content.push({ type: "text", text: userText });
  const { content: raw, usage } = await s.caller.call(
    intent,
    [{ role: "system", content: system }, { role: "user", content }],
    { signal: s.signal },
  );
  return { json: await parseJsonAnswer(raw), raw, usage };
}

/** A string field of an answer, or undefined. */
export function stringField(json: Record<string, unknown>, key: string): string | undefined {
  const v = json[key];
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}
