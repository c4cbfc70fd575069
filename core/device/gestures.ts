/**
 * One-finger gesture geometry the phone platforms share: the strokes of `Scroll` and the end of
 * a `Swipe` given by direction. Points are in the device's logical pixels; the platforms turn
 * them into their own touch commands.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type { Point, Size } from "./types.ts";
import type { ActionParams } from "./params.ts";
import { readEnumParam, readLocateParam, readPositiveNumberParam } from "./params.ts";
import { SCROLL_DIRECTIONS, SCROLL_TYPES, SWIPE_DIRECTIONS } from "./actions.ts";

/** One finger move: from, to, and how long it takes (ms). */
export interface Stroke {
  /** Start, logical pixels. */
  from: Point;
  /** End, logical pixels. */
  to: Point;
  /** Duration, ms. */
  ms: number;
}

// A single scroll moves this fraction of the screen unless a distance is given; never more than
// 0.9 of it. To an end: 5 strokes of 0.8 of the screen, 150 ms each.
const SCROLL_SCREEN_FRACTION = 0.7;
const SCROLL_SWIPE_MS = 500;
const SCROLL_TO_END_SWIPES = 5;
const SCROLL_TO_END_MS = 150;

/**
 * The finger strokes of a `Scroll` action: revealing content below moves the finger up, and so
 * on; both ends stay on the screen (the start is shifted back when the move would leave it).
 *
 * @param param the action's `param` (`locate?`, `direction`, `scrollType`, `distance`).
 * @param size the logical screen size.
 * @throws {TypeError} for a malformed parameter (naming `Scroll` and the parameter).
 */
export function scrollStrokes(param: ActionParams, size: Size): Stroke[] {
  const { width, height } = size;
  const start = readLocateParam("Scroll", param, false)?.center ?? [width / 2, height / 2];
  const direction = readEnumParam("Scroll", param, "direction", SCROLL_DIRECTIONS, "down");
  const scrollType = readEnumParam("Scroll", param, "scrollType", SCROLL_TYPES, "singleAction");
  const distance = readPositiveNumberParam("Scroll", param, "distance");
  const single = scrollType === "singleAction";
  const reveal = single ? direction : {
    scrollToBottom: "down",
    scrollToTop: "up",
    scrollToRight: "right",
    scrollToLeft: "left",
  }[scrollType] as (typeof SCROLL_DIRECTIONS)[number];
  const vertical = reveal === "down" || reveal === "up";
  const span = vertical ? height : width;
  const travel = Math.min(
    single ? distance ?? span * SCROLL_SCREEN_FRACTION : span * 0.8,
    span * 0.9,
  );
  const sign = reveal === "down" || reveal === "right" ? -1 : 1;
  const along = vertical ? start[1] : start[0];
  const from = Math.min(
    Math.max(along, sign < 0 ? travel : 0),
    sign < 0 ? span - 1 : span - 1 - travel,
  );
  const to = from + sign * travel;
  const point = (v: number): Point => vertical ? [start[0], v] : [v, start[1]];
  const stroke = {
    from: point(from),
    to: point(to),
    ms: single ? SCROLL_SWIPE_MS : SCROLL_TO_END_MS,
  };
  return Array.from({ length: single ? 1 : SCROLL_TO_END_SWIPES }, () => ({ ...stroke }));
}

/**
 * Where a `Swipe` starts and ends: `start` (default the screen center) to `end`, or, without
 * `end`, `distance` (default half the screen along the way) in `direction`.
 *
 * @throws {TypeError} when neither `end` nor `direction` is given, or for a malformed parameter.
 */
export function swipeEnds(param: ActionParams, size: Size): { from: Point; to: Point } {
  const { width, height } = size;
  const from = readLocateParam("Swipe", param, false, "start")?.center ?? [width / 2, height / 2];
  const end = readLocateParam("Swipe", param, false, "end")?.center;
  if (end) return { from, to: end };
  if (param.direction === undefined || param.direction === null) {
    throw new SdkTypeError(
      "Cannot run Swipe: give 'end' (a located element) or 'direction' (up, down, left, right)",
    );
  }
  const direction = readEnumParam("Swipe", param, "direction", SWIPE_DIRECTIONS, "up");
  const vertical = direction === "up" || direction === "down";
  const distance = readPositiveNumberParam("Swipe", param, "distance") ??
    (vertical ? height : width) / 2;
  const [dx, dy] = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[direction];
  return { from, to: [from[0] + dx * distance, from[1] + dy * distance] };
}
