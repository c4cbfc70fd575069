/**
 * Opening a page, with a failed navigation as the SDK's {@link NavigationError}: the URL, the
 * browser's reason (`net::ERR_NAME_NOT_RESOLVED`, a timeout, ...) and what to check, on one line
 * without the terminal escapes and call log of the driver library's message (which stays on
 * `cause`). The command line, the playground, `sdk mcp` and the page drivers' `Navigate` action
 * open pages through it.
 *
 * @module
 */

import { NavigationError } from "../_core.ts";

/** Terminal escape sequences (colors, dim), as Playwright puts them in its call logs. */
// deno-lint-ignore no-control-regex
const ANSI_ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** `text` without terminal escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_ESCAPES, "");
}

/** What to check for each reason the browser gives, first match wins. */
const HINTS: readonly [RegExp, string][] = [
  [
    /ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED/,
    "the host name does not resolve: check the address for a typo, and this machine's network, " +
    "DNS and proxy settings",
  ],
  [
    /ERR_CONNECTION_REFUSED/,
    "nothing accepts connections there: check that the server runs and listens on that host " +
    "and port",
  ],
  [
    /ERR_CONNECTION_(RESET|CLOSED|ABORTED)|ERR_EMPTY_RESPONSE|ERR_INVALID_HTTP_RESPONSE/,
    "the server closed the connection without a page: check the server, and whether the " +
    "address should be http or https",
  ],
  [
    /^timeout$|ERR_CONNECTION_TIMED_OUT|ERR_TIMED_OUT/,
    "no page arrived in time: check that the server is up and reachable from this machine " +
    "(firewall, proxy, VPN)",
  ],
  [
    /ERR_CERT_|ERR_SSL_/,
    "the browser does not trust the server's certificate, or TLS failed: check the " +
    "certificate, or the address's scheme",
  ],
  [
    /ERR_ADDRESS_UNREACHABLE|ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED|ERR_PROXY_/,
    "the address cannot be reached from this machine: check its network and proxy",
  ],
  [/ERR_FILE_NOT_FOUND/, "there is no such file: check the path"],
  [
    /ERR_UNSAFE_PORT/,
    "the browser refuses this port (it is reserved for another protocol): use another",
  ],
  [
    /invalid URL|ERR_INVALID_URL/i,
    "it is not an address the browser can open: write it in full, e.g. https://example.com/",
  ],
  [
    /ERR_ABORTED/,
    "the browser stopped loading it (a download, or another navigation took its place): check " +
    "that the address is a web page",
  ],
  [/ERR_BLOCKED_BY_/, "the browser blocked it (a policy, or the server's headers)"],
];

/** The browser's reason in a driver library's navigation error. */
function reasonOf(message: string): string {
  const net = /net::ERR_[A-Z0-9_]+/.exec(message);
  if (net) return net[0];
  if (/Timeout \d+ ?ms exceeded|Navigation timeout|TimeoutError/i.test(message)) return "timeout";
  if (/invalid URL/i.test(message)) return "invalid URL";
  return "unknown";
}

/**
 * The SDK's error for a navigation to `url` that failed with `error` (from Playwright's or
 * Puppeteer's `goto`).
 *
 * @param url the address that was opened.
 * @param error what the driver library threw; kept as `cause`.
 * @param timeoutMs the navigation's timeout, named in the message when it ran out.
 * @returns a {@link NavigationError} naming the URL, the reason and what to check.
 */
export function navigationError(url: string, error: unknown, timeoutMs?: number): NavigationError {
  if (error instanceof NavigationError) return error;
  const text = stripAnsi(error instanceof Error ? error.message : String(error));
  const reason = reasonOf(text);
  const hint = HINTS.find(([re]) => re.test(reason))?.[1];
  const why = reason === "timeout" && timeoutMs !== undefined
    ? `timeout (${timeoutMs} ms)`
    : reason === "unknown"
    ? text.split("\n")[0].trim()
    : reason;
  return new NavigationError(
    `Cannot open ${url}: ${why}${hint ? `; ${hint}` : ""}`,
    { url, reason },
    { cause: error },
  );
}

/** What {@link openUrl} waits for: the navigation's end, and how long it may take. */
export interface OpenUrlOptions {
  /** Wait for `"load"` (default), `"domcontentloaded"`, `"networkidle"` or `"commit"`. */
  waitUntil?: "load" | "domcontentloaded" | "networkidle" | "commit";
  /** Longest wait, ms; default the page's own navigation timeout (30000 unless set). */
  timeout?: number;
}

/** The part of a Playwright (DriverB) page that {@link openUrl} uses. */
export interface NavigablePage {
  /** Playwright's `page.goto`. */
  goto(url: string, options?: OpenUrlOptions): Promise<unknown>;
}

/**
 * Opens `url` in a Playwright (DriverB) page and waits for it (`load` by default).
 *
 * @param page the page.
 * @param url the address to open.
 * @param options what to wait for, and how long.
 * @throws {NavigationError} when the page does not open: the message names the URL, the
 * browser's reason and what to check (no terminal escapes; the library's error is its `cause`).
 *
 * @example
 * ```ts ignore
 * await openUrl(page, "https://example.com/"); // NavigationError (NAVIGATION_FAILED) if it fails
 * ```
 */
export async function openUrl(
  page: NavigablePage,
  url: string,
  options: OpenUrlOptions = {},
): Promise<void> {
  try {
    await page.goto(url, { waitUntil: options.waitUntil ?? "load", timeout: options.timeout });
  } catch (error) {
    throw navigationError(url, error, options.timeout);
  }
}
