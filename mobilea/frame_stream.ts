/**
 * The mirror stream as the observer's frame source (spec 4.8 "Observation"): its frames as they
 * are decoded, at most one per `minIntervalMs`; while the mirror is unavailable, screenshots at
 * `minIntervalMs` (at least 500 ms) instead.
 *
 * @module
 */

import type { FrameStream, FrameStreamOptions } from "@sdk/core";
import { encodeBase64 } from "@sdk/core";
import type { Mirror } from "./mirror.ts";

// While the mirror is unavailable, a screenshot at most this often, ms.
const MIN_POLL_MS = 500;

/**
 * Starts the stream: the mirror's current frame first (connecting it), then its new frames and,
 * while it is not connected, `screenshot()`'s data URIs.
 */
export async function startMirrorFrameStream(
  mirror: Mirror,
  screenshot: () => Promise<string>,
  options: FrameStreamOptions,
): Promise<FrameStream> {
  const minInterval = options.minIntervalMs ?? 0;
  let stopped = false;
  let last = 0;
  const unsubscribe = mirror.subscribe((frame) => {
    if (stopped || frame.timestamp - last < minInterval) return;
    last = frame.timestamp;
    options.onFrame({
      data: encodeBase64(frame.jpeg),
      format: "jpeg",
      timestamp: frame.timestamp,
    });
  });
  const pollMs = Math.max(minInterval, MIN_POLL_MS);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    if (stopped) return;
    if (!mirror.status().connected) {
      const shot = await screenshot().catch(() => undefined);
      const match = shot && /^data:image\/(png|jpeg);base64,(.*)$/.exec(shot);
      if (match && !stopped) {
        last = Date.now();
        options.onFrame({ data: match[2], format: match[1] as "png" | "jpeg", timestamp: last });
      }
    }
    if (!stopped) timer = setTimeout(poll, pollMs);
  };
  const first = await mirror.frame();
  if (first && !stopped) {
    last = first.timestamp;
    options.onFrame({
      data: encodeBase64(first.jpeg),
      format: "jpeg",
      timestamp: first.timestamp,
    });
  }
  timer = setTimeout(poll, pollMs);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      return Promise.resolve();
    },
  };
}
