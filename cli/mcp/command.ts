/**
 * `sdk mcp [--http] [--port N] [--dotenv FILE]`: parses the command's arguments and serves MCP
 * until the client leaves (stdio) or Ctrl+C (HTTP).
 *
 * @module
 */

import process from "node:process";
import { DEFAULT_MCP_MAX_SESSIONS, DEFAULT_MCP_SESSION_IDLE_MS } from "./guard.ts";
import { TOOLS } from "./tools.ts";

/** `sdk mcp`: the SDK's platforms as MCP tools (docs/mcp.md). */
export interface McpCommand {
  /** The command. */
  command: "mcp";
  /** Serve Streamable HTTP on 127.0.0.1 instead of stdio. */
  http: boolean;
  /** The HTTP port; 0 takes a free one. Default {@link DEFAULT_MCP_PORT}. */
  port: number;
  /** A dotenv file read first; default `.env` in the working directory when present. */
  dotenv?: string;
  /** `--allow-file-urls`: `web_open` may open `file:` and the browser's own pages. */
  allowFileUrls: boolean;
  /** `--allow-remote-cdp`: `cdp_endpoint` may name another host than loopback. */
  allowRemoteCdp: boolean;
  /** `--max-sessions N`: HTTP sessions open at once. Default {@link DEFAULT_MCP_MAX_SESSIONS}. */
  maxSessions: number;
  /**
   * `--session-idle-minutes M`: an HTTP session without a request for this long is closed (its
   * target too), ms. Default {@link DEFAULT_MCP_SESSION_IDLE_MS}.
   */
  sessionIdleMs: number;
}

/** The port `sdk mcp --http` listens on unless told otherwise. */
const DEFAULT_MCP_PORT = 5801;

/**
 * Parses the arguments after `sdk mcp`.
 *
 * @param usage makes the command line's usage error (exit code 2) from a message.
 * @throws what `usage` makes: an unknown flag, a flag without its value, a port outside 0-65535.
 */
export function parseMcpArgs(
  rest: readonly string[],
  usage: (message: string) => Error,
): McpCommand {
  const mcp: McpCommand = {
    command: "mcp",
    http: false,
    port: DEFAULT_MCP_PORT,
    allowFileUrls: false,
    allowRemoteCdp: false,
    maxSessions: DEFAULT_MCP_MAX_SESSIONS,
    sessionIdleMs: DEFAULT_MCP_SESSION_IDLE_MS,
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const [flag, inline] = a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined) throw usage(`${flag} needs a value`);
      return v;
    };
    if (flag === "--http") mcp.http = true;
    else if (flag === "--port") mcp.port = Number(value());
    else if (flag === "--dotenv") mcp.dotenv = value();
    else if (flag === "--allow-file-urls") mcp.allowFileUrls = true;
    else if (flag === "--allow-remote-cdp") mcp.allowRemoteCdp = true;
    else if (flag === "--max-sessions") mcp.maxSessions = Number(value());
    else if (flag === "--session-idle-minutes") mcp.sessionIdleMs = Number(value()) * 60_000;
    else {
      throw usage(
        `"sdk mcp" takes --http, --port N, --dotenv FILE, --allow-file-urls, --allow-remote-cdp, ` +
          `--max-sessions N and --session-idle-minutes M, not ${JSON.stringify(a)}`,
      );
    }
  }
  if (!(Number.isInteger(mcp.maxSessions) && mcp.maxSessions >= 1)) {
    throw usage(`--max-sessions takes a whole number >= 1: got ${mcp.maxSessions}`);
  }
  if (!(Number.isFinite(mcp.sessionIdleMs) && mcp.sessionIdleMs > 0)) {
    throw usage(`--session-idle-minutes takes a number of minutes > 0 (idle time)`);
  }
  if (!(Number.isInteger(mcp.port) && mcp.port >= 0 && mcp.port <= 65535)) {
    throw usage(`--port takes a whole number 0-65535: got ${mcp.port}`);
  }
  return mcp;
}

/** "Tools: a, b, ..." of the server's tools, in lines of at most 100 characters. */
function toolList(): string {
  const lines = ["Tools:"];
  for (const [i, tool] of TOOLS.entries()) {
    const word = `${tool.name}${i === TOOLS.length - 1 ? "." : ","}`;
    if (lines[lines.length - 1].length + 1 + word.length > 100) lines.push(word);
    else lines[lines.length - 1] += ` ${word}`;
  }
  return lines.join("\n");
}

/** The text of `sdk mcp --help`. */
export function mcpHelpText(): string {
  return `sdk mcp: the SDK's platforms as Model Context Protocol tools (docs/mcp.md)

Usage:
  sdk mcp                 serve MCP on stdin/stdout (an assistant starts the command)
  sdk mcp --http [--port N]
                          serve Streamable HTTP on 127.0.0.1:N/mcp (default ${DEFAULT_MCP_PORT}); every
                          request needs the bearer token printed at start
  --dotenv FILE           read environment variables from FILE first
  --allow-file-urls       let web_open open file: and the browser's own pages (default: http(s)
                          only; a screenshot of a local file hands its text to the assistant)
  --allow-remote-cdp      let cdp_endpoint name another host (default: loopback only)
  --max-sessions N        HTTP sessions open at once (default ${DEFAULT_MCP_MAX_SESSIONS}); more are refused (503)
  --session-idle-minutes M
                          close an HTTP session and its target after M minutes without a
                          request (default ${DEFAULT_MCP_SESSION_IDLE_MS / 60_000})

${toolList()}
The model comes from the server's SDK_MODEL_* variables; an RDP password from SDK_RDP_PASSWORD.`;
}

/**
 * Serves MCP as `command` says; resolves with the exit code once the server stops.
 *
 * @param write where the HTTP server prints its address and token (stderr: stdout may be MCP).
 */
export async function mcpCommand(
  command: McpCommand,
  write: (text: string) => void,
): Promise<number> {
  // Loaded here: the MCP SDK is not needed by `sdk run` or `sdk playground`.
  const { serveMcpHttp, serveMcpStdio } = await import("./server.ts");
  const guard = { allowFileUrls: command.allowFileUrls, allowRemoteCdp: command.allowRemoteCdp };
  if (!command.http) {
    await serveMcpStdio(guard);
    return 0;
  }
  const server = await serveMcpHttp({
    port: command.port,
    guard,
    maxSessions: command.maxSessions,
    sessionIdleMs: command.sessionIdleMs,
  });
  write(
    `MCP on ${server.url}\nBearer token: ${server.token}\n` +
      "(every request needs Authorization: Bearer <token>; keep it to yourself)\n" +
      "Press Ctrl+C to stop.\n",
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}
