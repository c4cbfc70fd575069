/**
 * The test model's chat-completions endpoint (private to `@sdk/core/testing`): checks the API key,
 * reads the request as a call, answers it, counts tokens, and records the call with its outcome
 * in `TestModel.calls`.
 *
 * @module
 */

import { dialectOf, readDialectPlanRequest } from "./_dialects.ts";
import { parseRequest, ProtocolError, redactBody, type TestModelCall } from "./_request.ts";
import {
  HttpError,
  type IncomingMessage,
  readBody,
  send,
  sendError,
  type ServerResponse,
} from "./_http.ts";
import type { RecordedCall } from "./test_model_types.ts";

/** What the endpoint answers with and where it records. */
export interface CompletionSetup {
  /** The key requests must carry as `Authorization: Bearer {apiKey}`. */
  apiKey: string;
  /** The model name of answers whose request named none. */
  modelName: string;
  /** The answer format; a dialect family reads planning requests in its dialect. */
  family: string;
  /** The answer text for a call (throws an `HttpError` when there is none). */
  answer: (call: TestModelCall) => Promise<string>;
  /** Where each request is recorded, in arrival order. */
  calls: RecordedCall[];
}

/** The handler of `POST /v1/chat/completions`; it answers every request, errors included. */
export function completionHandler(
  { apiKey, modelName, family, answer: answerFor, calls }: CompletionSetup,
): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> {
  const dialect = dialectOf(family);
  const seenSystemPrompts = new Set<string>();
  let nextId = 1;

  return async function handleCompletion(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
  ): Promise<void> {
    const header = req.headers.authorization;
    const authorization: RecordedCall["authorization"] = header === undefined
      ? "none"
      : header === `Bearer ${apiKey}`
      ? "expected"
      : "other";
    const record: RecordedCall = {
      index: calls.length,
      path,
      kind: null,
      request: null,
      requestBytes: 0,
      authorization,
      status: 0,
    };
    calls.push(record);
    try {
      const { text: raw, bytes } = await readBody(req);
      record.requestBytes = bytes;
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new HttpError(400, "invalid_request_error", "request body is not JSON");
      }
      if (!body || typeof body !== "object" || Array.isArray(body)) {
        throw new HttpError(400, "invalid_request_error", "request body is not a JSON object");
      }
      const bodyObject = body as Record<string, unknown>;
      record.request = redactBody(bodyObject);
      if (authorization !== "expected") {
        throw new HttpError(
          401,
          "invalid_request_error",
          authorization === "none"
            ? "test model: no Authorization header"
            : "test model: Authorization header does not carry the expected API key",
        );
      }
      let parsed;
      try {
        parsed = (dialect && readDialectPlanRequest(bodyObject)) || parseRequest(bodyObject);
      } catch (error) {
        if (error instanceof ProtocolError) {
          throw new HttpError(400, "invalid_request_error", `test model: ${error.message}`);
        }
        throw error;
      }
      const call = parsed.call;
      record.kind = call.kind;
      record.call = call;

      const answer = await answerFor(call);
      const promptTokens = Math.ceil(parsed.textLength / 4) + 1000 * parsed.imageCount;
      const cachedTokens = seenSystemPrompts.has(call.systemPrompt) ? tokens(call.systemPrompt) : 0;
      seenSystemPrompts.add(call.systemPrompt);
      const completionTokens = tokens(answer);
      record.answer = answer;
      record.usage = { promptTokens, completionTokens, cachedTokens };
      record.status = 200;
      send(res, 200, {
        id: `chatcmpl-test-${nextId++}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: typeof bodyObject.model === "string" ? bodyObject.model : modelName,
        system_fingerprint: "sdk-test-model",
        choices: [{
          index: 0,
          message: { role: "assistant", content: answer, refusal: null },
          logprobs: null,
          finish_reason: "stop",
        }],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          prompt_tokens_details: { cached_tokens: cachedTokens },
        },
      });
    } catch (error) {
      const httpError = error instanceof HttpError
        ? error
        : new HttpError(500, "server_error", `test model failed: ${(error as Error)?.message}`);
      record.status = httpError.status;
      record.error = httpError.message;
      sendError(res, httpError);
    }
  };
}

function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}
