/**
 * The agent calls a playground offers, and how one runs: the request's checks, the call, its
 * duration and an answer the page can show. Adding an API is one line of {@link PLAYGROUND_APIS}.
 *
 * @module
 */

import type { Agent, Size } from "@sdk/core";
import { redact } from "./model_info.ts";
import { SdkTypeError } from "@sdk/core";

/** What the page sends to run a call. */
export interface PlaygroundCallRequest {
  /** One of {@link PLAYGROUND_APIS}' names. */
  api: string;
  /** The instruction, element description, data demand or assertion. */
  prompt: string;
  /** The text to type (`aiInput` only). */
  value?: string;
}

/** The answer to a call: its value or its error, how long it took, and its report. */
export interface PlaygroundCallResult {
  /** The API called. */
  api: string;
  /** Whether the call succeeded. */
  ok: boolean;
  /** What the call returned (absent for calls that return nothing). */
  value?: unknown;
  /** The error's class name and message, with every API key cut out. */
  error?: { name: string; message: string };
  /** Wall time of the call, ms. */
  durationMs: number;
  /** The screen's logical size and pixel ratio (`aiLocate`, to draw its box on the image). */
  screen?: Size;
  /**
   * Where the playground serves the agent's report, opened at this call (a path with the token
   * and the call's id as fragment); absent when no report is written (`generateReport: false`).
   */
  reportUrl?: string;
}

interface ApiSpec {
  /** Whether the call takes a `value` (`aiInput`). */
  value?: boolean;
  run(agent: Agent, prompt: string, value: string): Promise<unknown>;
}

/** The APIs of the playground, in the order the page lists them. */
export const PLAYGROUND_APIS: Readonly<Record<string, ApiSpec>> = {
  aiAct: { run: (a, p) => a.aiAct(p) },
  aiTap: { run: (a, p) => a.aiTap(p) },
  aiInput: { value: true, run: (a, p, value) => a.aiInput(p, { value }) },
  aiQuery: { run: (a, p) => a.aiQuery(p) },
  aiAssert: { run: (a, p) => a.aiAssert(p) },
  aiLocate: { run: (a, p) => a.aiLocate(p) },
};

/**
 * Reads a call request from a parsed JSON body.
 *
 * @throws {SdkTypeError} naming what is wrong: an unknown API (with the known ones), an empty
 *   prompt, or a missing `value` for `aiInput`.
 */
export function readCallRequest(body: unknown): PlaygroundCallRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  const api = typeof b.api === "string" ? b.api : "";
  const spec = Object.hasOwn(PLAYGROUND_APIS, api) ? PLAYGROUND_APIS[api] : undefined;
  if (!spec) {
    throw new SdkTypeError(
      `unknown api "${api}": one of ${Object.keys(PLAYGROUND_APIS).join(", ")}`,
    );
  }
  if (typeof b.prompt !== "string" || b.prompt.trim() === "") {
    throw new SdkTypeError(`${api} needs a prompt`);
  }
  if (spec.value && typeof b.value !== "string") {
    throw new SdkTypeError(`${api} needs a value: the text to type`);
  }
  return { api, prompt: b.prompt, ...(spec.value ? { value: b.value as string } : {}) };
}

/** Runs one call on the agent; never throws for the call's own failure. */
export async function runCall(
  agent: Agent,
  request: PlaygroundCallRequest,
  secrets: readonly string[],
): Promise<PlaygroundCallResult> {
  const spec = PLAYGROUND_APIS[request.api];
  const started = performance.now();
  const result: PlaygroundCallResult = { api: request.api, ok: true, durationMs: 0 };
  try {
    const value = await spec.run(agent, request.prompt, request.value ?? "");
    result.durationMs = performance.now() - started;
    if (value !== undefined) result.value = value;
    if (request.api === "aiLocate") result.screen = await agent.interface.size();
  } catch (e) {
    result.durationMs = performance.now() - started;
    result.ok = false;
    // A thrown value that is not an Error is reported by its text.
    const [name, message] = e instanceof Error ? [e.name, e.message] : ["Error", String(e)];
    result.error = { name, message: redact(message, secrets) };
  }
  return result;
}
