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
import type { AIUsageInfo, ReportStep } from "../report/types.ts";

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

/** What one model step asks, and how the report shows it. */
export interface ModelStepRequest {
  /** Step kind in the report. */
  kind: ReportStep["kind"];
  /** Step title in the report. */
  title: string;
  /** Intent whose model answers. */
  intent: ModelIntent;
  /** System prompt. */
  system: string;
  /** User text. */
  user: string;
  /** Screenshot sent with the text, when any. */
  screen?: Screen;
}

/**
 * One model call recorded as a report step: the step shows the screenshot, and the answer's
 * thought, raw text and usage. `read` turns the answer into the result; when it throws, or sets
 * `step.error`, the step is marked failed.
 */
export async function modelStep<T>(
  s: CallSession,
  request: ModelStepRequest,
  read: (answer: ParsedAnswer, step: ReportStep) => T,
): Promise<T> {
  const { screen } = request;
  const step = s.recorder.begin(
    request.kind,
    request.title,
    screen
      ? {
        screenshot: screen.screenshotId,
        screenshotSize: { width: screen.image.width, height: screen.image.height },
      }
      : {},
  );
  try {
    const answer = await askModel(s, request.intent, request.system, request.user, screen);
    Object.assign(step, {
      rawResponse: answer.raw,
      usage: answer.usage,
      thought: stringField(answer.json, "thought"),
    });
    const result = read(answer, step);
    s.recorder.end(step, step.error);
    return result;
  } catch (e) {
    s.recorder.end(step, e);
    throw e;
  }
}
