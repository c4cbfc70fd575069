/**
 * A two-finger pinch through scrcpy's control channel: both fingers go down (pointer ids 1 and
 * 2), move in steps, and lift. Positions are computed in physical pixels and sent in the
 * session's touch space (the video's size, or the screen's without video).
 *
 * @module
 */

import type { ScrcpySession } from "./scrcpy.ts";

/** Default `duration` of `Pinch`, ms (spec 8). */
export const DEFAULT_PINCH_MS = 500;
// The gap between the fingers at the pinched-in end, in physical pixels per dp.
const MIN_GAP_DP = 40;
// Touch events sent per finger: one every this many ms, within these bounds.
const STEP_MS = 40;
const MIN_STEPS = 5;
const MAX_STEPS = 30;

/** Where the fingers start and end: `[x, y]` pairs in physical pixels. */
export interface PinchPath {
  from: [[number, number], [number, number]];
  to: [[number, number], [number, number]];
}

/**
 * The fingers' path around `center` (physical pixels): `'out'` spreads them from a small gap by
 * `distance`, `'in'` brings them together by it; along the screen's axis with more room, kept on
 * the screen.
 */
export function pinchPath(
  center: [number, number],
  direction: "in" | "out",
  distance: number,
  screen: { width: number; height: number; dpr: number },
): PinchPath {
  const cx = Math.min(Math.max(center[0], 0), screen.width - 1);
  const cy = Math.min(Math.max(center[1], 0), screen.height - 1);
  const roomX = 2 * Math.min(cx, screen.width - 1 - cx);
  const roomY = 2 * Math.min(cy, screen.height - 1 - cy);
  const horizontal = roomX >= roomY;
  const minGap = MIN_GAP_DP * screen.dpr;
  const wide = Math.max(minGap, Math.min(minGap + distance, horizontal ? roomX : roomY));
  const fingers = (gap: number): [[number, number], [number, number]] =>
    horizontal
      ? [[cx - gap / 2, cy], [cx + gap / 2, cy]]
      : [[cx, cy - gap / 2], [cx, cy + gap / 2]];
  const [start, end] = direction === "out" ? [minGap, wide] : [wide, minGap];
  return { from: fingers(start), to: fingers(end) };
}

/** Runs the pinch; the fingers are lifted even when it is aborted half-way. */
export async function runPinch(
  session: ScrcpySession,
  path: PinchPath,
  ms: number,
  screen: { width: number; height: number },
  signal?: AbortSignal,
): Promise<void> {
  const sx = session.touchSize.width / screen.width;
  const sy = session.touchSize.height / screen.height;
  const send = (action: "down" | "move" | "up", finger: 0 | 1, t: number) => {
    const [x0, y0] = path.from[finger];
    const [x1, y1] = path.to[finger];
    return session.touch({
      action,
      pointerId: finger + 1,
      x: (x0 + (x1 - x0) * t) * sx,
      y: (y0 + (y1 - y0) * t) * sy,
    });
  };
  const steps = Math.min(MAX_STEPS, Math.max(MIN_STEPS, Math.round(ms / STEP_MS)));
  await send("down", 0, 0);
  await send("down", 1, 0);
  let t = 0;
  try {
    for (let step = 1; step <= steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, ms / steps));
      signal?.throwIfAborted();
      t = step / steps;
      await send("move", 0, t);
      await send("move", 1, t);
    }
  } finally {
    await send("up", 0, t);
    await send("up", 1, t);
  }
}
