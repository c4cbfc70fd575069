/**
 * What `sdk mcp` checks of what an assistant asks before acting on it (docs/security.md,
 * "Listeners"; docs/mcp.md, "Security"): an assistant's arguments can come from a prompt
 * injection, so `web_open` opens web pages only (not `file:` pages, which the `screenshot` tool
 * would hand back, nor the browser's own `chrome:` pages) and `cdp_endpoint` names a browser on
 * this machine only (not any URL the server would fetch), unless the server's own flags say
 * otherwise.
 *
 * @module
 */

import { SdkTypeError } from "@sdk/core";

/** What the server was started to allow (`sdk mcp` flags). */
export interface McpGuardOptions {
  /** `--allow-file-urls`: `web_open` may open any scheme (`file:`, `chrome:`, `data:`, ...). */
  allowFileUrls: boolean;
  /** `--allow-remote-cdp`: `cdp_endpoint` may name another host. */
  allowRemoteCdp: boolean;
}

/** HTTP sessions `sdk mcp --http` keeps open at once unless told otherwise. */
export const DEFAULT_MCP_MAX_SESSIONS = 16;

/** How long an HTTP session may go without a request before it is closed, ms (30 min). */
export const DEFAULT_MCP_SESSION_IDLE_MS = 30 * 60_000;

/** The default: web pages only, browsers on loopback only. */
export const DEFAULT_MCP_GUARD: McpGuardOptions = { allowFileUrls: false, allowRemoteCdp: false };

/** Whether a URL's hostname is this machine's loopback (`localhost`, 127.0.0.0/8, `[::1]`). */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Checks `web_open`'s arguments.
 *
 * @throws {SdkTypeError} for a page that is not `http:` / `https:` (without `allowFileUrls`), or a
 * `cdp_endpoint` that is not an `http(s):` / `ws(s):` address on loopback (without
 * `allowRemoteCdp`).
 */
export function checkWebOpen(
  args: { url: string; cdpEndpoint?: string },
  guard: McpGuardOptions,
): void {
  if (!guard.allowFileUrls && URL.canParse(args.url)) {
    const scheme = new URL(args.url).protocol;
    if (scheme !== "http:" && scheme !== "https:") {
      throw new SdkTypeError(
        `web_open opens http: and https: pages: got a ${scheme} address. Local files and the ` +
          `browser's own pages stay closed to assistants unless the server was started with ` +
          `--allow-file-urls`,
      );
    }
  }
  if (args.cdpEndpoint === undefined || guard.allowRemoteCdp) return;
  const endpoint = URL.canParse(args.cdpEndpoint) ? new URL(args.cdpEndpoint) : undefined;
  if (
    !endpoint || !["http:", "https:", "ws:", "wss:"].includes(endpoint.protocol) ||
    !isLoopbackHost(endpoint.hostname)
  ) {
    throw new SdkTypeError(
      `web_open: cdp_endpoint must be a DevTools address on loopback (http://127.0.0.1:9222, ` +
        `ws://localhost:...): got ${JSON.stringify(args.cdpEndpoint)}. Another host only if the ` +
        `server was started with --allow-remote-cdp`,
    );
  }
}
