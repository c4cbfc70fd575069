/**
 * `sdk mcp`: the SDK's platforms as Model Context Protocol tools (docs/mcp.md), over stdio (the
 * default: an assistant spawns the command) or Streamable HTTP on 127.0.0.1 only, where every
 * request needs the bearer token printed at start, its `Host` must name the listener (DNS
 * rebinding), a browser's request is refused unless its Origin is the server's own, and sessions
 * are capped and closed when idle.
 *
 * @module
 */

import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ConnectionError, SDK_VERSION } from "@sdk/core";
import {
  DEFAULT_MCP_GUARD,
  DEFAULT_MCP_MAX_SESSIONS,
  DEFAULT_MCP_SESSION_IDLE_MS,
  type McpGuardOptions,
} from "./guard.ts";
import { McpSession } from "./session.ts";
import { TOOLS } from "./tools.ts";

/** The model's API keys of the server's environment: never part of a tool result. */
function secrets(): string[] {
  return Object.entries(process.env)
    .filter(([name, value]) => /^SDK_.*API_KEY$/.test(name) && value)
    .map(([, value]) => value!);
}

/** An MCP server over one session; the session's target closes when the server does. */
function mcpServer(guard: McpGuardOptions): { server: Server; session: McpSession } {
  const session = new McpSession(secrets(), guard);
  const server = new Server(
    { name: "sdk", version: SDK_VERSION },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...TOOLS] }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request: { params: { name: string; arguments?: Record<string, unknown> } }) =>
      await session.call(request.params.name, request.params.arguments ?? {}) as never,
  );
  server.onclose = () => void session.close().catch(() => {});
  return { server, session };
}

/**
 * Serves MCP over stdin/stdout until the client closes it or its end of stdin (an assistant that
 * quits): then the target closes, its report final, and the command ends.
 */
export async function serveMcpStdio(guard: McpGuardOptions = DEFAULT_MCP_GUARD): Promise<void> {
  const { server, session } = mcpServer(guard);
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  // The MCP SDK's stdio transport does not watch for the end of stdin.
  const stdinEnded = () => void server.close().catch(() => {});
  process.stdin.once("end", stdinEnded);
  process.stdin.once("close", stdinEnded);
  await server.connect(new StdioServerTransport());
  await closed;
  process.stdin.off("end", stdinEnded);
  process.stdin.off("close", stdinEnded);
  await session.close().catch(() => {});
}

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  /** Port on 127.0.0.1; 0 takes a free one. */
  port: number;
  /** The bearer token; default: 32 random bytes, hex. */
  token?: string;
  /** What `web_open` may open beyond web pages and loopback browsers. Default: nothing more. */
  guard?: McpGuardOptions;
  /** Sessions open at once; an `initialize` past it is refused with 503. Default 16. */
  maxSessions?: number;
  /** A session without a request for this long is closed with its target, ms. Default 30 min. */
  sessionIdleMs?: number;
}

/** A running HTTP MCP server. */
export interface McpHttpServer {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The bearer token every request needs. */
  token: string;
  /** Stops the server and closes every session's target. */
  close(): Promise<void>;
}

/** One HTTP session: its transport and targets, when it was last used, its calls in flight. */
interface HttpSession {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  lastUsed: number;
  busy: number;
}

function sameToken(given: string, token: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }));
}

/**
 * Serves MCP over Streamable HTTP on 127.0.0.1 only. Every request needs
 * `Authorization: Bearer <token>` and a `Host` that names the listener (403 otherwise: DNS
 * rebinding); a request with an `Origin` other than the server's own (a web page's) is refused,
 * so a page cannot drive the server through the user's browser. At most `maxSessions` sessions
 * are open (503 past it); one without a request for `sessionIdleMs` is closed with its target.
 *
 * @throws {ConnectionError} (`refused`) when the port is in use.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const token = options.token ?? randomBytes(32).toString("hex");
  const guard = options.guard ?? DEFAULT_MCP_GUARD;
  const maxSessions = options.maxSessions ?? DEFAULT_MCP_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
  const sessions = new Map<string, HttpSession>();
  // Sessions being initialized: they count towards the cap before they have an id.
  let pending = 0;
  const closeSession = async (entry: HttpSession) => {
    if (entry.transport.sessionId) sessions.delete(entry.transport.sessionId);
    await entry.transport.close().catch(() => {});
    await entry.session.close().catch(() => {});
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const entry of sessions.values()) {
      if (entry.busy === 0 && now - entry.lastUsed >= idleMs) void closeSession(entry);
    }
  }, Math.max(50, Math.min(idleMs / 4, 60_000)));
  let port = options.port;
  const httpServer = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/mcp") return refuse(res, 404, "Not found: the endpoint is /mcp");
    // DNS rebinding: a page of another name resolved to 127.0.0.1 sends its own name as Host.
    const host = (req.headers.host ?? "").toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      return refuse(
        res,
        403,
        `Forbidden: the Host header must name this server (127.0.0.1:${port}): got ` +
          JSON.stringify(req.headers.host ?? ""),
      );
    }
    const origin = req.headers.origin;
    if (origin && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      return refuse(res, 403, `Forbidden: requests from ${origin} are refused`);
    }
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !sameToken(auth.slice("Bearer ".length), token)) {
      return refuse(
        res,
        401,
        "Unauthorized: send Authorization: Bearer <the token sdk mcp printed>",
      );
    }
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) {
      // A GET holds the session's event stream open: it is no call in flight.
      const call = req.method !== "GET";
      known.lastUsed = Date.now();
      if (call) known.busy++;
      try {
        return await known.transport.handleRequest(req, res);
      } finally {
        if (call) known.busy--;
        known.lastUsed = Date.now();
      }
    }
    if (typeof id === "string") return refuse(res, 404, "Unknown session: initialize again");
    if (sessions.size + pending >= maxSessions) {
      return refuse(
        res,
        503,
        `Too many sessions: ${maxSessions} sessions are open (--max-sessions); close one ` +
          `(DELETE /mcp) or wait until an idle one is closed`,
      );
    }
    const { server, session } = mcpServer(guard);
    const entry: HttpSession = {
      transport: undefined as unknown as StreamableHTTPServerTransport,
      session,
      lastUsed: Date.now(),
      busy: 0,
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(16).toString("hex"),
      onsessioninitialized: (sid: string) => void sessions.set(sid, entry),
    });
    entry.transport = transport;
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void session.close().catch(() => {});
    };
    pending++;
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } finally {
      pending--;
    }
  });
  port = await new Promise<number>((resolve, reject) => {
    httpServer.once("error", (e: Error & { code?: string }) =>
      reject(
        e.code === "EADDRINUSE"
          ? new ConnectionError(
            `Cannot serve MCP: port ${options.port} on 127.0.0.1 is in use; choose another ` +
              "(--port N, or 0 for a free one)",
            { kind: "refused", endpoint: `127.0.0.1:${options.port}` },
            { cause: e },
          )
          : e,
      ));
    httpServer.listen(options.port, "127.0.0.1", () => {
      const address = httpServer.address();
      resolve(typeof address === "object" && address ? address.port : options.port);
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    async close() {
      clearInterval(sweep);
      for (const entry of [...sessions.values()]) await closeSession(entry);
      sessions.clear();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections?.();
    },
  };
}
