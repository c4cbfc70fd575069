/**
 * The test model: a local OpenAI-compatible HTTP server that reads the SDK's model calls like a
 * vision-language model would (docs/model-protocol.md) and answers them from a script, in the
 * answer format of a chosen model family.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";
import { TEST_MODEL_FAMILIES, type TestModelFamily } from "./_bbox.ts";
import { DIALECT_FAMILIES, dialectOf } from "./_dialects.ts";
import { HttpError, send, sendError } from "./_http.ts";
import { scriptAnswerer } from "./_answers.ts";
import { completionHandler } from "./_completion.ts";
import type { RecordedCall, TestModel, TestModelOptions } from "./test_model_types.ts";

export type { TargetBox, TestModelFamily } from "./_bbox.ts";
export type { ImageSize, ReceivedScreenshot } from "./_image.ts";
export type {
  AssertCall,
  CallBase,
  CallKind,
  ExtractCall,
  LocateCall,
  PlanCall,
  ReceivedPromptImage,
  TestModelCall,
} from "./_request.ts";

type Http = typeof import("node:http");

function validateOptions(options: TestModelOptions): void {
  if (!options || typeof options !== "object" || !options.script) {
    throw new SdkTypeError("Cannot start the test model as 'script' is missing");
  }
  const family = options.family ?? "default";
  if (!TEST_MODEL_FAMILIES.includes(family as TestModelFamily) && !dialectOf(family)) {
    throw new SdkRangeError(
      `Cannot start the test model as 'family' must be one of ${
        [...TEST_MODEL_FAMILIES, ...DIALECT_FAMILIES].join(", ")
      }: current value is "${family}"`,
    );
  }
  const scale = options.imagePixelsPerCssPixel;
  if (scale !== undefined && !(Number.isFinite(scale) && scale > 0)) {
    throw new SdkRangeError(
      `Cannot start the test model as 'imagePixelsPerCssPixel' must be > 0: current value is ${scale}`,
    );
  }
  const wrap = options.wrap ?? "plain";
  if (!["plain", "fence", "prose"].includes(wrap)) {
    throw new SdkRangeError(
      `Cannot start the test model as 'wrap' must be "plain", "fence" or "prose": current value is "${wrap}"`,
    );
  }
  const cors = options.cors;
  if (
    cors !== undefined && typeof cors !== "boolean" &&
    !(typeof cors === "string" && /^https?:\/\/[^/\s]+$/.test(cors))
  ) {
    throw new SdkTypeError(
      `Cannot start the test model as 'cors' must be a boolean or an origin such as "http://127.0.0.1:8080": current value is ${
        JSON.stringify(cors)
      }`,
    );
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SdkRangeError(
      `Cannot start the test model as 'port' must be an integer 0-65535: current value is ${port}`,
    );
  }
}

/**
 * Starts the test model: an OpenAI-compatible chat-completions server on `127.0.0.1` that answers
 * the SDK's planning, locate, extract and assertion calls from `options.script`.
 *
 * The server answers `POST /v1/chat/completions` (and `/chat/completions`) in the response shape of
 * OpenAI chat completions, and `GET /v1/models`. For each call it:
 * 1. tells the call kind from the system prompt's first line and reads the user text's blocks
 *    (`<instruction>`, `<history>`, `<target>`, `<demand>`, `<return-type>`, `<assertion>`,
 *    `<context>`, and `<page-dom>` as `call.dom`) and the image size from the PNG or JPEG
 *    header; the prompt's named images
 *    (spec 2.5: a text part `Image "<name>":`, then the image) become `call.promptImages`, each
 *    with its `name`, its `size` read from the PNG/JPEG/GIF/WebP header (`null` for an http(s)
 *    link, whose `url` is given instead) and the data URI's `mime`, so a script can answer from
 *    them and a test can check what was sent;
 * 2. hands the typed call to the script's handler;
 * 3. turns CSS boxes in the reply into the family's `bbox` (image pixels are
 *    `css * (imagePixelsPerCssPixel ?? image.width / viewport.width)`; `default`/`qwen3-vl`:
 *    `[x1, y1, x2, y2]` 0-1000, `qwen2.5-vl`: absolute pixels, `gemini`: `[ymin, xmin, ymax, xmax]`
 *    0-1000; the other families as MODEL_FAMILIES.md says, doubao as a loose string, kimi as a
 *    point) and sends the answer JSON, wrapped as `options.wrap` says.
 *
 * Errors: a request that breaks the protocol (unknown system prompt, missing block, a stated image
 * size that differs from the image, a named image that is missing, named twice or unreadable)
 * gets HTTP 400; a wrong API key 401; a missing handler, a
 * handler that throws or returns `undefined` 500. Error responses carry `x-should-retry: false`
 * so the `openai` client does not retry them.
 *
 * @param options the script and how to answer.
 * @returns the running server; close it with `close()` (or `await using`).
 * With `cors` set, every answer carries `Access-Control-Allow-Origin` and a CORS preflight is
 * answered, so a page can call the server (see {@link TestModelOptions.cors}).
 *
 * @throws {TypeError} when `script` is missing or `cors` is neither a boolean nor an origin.
 * @throws {RangeError} when an option is out of range (family, port, scale, wrap).
 *
 * @example Answer a locate call in the qwen3-vl format
 * ```ts
 * import OpenAI from "openai";
 * import { createTestPng, startTestModel } from "@sdk/core/testing";
 *
 * const model = await startTestModel({
 *   family: "qwen3-vl",
 *   viewport: { width: 1280, height: 800 },
 *   script: { locate: () => ({ left: 100, top: 200, width: 120, height: 40 }) },
 * });
 * const client = new OpenAI({ baseURL: model.baseURL, apiKey: model.apiKey });
 * const answer = await client.chat.completions.create({
 *   model: model.modelName,
 *   messages: [
 *     { role: "system", content: "You are a UI element locator.\n..." },
 *     {
 *       role: "user",
 *       content: [
 *         { type: "image_url", image_url: { url: await createTestPng(1280, 800) } },
 *         { type: "text", text: "<target>\nthe Sign in button\n</target>\nThe screenshot is 1280 x 800 pixels." },
 *       ],
 *     },
 *   ],
 * });
 * console.log(answer.choices[0].message.content); // {"thought":"...","bbox":[78,250,172,300]}
 * await model.close();
 * ```
 */
export async function startTestModel(options: TestModelOptions): Promise<TestModel> {
  validateOptions(options);
  const http: Http = await import("node:http");
  const family = options.family ?? "default";
  const host = options.host ?? "127.0.0.1";
  const modelName = options.modelName ?? "sdk-test-model";
  const apiKey = options.apiKey ?? "sdk-test-model-key";
  const calls: RecordedCall[] = [];
  const handleCompletion = completionHandler({
    apiKey,
    modelName,
    family,
    answer: scriptAnswerer(options),
    calls,
  });

  const corsOrigin = options.cors === true
    ? "*"
    : typeof options.cors === "string"
    ? options.cors
    : undefined;

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://test-model").pathname.replace(/\/+$/, "");
    if (corsOrigin) {
      res.setHeader("access-control-allow-origin", corsOrigin);
      if (corsOrigin !== "*") res.setHeader("vary", "Origin");
      if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
        req.resume();
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, OPTIONS",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ??
            "authorization, content-type",
          "access-control-max-age": "600",
          "content-length": "0",
        });
        res.end();
        return;
      }
    }
    if (
      req.method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")
    ) {
      handleCompletion(req, res, path).catch(() => {
        if (!res.headersSent) {
          sendError(res, new HttpError(500, "server_error", "test model failed"));
        }
      });
      return;
    }
    if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
      send(res, 200, {
        object: "list",
        data: [{ id: modelName, object: "model", created: 0, owned_by: "sdk-testing" }],
      });
      return;
    }
    req.resume();
    sendError(
      res,
      new HttpError(404, "invalid_request_error", `test model: no route ${req.method} ${path}`),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port ?? 0;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const baseURL = `http://${urlHost}:${port}/v1`;
  let closing: Promise<void> | undefined;

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
    return closing;
  };

  return {
    baseURL,
    apiKey,
    modelName,
    family,
    calls,
    modelConfig(): Record<string, string> {
      const config: Record<string, string> = {
        SDK_MODEL_BASE_URL: baseURL,
        SDK_MODEL_API_KEY: apiKey,
        SDK_MODEL_NAME: modelName,
      };
      if (family !== "default") config.SDK_MODEL_FAMILY = family;
      return config;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
