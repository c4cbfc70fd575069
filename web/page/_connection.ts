/**
 * Errors of a page whose browser went away: a driver library says "Target page, context or
 * browser has been closed" or "Protocol error: Connection closed" whether the user closed the
 * page, the browser process ended or the connection to a remote browser endpoint dropped. The
 * drivers ask their library which one happened and say so, and what to do, as a
 * `ConnectionError` of kind `lost` (`CONNECTION_LOST`).
 *
 * @module
 */

import { ConnectionError } from "../_core.ts";

/** What a driver library knows of its page: there, closed, or its browser disconnected. */
export type PageConnection = "connected" | "page-closed" | "browser-disconnected";

/**
 * The error to throw for a failed page call: `error` itself while the page is connected (the
 * call failed for another reason), else a {@link ConnectionError} (kind `lost`) saying the page
 * or the browser is gone, with `error` as its cause.
 *
 * @param error what the driver library threw.
 * @param state the page's state now.
 * @param endpoint what was lost, for the error's `endpoint`: the browser's WebSocket endpoint
 *   when the driver knows it, else the page's last URL.
 */
export function lostConnectionError(
  error: unknown,
  state: PageConnection,
  endpoint: string,
): unknown {
  if (state === "connected") return error;
  const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
  const message = state === "browser-disconnected"
    ? "the connection to the browser is lost: the browser closed, or the connection to a " +
      "remote browser endpoint dropped. Connect to the browser again and create a new agent " +
      `on one of its pages (${detail})`
    : `the page was closed. Create a new agent on an open page (${detail})`;
  return new ConnectionError(message, { kind: "lost", endpoint }, { cause: error });
}

/**
 * `input` with each of its methods rejecting with {@link lostConnectionError} (the mouse and
 * keyboard of a page driver).
 */
export function guardPageCalls<T extends object>(
  input: T,
  state: () => PageConnection,
  endpoint: () => string,
): T {
  const guarded = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(input)) {
    guarded[name] = typeof fn !== "function" ? fn : async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (error) {
        throw lostConnectionError(error, state(), endpoint());
      }
    };
  }
  return guarded as T;
}
