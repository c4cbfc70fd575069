/**
 * One model call with the SDK's JSON protocol (or a planning dialect's conversation): system
 * prompt, user text, optional screenshot; returns the parsed answer with its raw text and usage.
 *
 * An answer that cannot be used (no JSON object, a malformed box, a dialect action that cannot be
 * read) gets one retry: the SDK sends the conversation again with the unusable answer and a user
 * message saying what was wrong. A second unusable answer fails with a `ModelResponseError` that
 * quotes both raw answers.
 *
 * @module
 */

import type { CallSession } from "../session/session.ts";
import { promptImageParts } from "../model/prompt_images.ts";
import type { ResolvedPromptImage } from "../model/prompt_images.ts";
import type { Screen } from "../session/screen.ts";
import { ModelResponseError, quoteExcerpt } from "../errors.ts";
import type { ChatContentPart, ChatMessage } from "../model/chat.ts";
import type { ModelIntent } from "../model/config.ts";
import { parseJsonAnswer } from "../model/parse.ts";
import type { AIUsageInfo, ReportModelAttempt, ReportStep } from "../report/types.ts";

/** A parsed answer. */
export interface ParsedAnswer {
  /** The answer's JSON object (`{}` for a text-format answer). */
  json: Record<string, unknown>;
  /** The raw answer text. */
  raw: string;
  /** Usage of the call. */
  usage: AIUsageInfo;
}

/**
 * The two messages of the SDK's JSON protocol: the system prompt, then image and text, then the
 * prompt's named images when it has any (docs/model-protocol.md, "Prompt images").
 */
export function protocolMessages(
  system: string,
  userText: string,
  screen: Screen | undefined,
  promptImages?: readonly ResolvedPromptImage[],
): ChatMessage[] {
  const content: ChatContentPart[] = [];
  if (screen) content.push({ type: "image_url", image_url: { url: screen.image.dataUri } });
  content.push({ type: "text", text: userText }, ...promptImageParts(promptImages));
  return [{ role: "system", content: system }, { role: "user", content }];
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
  /** System prompt (unused when `messages` is given). */
  system: string;
  /** User text (unused when `messages` is given). */
  user: string;
  /** Screenshot sent with the text, when any; shown on the step. */
  screen?: Screen;
  /**
   * The whole conversation, for planning dialects; replaces `system` and `user` (and the session's
   * prompt images: the conversation must carry them itself).
   */
  messages?: ChatMessage[];
  /**
   * `"json"` (default): the answer must hold a JSON object, parsed into `json`. `"text"`: the
   * answer is handed to `read` as is (`json` is `{}`), for planning dialects.
   */
  format?: "json" | "text";
}

/**
 * How much of an unusable answer goes back to the model in the retry's history, and into the
 * report, characters: enough to show what was wrong, bounded so that a runaway answer (megabytes
 * of one token) is not sent again or written twice.
 */
const ANSWER_KEEP_CHARS = 20_000;

/** An answer cut to {@link ANSWER_KEEP_CHARS}, saying how long it was. */
function keptAnswer(raw: string): string {
  return raw.length <= ANSWER_KEEP_CHARS
    ? raw
    : `${raw.slice(0, ANSWER_KEEP_CHARS)}\n[... the answer was ${raw.length} characters; cut here]`;
}

/**
 * The user message of the retry: what was wrong with the previous answer, and what to do.
 * Exported so tests can match it.
 */
function retryMessage(problem: string, format: "json" | "text"): string {
  return `Your previous answer could not be used: ${problem}\n` +
    (format === "json"
      ? "Answer again with one JSON object in the shape the system prompt gives, and nothing else."
      : "Answer again in the exact format the system prompt gives.");
}

/** An unusable-answer error that quotes the full raw answer (a box error quotes only the box). */
function withRawAnswer(e: ModelResponseError, raw: string): ModelResponseError {
  if (e.rawResponse === raw) return e;
  return new ModelResponseError(`${e.message}. The model's answer was ${quoteExcerpt(raw)}`, raw, {
    cause: e,
  });
}

/** One answer of the final error: the problem, and the answer's excerpt unless the problem quotes it. */
function answerLine(raw: string, problem: string): string {
  const quoted = quoteExcerpt(raw);
  return problem.includes(quoted) ? `Problem: ${problem}` : `${quoted}\nProblem: ${problem}`;
}

function sumUsage(a: AIUsageInfo, b: AIUsageInfo): AIUsageInfo {
  return {
    ...b,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    timeCostMs: a.timeCostMs + b.timeCostMs,
  };
}

/**
 * One model call recorded as a report step: the step shows the screenshot, and the answer's
 * thought, raw text and usage. `read` turns the answer into the result; when it throws, or sets
 * `step.error`, the step is marked failed. When the answer cannot be parsed, or `read` throws a
 * `ModelResponseError`, the model is asked once more (see the module doc); both calls are on the
 * step (`attempts`, summed `usage`).
 *
 * @throws {ModelResponseError} quoting both raw answers when the retry's answer is unusable too.
 */
export async function modelStep<T>(
  s: CallSession,
  request: ModelStepRequest,
  read: (answer: ParsedAnswer, step: ReportStep) => T | Promise<T>,
): Promise<T> {
  const { screen } = request;
  const format = request.format ?? "json";
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
  const messages = request.messages ??
    protocolMessages(request.system, request.user, screen, s.promptImages);
  const attempts: ReportModelAttempt[] = [];
  let firstRaw: string | undefined;
  try {
    let conversation = messages;
    for (let attempt = 1;; attempt++) {
      const { content: raw, usage } = await s.caller.call(request.intent, conversation, {
        signal: s.signal,
      });
      step.rawResponse = keptAnswer(raw);
      step.usage = step.usage ? sumUsage(step.usage, usage) : usage;
      attempts.push({ rawResponse: step.rawResponse, usage });
      if (attempts.length > 1) step.attempts = attempts;
      try {
        const json = format === "json" ? await parseJsonAnswer(raw) : {};
        step.thought = stringField(json, "thought");
        const result = await read({ json, raw, usage }, step);
        s.recorder.end(step, step.error);
        return result;
      } catch (e) {
        if (!(e instanceof ModelResponseError)) throw e;
        const error = withRawAnswer(e, raw);
        attempts[attempts.length - 1].error = error.message;
        if (attempt >= 2) {
          const [first, second] = [firstRaw!, raw];
          throw new ModelResponseError(
            `The model's answer could not be used, even after one retry.\n` +
              `First answer: ${answerLine(first, attempts[0].error!)}\n` +
              `Answer after the retry: ${answerLine(second, attempts[1].error!)}`,
            `${first}\n\n--- answer after the retry ---\n\n${second}`,
            { cause: error },
          );
        }
        firstRaw = raw;
        conversation = [
          ...messages,
          { role: "assistant", content: keptAnswer(raw) },
          { role: "user", content: retryMessage(e.message, format) },
        ];
      }
    }
  } catch (e) {
    s.recorder.end(step, e);
    throw e;
  }
}
