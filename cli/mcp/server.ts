/**
 * `sdk mcp`: the SDK's platforms as Model Context Protocol tools (docs/mcp.md), over stdio (the
 * default: an assistant spawns the command) or Streamable HTTP on 127.0.0.1 only, where every
 * request needs the bearer token printed at start and a browser's request is refused unless its
 * Origin is the server's own.
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
import { McpSession } from "./session.ts";
import { TOOLS } from "./tools.ts";

/** The model's API keys of the server's environment: never part of a tool result. */
function secrets(): string[] {
  return Object.entries(process.env)
    .filter(([name, value]) => /^SDK_.*API_KEY$/.test(name) && value)
    .map(([, value]) => value!);
}

/** An MCP server over one session; the session's target closes when the server does. */
function mcpServer(): { server: Server; session: McpSession } {
  const session = new McpSession(secrets());
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
export async function serveMcpStdio(): Promise<void> {
  const { server, session } = mcpServer();
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
 * `Authorization: Bearer <token>`; a request with an `Origin` other than the server's own (a web
 * page's) is refused, so a page cannot drive the server through the user's browser.
 *
 * @throws {ConnectionError} (`refused`) when the port is in use.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const token = options.token ?? randomBytes(32).toString("hex");
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; session: McpSession }
  >();
  let port = options.port;
  const httpServer = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/mcp") return refuse(res, 404, "Not found: the endpoint is /mcp");
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
    if (known) return await known.transport.handleRequest(req, res);
    if (typeof id === "string") return refuse(res, 404, "Unknown session: initialize again");
    const { server, session } = mcpServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(16).toString("hex"),
      onsessioninitialized: (sid: string) => void sessions.set(sid, { transport, session }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void session.close().catch(() => {});
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
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
      for (const { transport, session } of sessions.values()) {
        await transport.close().catch(() => {});
        await session.close().catch(() => {});
      }
      sessions.clear();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections?.();
    },
  };
}
