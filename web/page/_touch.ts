/**
 * Touch input over a DevTools-protocol session, shared by the drivers (private to `@sdk/web`).
 *
 * Both driver libraries can open a raw protocol session on a Chromium page; touch goes through it
 * because neither library sends multi-finger touch sequences itself.
 *
 * @module
 */

import type { PageDriverTouch, TouchEventType, TouchPoint } from "./page_driver.ts";
import { SdkTypeError, UnsupportedActionError } from "../_core.ts";

/** The one method of a driver's DevTools-protocol session that touch input uses. */
export interface ProtocolSession {
  /** Sends a protocol command and resolves with its result. */
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

// Enough fingers for any gesture the device makes (Pinch uses two).
const MAX_TOUCH_POINTS = 5;

/**
 * A {@link PageDriverTouch} over a protocol session that `open` creates on first use (and again
 * after a failed attempt). The session stays open while the page lives: closing it would end the
 * touch emulation.
 */
export function protocolTouch(open: () => Promise<ProtocolSession>): PageDriverTouch {
  let session: Promise<ProtocolSession> | undefined;
  let enabled: Promise<void> | undefined;
  const connect = (): Promise<ProtocolSession> =>
    session ??= open().catch((error) => {
      session = undefined;
      throw new UnsupportedActionError(
        `Touch input needs a Chromium-based browser (it is sent over the DevTools protocol), ` +
          `and no protocol session could be opened on this page: ${(error as Error).message}`,
        "touch",
        { cause: error },
      );
    });
  return {
    enable(): Promise<void> {
      return enabled ??= (async () => {
        const s = await connect();
        await s.send("Emulation.setTouchEmulationEnabled", {
          enabled: true,
          maxTouchPoints: MAX_TOUCH_POINTS,
        });
      })().catch((error) => {
        enabled = undefined;
        throw error;
      });
    },
    async dispatch(type: TouchEventType, points: readonly TouchPoint[]): Promise<void> {
      if (type === "touchEnd" && points.length > 0) {
        throw new SdkTypeError("touchEnd lifts every finger: pass no points");
      }
      if (type !== "touchEnd" && points.length === 0) {
        throw new SdkTypeError(`${type} needs at least one touch point`);
      }
      const s = await connect();
      await s.send("Input.dispatchTouchEvent", {
        type,
        touchPoints: points.map(({ x, y, id }) => ({ x, y, id })),
      });
    },
  };
}
