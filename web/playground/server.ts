/**
 * The playground's HTTP routes. Every request passes {@link checkRequest} first (Host, Origin,
 * token), then:
 *
 * - `GET /?token=...`: the page.
 * - `GET /api/info`: the target, the model in use (no key) and the APIs.
 * - `GET /api/screen`: the live screen as Server-Sent Events, one `frame` event per frame
 *   (`{ format, data, timestamp }`, base64 image data).
 * - `POST /api/call`: `{ api, prompt, value? }` runs one call; 409 while another runs.
 * - `GET /report/<token>/<file>`: the agent's report (the token is in the path so that the
 *   report's relative screenshot links carry it).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Agent } from "@sdk/core";
import { PLAYGROUND_APIS, readCallRequest, runCall } from "./calls.ts";
import { type PlaygroundModelInfo, redact } from "./model_info.ts";
import { PLAYGROUND_PAGE } from "./page.ts";
import { readReportFile, type ReportLocation, reportPath } from "./report_files.ts";
import type { ScreenFeed } from "./screen_feed.ts";
import { checkRequest, type RequestGuard } from "./security.ts";
import { SdkRangeError } from "@sdk/core";

/** What the routes work with. */
export interface PlaygroundRoutesContext {
  /** The token, host and port requests are checked against (the port is set once listening). */
  guard: RequestGuard;
  /** The agent, once the target is open; until then the API answers 503. */
  agent?: Agent;
  /** The live screen of the agent's device. */
  feed?: ScreenFeed;
  /** The model in use. */
  model: PlaygroundModelInfo;
  /** Whether the report is a folder (`outputFormat: 'html-and-external-assets'`). */
  reportFolder: boolean;
}

/** Largest call request body read, bytes. */
const MAX_BODY_BYTES = 1 << 20;

const inlineHash = (tag: string) => {
  const body = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(PLAYGROUND_PAGE)![1];
  return `'sha256-${createHash("sha256").update(body).digest("base64")}'`;
};

// The page runs its own inline script and style only, talks to this server only, and cannot be
// framed (no clickjacking of the Run button).
const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${inlineHash("script")}`,
  `style-src ${inlineHash("style")}`,
  "img-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

// The report's scripts run in a sandbox: an opaque origin, so they cannot call this API.
const REPORT_CSP = "sandbox allow-scripts allow-popups allow-downloads; frame-ancestors 'none'";

const COMMON_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_BODY_BYTES) throw new SdkRangeError("the request body is over 1 MB");
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Creates the request handler, and a function that ends the open screen streams (the server's
 * `close` waits for open connections).
 */
export function playgroundRoutes(ctx: PlaygroundRoutesContext): {
  handle(req: IncomingMessage, res: ServerResponse): void;
  endStreams(): void;
} {
  const streams = new Set<ServerResponse>();
  let running: string | undefined;

  const routes = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const reportPrefix = `/report/${ctx.guard.token}/`;
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /") {
      res.writeHead(200, {
        ...COMMON_HEADERS,
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": PAGE_CSP,
        "x-frame-options": "DENY",
      });
      res.end(PLAYGROUND_PAGE);
      return;
    }
    if (url.pathname.startsWith(reportPrefix) && req.method === "GET") {
      const location: ReportLocation = { file: ctx.agent?.reportFile, folder: ctx.reportFolder };
      const file = await readReportFile(location, url.pathname.slice(reportPrefix.length));
      if (!file) return sendJson(res, 404, { error: "no such report file" });
      res.writeHead(200, {
        ...COMMON_HEADERS,
        "content-type": file.type,
        "content-length": String(file.body.byteLength),
        "content-security-policy": REPORT_CSP,
      });
      res.end(file.body);
      return;
    }
    const agent = ctx.agent, feed = ctx.feed;
    if (!agent || !feed) return sendJson(res, 503, { error: "the target is still opening" });
    if (route === "GET /api/info") {
      const target = await agent.interface.describe?.().catch(() => undefined);
      return sendJson(res, 200, {
        target: target ?? agent.interface.interfaceType,
        model: { models: ctx.model.models, ...(ctx.model.error ? { error: ctx.model.error } : {}) },
        apis: Object.entries(PLAYGROUND_APIS).map(([name, spec]) => ({
          name,
          value: spec.value === true,
        })),
      });
    }
    if (route === "GET /api/screen") return await streamScreen(res, feed);
    if (route === "POST /api/call") {
      if (running) {
        return sendJson(res, 409, {
          error: `another call is running (${running}); wait for its result, then try again`,
        });
      }
      running = "reading the request";
      try {
        let request;
        try {
          request = readCallRequest(JSON.parse(await readBody(req)));
        } catch (e) {
          const status = e instanceof RangeError ? 413 : 400;
          return sendJson(res, status, { error: (e as Error).message });
        }
        running = `${request.api} "${request.prompt.slice(0, 60)}"`;
        const result = await runCall(agent, request, ctx.model.secrets);
        const id = agent._unstableLogContent().executions.at(-1)?.id;
        const path = reportPath({ file: agent.reportFile, folder: ctx.reportFolder }, id);
        if (path) result.reportUrl = reportPrefix + path;
        return sendJson(res, 200, result);
      } finally {
        running = undefined;
      }
    }
    sendJson(res, url.pathname.startsWith("/api/") ? 405 : 404, {
      error: `no route ${route}`,
    });
  };

  const streamScreen = async (res: ServerResponse, feed: ScreenFeed) => {
    res.writeHead(200, {
      ...COMMON_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      "connection": "keep-alive",
    });
    res.write("retry: 1000\n\n");
    streams.add(res);
    // A slow viewer gets the newest frame when its socket drains, never a backlog.
    let blocked = false;
    let pending: string | undefined;
    const send = (event: string) => {
      if (blocked) {
        pending = event;
        return;
      }
      blocked = !res.write(event);
    };
    res.on("drain", () => {
      blocked = false;
      const next = pending;
      pending = undefined;
      if (next) send(next);
    });
    let unsubscribe: (() => Promise<void>) | undefined;
    res.on("close", () => {
      streams.delete(res);
      void unsubscribe?.();
    });
    try {
      unsubscribe = await feed.subscribe((frame) =>
        send(`event: frame\ndata: ${JSON.stringify(frame)}\n\n`)
      );
      if (res.destroyed) await unsubscribe();
    } catch (e) {
      res.end(`event: failure\ndata: ${JSON.stringify((e as Error).message)}\n\n`);
    }
  };

  return {
    handle(req, res) {
      const url = new URL(req.url ?? "/", "http://playground.invalid");
      const reportPrefix = `/report/`;
      const inPath = url.pathname.startsWith(reportPrefix)
        ? url.pathname.slice(reportPrefix.length).split("/")[0]
        : undefined;
      const refusal = checkRequest(req, url, ctx.guard, inPath);
      if (refusal) {
        req.resume();
        return sendJson(res, 403, { error: refusal });
      }
      routes(req, res, url).catch((e) => {
        const message = redact((e as Error).message, ctx.model.secrets);
        if (!res.headersSent) sendJson(res, 500, { error: message });
        else res.end();
      });
    },
    endStreams() {
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}
