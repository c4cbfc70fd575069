/**
 * The test model's HTTP plumbing (private to `@sdk/core/testing`): errors that become
 * OpenAI-style error responses, JSON answers, and request bodies.
 *
 * @module
 */

/** A request as `node:http` hands it to the server. */
export type IncomingMessage = import("node:http").IncomingMessage;
/** A response as `node:http` hands it to the server. */
export type ServerResponse = import("node:http").ServerResponse;

/** An error sent as the response: its HTTP status and OpenAI error `type`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** Sends `body` as JSON with `status`. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(new TextEncoder().encode(text).length),
    ...extraHeaders,
  });
  res.end(text);
}

/**
 * Sends an OpenAI-style error; `x-should-retry: false` keeps the `openai` client from retrying.
 */
export function sendError(res: ServerResponse, error: HttpError): void {
  send(res, error.status, {
    error: { message: error.message, type: error.type, param: null, code: null },
  }, { "x-should-retry": "false" });
}

/** The request body as text, and its size in bytes as it arrived. */
export function readBody(req: IncomingMessage): Promise<{ text: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", () => {
      const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let offset = 0;
      for (const c of chunks) {
        all.set(c, offset);
        offset += c.length;
      }
      resolve({ text: new TextDecoder().decode(all), bytes: all.length });
    });
    req.on("error", reject);
  });
}
