/**
 * Who may drive a playground: the per-run token, the check of a request's `Origin` and `Host`,
 * and the warning for a host other than loopback (spec 4.11: the playground host variable).
 *
 * @module
 */

import type { IncomingMessage } from "node:http";

/** The environment variable that sets the playground's host (`0.0.0.0`: every interface). */
export const PLAYGROUND_HOST_ENV = "SDK_PLAYGROUND_HOST";

/** The host a playground listens on when neither the option nor the variable says otherwise. */
export const DEFAULT_PLAYGROUND_HOST = "127.0.0.1";

/** The request header that carries the token in the page's API calls. */
const TOKEN_HEADER = "x-playground-token";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/** A new random token: 32 bytes from the platform's cryptographic generator, as hex. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Compares a token from a request with the run's in constant time: the time depends on the
 * lengths only (the run's length is no secret), never on where the first difference is.
 */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined || given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) {
    difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  }
  return difference === 0;
}

/** Whether `host` is a wildcard address, which listens on every interface. */
export function isWildcardHost(host: string): boolean {
  return WILDCARD_HOSTS.has(host);
}

/**
 * The warning to show for a host other than loopback, or `undefined` for loopback: anyone who
 * can reach the port and learns the printed URL can drive the browser with the model's key.
 */
export function playgroundHostWarning(host: string): string | undefined {
  if (LOOPBACK_HOSTS.has(host)) return undefined;
  const where = isWildcardHost(host)
    ? `all network interfaces (${host})`
    : `the network address ${host}`;
  return `Warning: the playground listens on ${where}, not only on this machine. Anyone who ` +
    `reaches the port and gets the printed URL (its token) can drive the browser and spend the ` +
    `model's key: use it on a trusted network only, or unset ${PLAYGROUND_HOST_ENV} to listen ` +
    `on ${DEFAULT_PLAYGROUND_HOST}.`;
}

/** Why a request was refused, for a 403 answer; `undefined` when it may go on. */
export type Refusal = string | undefined;

/** What {@link checkRequest} compares a request with. */
export interface RequestGuard {
  /** The run's token. */
  token: string;
  /** The host the server listens on. */
  host: string;
  /** The port the server listens on. */
  port: number;
}

/**
 * Checks a request before anything else is done with it.
 *
 * - The `Host` header must name the server: on a loopback host, `127.0.0.1`, `localhost` or
 *   `[::1]` with the port, so a DNS-rebinding page (a foreign name resolving to 127.0.0.1) is
 *   refused even before the token; on another host any name, as the machine's names are unknown.
 * - An `Origin` header, when sent, must be the page's own origin (`http://` and the `Host`).
 *   Browsers send it on every cross-origin request and every POST, so another site's page is
 *   refused whatever it carries.
 * - The token, from {@link TOKEN_HEADER} or the `token` query parameter (or `tokenInPath`, for
 *   report files), must be the run's.
 *
 * @returns the reason to refuse, or `undefined`.
 */
export function checkRequest(
  req: Pick<IncomingMessage, "headers">,
  url: URL,
  guard: RequestGuard,
  tokenInPath?: string,
): Refusal {
  const host = req.headers.host ?? "";
  if (LOOPBACK_HOSTS.has(guard.host)) {
    const names = ["127.0.0.1", "localhost", "[::1]"].map((n) => `${n}:${guard.port}`);
    if (!names.includes(host.toLowerCase())) return `unknown Host header "${host}"`;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    return `requests from another origin (${origin}) are refused`;
  }
  const header = req.headers[TOKEN_HEADER];
  const given = tokenInPath ?? (typeof header === "string" ? header : undefined) ??
    url.searchParams.get("token") ?? undefined;
  if (!sameToken(given, guard.token)) {
    return given === undefined
      ? "the token is missing: open the URL the playground printed (with ?token=...)"
      : "the token is wrong: open the URL the playground printed (with ?token=...)";
  }
  return undefined;
}
