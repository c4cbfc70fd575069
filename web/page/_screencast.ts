/**
 * The DevTools-protocol screencast, shared by the drivers (private to `@sdk/web`).
 *
 * Both driver libraries can open a raw protocol session on a Chromium page (see `_touch.ts`);
 * the screencast runs on a session of its own, opened when it starts and detached when it stops,
 * so it never disturbs the session touch input keeps open.
 *
 * @module
 */

import type { PageDriverScreencast, ScreencastOptions } from "./page_driver.ts";
import type { ProtocolSession } from "./_touch.ts";
import { UnsupportedActionError } from "../_core.ts";

/** What the screencast needs from a driver's protocol session: commands, events, detach. */
export interface ScreencastSession extends ProtocolSession {
  /** Adds a listener for a protocol event. */
  on(event: string, listener: (params: never) => void): unknown;
  /** Removes a listener added with `on`. */
  off(event: string, listener: (params: never) => void): unknown;
  /** Ends the session. */
  detach(): Promise<void>;
}

// `Page.screencastFrame`'s parameters (the parts used here).
interface ScreencastFrameEvent {
  data: string;
  sessionId: number;
  metadata: { timestamp?: number };
}

/**
 * Starts a screencast on a session that `open` creates: `Page.startScreencast` in JPEG at
 * `quality`, every frame; the acks of `Page.screencastFrame` are spaced `minIntervalMs` apart
 * (Chromium sends a frame per ack, so this paces the stream)
 * and handed to `onFrame` with its timestamp in ms since the epoch (the frame's
 * `metadata.timestamp`, seconds, or the arrival time without one), never earlier than the
 * previous frame's.
 *
 * @throws {UnsupportedActionError} saying the screencast needs a Chromium-based browser when no session opens or
 * the browser refuses the command.
 */
export async function protocolScreencast(
  open: () => Promise<ScreencastSession>,
  options: ScreencastOptions,
): Promise<PageDriverScreencast> {
  let session: ScreencastSession;
  try {
    session = await open();
  } catch (error) {
    throw new UnsupportedActionError(
      `The screencast needs a Chromium-based browser (it is sent over the DevTools protocol), ` +
        `and no protocol session could be opened on this page: ${(error as Error).message}`,
      "startScreencast",
      { cause: error },
    );
  }
  let stopped = false;
  let last = 0;
  const pace = Math.max(0, options.minIntervalMs ?? 0);
  const ack = (sessionId: number) =>
    session.send("Page.screencastFrameAck", { sessionId }).catch(() => {
      // The session ended meanwhile.
    });
  // Chromium keeps up to three frames unacked and sends another for each ack, so acks spaced
  // `pace` apart make one frame per `pace` once the first few arrived (a page animating at 60
  // frames a second would otherwise flood the protocol). Frames are handed on when they arrive.
  let nextAck = 0;
  const listener = (event: ScreencastFrameEvent) => {
    // Always acked, even after stop, so the browser is never left waiting.
    if (stopped || pace === 0) ack(event.sessionId);
    else {
      const now = Date.now();
      nextAck = Math.max(now, nextAck + pace);
      setTimeout(() => ack(event.sessionId), nextAck - now);
    }
    if (stopped) return;
    const seconds = event.metadata?.timestamp;
    const timestamp = Math.max(
      typeof seconds === "number" && seconds > 0 ? seconds * 1000 : Date.now(),
      last,
    );
    last = timestamp;
    options.onFrame(event.data, timestamp);
  };
  session.on("Page.screencastFrame", listener as (params: never) => void);
  try {
    await session.send("Page.startScreencast", {
      format: "jpeg",
      quality: options.quality,
      everyNthFrame: 1,
    });
  } catch (error) {
    stopped = true;
    session.off("Page.screencastFrame", listener as (params: never) => void);
    await session.detach().catch(() => {});
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    stop(): Promise<void> {
      return stopping ??= (async () => {
        stopped = true;
        session.off("Page.screencastFrame", listener as (params: never) => void);
        // The page may be closed already: then there is nothing left to stop.
        await session.send("Page.stopScreencast").catch(() => {});
        await session.detach().catch(() => {});
      })();
    },
  };
}
