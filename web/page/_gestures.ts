/**
 * The web gesture actions (private to `@sdk/web`): `DragAndDrop` and `LongPress` always, `Swipe`
 * and `Pinch` with touch input (spec 4.7 `enableTouchEventsInActionSpace`), and the geometry of
 * their paths. Every coordinate is in CSS pixels of the viewport.
 *
 * @module
 */

import type { DeviceAction, Point } from "../_core.ts";
import {
  dragAndDropAction,
  longPressAction,
  PINCH_DIRECTIONS,
  pinchAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  SdkTypeError,
  sleep,
  SWIPE_DIRECTIONS,
  swipeAction,
} from "../_core.ts";
import type { PageDriver, PageDriverTouch, TouchPoint, ViewportInfo } from "./page_driver.ts";

/** Default hold of `LongPress` on the web, ms (spec 8). */
const DEFAULT_LONG_PRESS_MS = 500;
/** Default duration of `Pinch`, ms (spec 8). */
const DEFAULT_PINCH_MS = 500;
/** Default duration of `Swipe`, ms: a quick flick that carousels take as a swipe. */
const DEFAULT_SWIPE_MS = 300;
// One pointer or finger move per frame, so the page sees a smooth movement.
const STEP_MS = 16;
// A drag moves in this many steps: enough for HTML5 drag and drop to start and for pointer-based
// drags to follow, quick enough not to slow the agent down.
const DRAG_STEPS = 20;
// The two fingers of a pinch are never closer than this (real fingertips cannot overlap).
const PINCH_MIN_GAP = 40;
// A swipe without a distance moves this share of the viewport along its direction.
const SWIPE_SCREEN_FRACTION = 0.5;

/** What the gesture actions need from the device. */
export interface GestureHost {
  /** The driver of the page acted on now. */
  driver(): PageDriver;
  /** Its touch input; throws when the driver has none. */
  touch(): PageDriverTouch;
  /** Remembers where the mouse pointer was left. */
  pointerMoved(point: Point): void;
}

/** `count + 1` points from `from` to `to`, both included. */
export function linePath(from: Point, to: Point, count: number): Point[] {
  const steps = Math.max(1, Math.round(count));
  return Array.from({ length: steps + 1 }, (_, i): Point => [
    from[0] + (to[0] - from[0]) * (i / steps),
    from[1] + (to[1] - from[1]) * (i / steps),
  ]);
}

/** Keeps a point inside the viewport (a touch outside it is dropped by the browser). */
export function clampToViewport(point: Point, viewport: { width: number; height: number }): Point {
  return [
    Math.min(Math.max(point[0], 0), viewport.width - 1),
    Math.min(Math.max(point[1], 0), viewport.height - 1),
  ];
}

/**
 * Where a swipe without an `end` lifts the finger: `distance` CSS pixels from `start` the way
 * the finger moves, kept inside the viewport.
 */
export function swipeEnd(
  start: Point,
  direction: (typeof SWIPE_DIRECTIONS)[number],
  distance: number,
  viewport: { width: number; height: number },
): Point {
  const [dx, dy] = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[direction];
  return clampToViewport([start[0] + dx * distance, start[1] + dy * distance], viewport);
}

/** Start and end positions of the two fingers of a pinch. */
export interface PinchPath {
  /** Both fingers where they touch down. */
  from: [Point, Point];
  /** Both fingers where they lift. */
  to: [Point, Point];
}

/**
 * The fingers of a pinch around `center`: their gap grows (`out`) or shrinks (`in`) by
 * `distance`, never below {@link PINCH_MIN_GAP}. They lie on the axis (horizontal or vertical)
 * with more room around `center`, and `distance` is cut so both stay inside the viewport.
 */
export function pinchPath(
  center: Point,
  direction: "in" | "out",
  distance: number,
  viewport: { width: number; height: number },
): PinchPath {
  const [cx, cy] = clampToViewport(center, viewport);
  const roomX = 2 * Math.min(cx, viewport.width - 1 - cx);
  const roomY = 2 * Math.min(cy, viewport.height - 1 - cy);
  const horizontal = roomX >= roomY;
  const wide = Math.max(
    PINCH_MIN_GAP,
    Math.min(PINCH_MIN_GAP + distance, horizontal ? roomX : roomY),
  );
  const fingers = (gap: number): [Point, Point] =>
    horizontal
      ? [[cx - gap / 2, cy], [cx + gap / 2, cy]]
      : [[cx, cy - gap / 2], [cx, cy + gap / 2]];
  const [start, end] = direction === "out" ? [PINCH_MIN_GAP, wide] : [wide, PINCH_MIN_GAP];
  return { from: fingers(start), to: fingers(end) };
}

/** The gesture actions; `Swipe` and `Pinch` only when `touch` is true. */
export function gestureActions(host: GestureHost, touch: boolean): DeviceAction[] {
  const actions: DeviceAction[] = [
    dragAndDropAction(async (param, { signal }) => {
      const from = readLocateParam("DragAndDrop", param, true, "from").center;
      const to = readLocateParam("DragAndDrop", param, true, "to").center;
      await mouseDrag(host, from, to, signal);
    }, {
      description:
        "Drag an element and drop it onto another place: press the mouse on 'from', move to 'to', release.",
    }),
    longPressAction(async (param, { signal }) => {
      const at = readLocateParam("LongPress", param, true).center;
      const ms = readPositiveNumberParam("LongPress", param, "duration") ?? DEFAULT_LONG_PRESS_MS;
      if (touch) await touchHold(host.touch(), at, ms, signal);
      else await mouseHold(host, at, ms, signal);
    }, {
      defaultDurationMs: DEFAULT_LONG_PRESS_MS,
      description: touch
        ? "Press and hold an element with a finger (a touch long press)."
        : "Press and hold the left mouse button on an element (a long press).",
    }),
  ];
  if (!touch) return actions;
  actions.push(
    swipeAction(async (param, { signal }) => {
      const touchInput = host.touch();
      const viewport = await host.driver().viewport();
      const start = readLocateParam("Swipe", param, false, "start")?.center ??
        screenCenter(viewport);
      let end = readLocateParam("Swipe", param, false, "end")?.center;
      if (!end) {
        if (param.direction === undefined || param.direction === null) {
          throw new SdkTypeError(
            "Cannot run Swipe: give 'end' (a located element) or 'direction' (up, down, left, right)",
          );
        }
        const direction = readEnumParam("Swipe", param, "direction", SWIPE_DIRECTIONS, "up");
        const vertical = direction === "up" || direction === "down";
        const distance = readPositiveNumberParam("Swipe", param, "distance") ??
          (vertical ? viewport.height : viewport.width) * SWIPE_SCREEN_FRACTION;
        end = swipeEnd(start, direction, distance, viewport);
      }
      const ms = readPositiveNumberParam("Swipe", param, "duration") ?? DEFAULT_SWIPE_MS;
      await touchMove(touchInput, [start], [end], ms, signal);
    }, { unit: "CSS pixels", defaultDurationMs: DEFAULT_SWIPE_MS }),
    pinchAction(async (param, { signal }) => {
      const touchInput = host.touch();
      if (param.direction === undefined || param.direction === null) {
        throw new SdkTypeError("Cannot run Pinch: 'direction' ('in' or 'out') is required");
      }
      const direction = readEnumParam("Pinch", param, "direction", PINCH_DIRECTIONS, "out");
      const viewport = await host.driver().viewport();
      const center = readLocateParam("Pinch", param, false)?.center ?? screenCenter(viewport);
      const distance = readPositiveNumberParam("Pinch", param, "distance") ??
        Math.min(viewport.width, viewport.height) / 4;
      const ms = readPositiveNumberParam("Pinch", param, "duration") ?? DEFAULT_PINCH_MS;
      const path = pinchPath(center, direction, distance, viewport);
      await touchMove(touchInput, path.from, path.to, ms, signal);
    }, { unit: "CSS pixels", defaultDurationMs: DEFAULT_PINCH_MS }),
  );
  return actions;
}

function screenCenter(viewport: ViewportInfo): Point {
  return [viewport.width / 2, viewport.height / 2];
}

// Press on `from`, move in steps (Chromium starts an HTML5 drag once the pointer has moved while
// pressed; pointer-based drags follow each move), release on `to`. The button is released even
// when the call is aborted half-way.
async function mouseDrag(
  host: GestureHost,
  from: Point,
  to: Point,
  signal: AbortSignal | undefined,
): Promise<void> {
  const mouse = host.driver().mouse;
  await mouse.move(from[0], from[1]);
  host.pointerMoved(from);
  await mouse.down();
  try {
    for (const [x, y] of linePath(from, to, DRAG_STEPS).slice(1)) {
      await sleep(STEP_MS, signal);
      await mouse.move(x, y);
    }
    host.pointerMoved(to);
  } finally {
    await mouse.up();
  }
}

async function mouseHold(
  host: GestureHost,
  at: Point,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const mouse = host.driver().mouse;
  await mouse.move(at[0], at[1]);
  host.pointerMoved(at);
  await mouse.down();
  try {
    await sleep(ms, signal);
  } finally {
    await mouse.up();
  }
}

async function touchHold(
  touch: PageDriverTouch,
  at: Point,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  await touch.dispatch("touchStart", [{ x: at[0], y: at[1], id: 1 }]);
  try {
    await sleep(ms, signal);
  } finally {
    await touch.dispatch("touchEnd", []);
  }
}

// Puts one finger down per `from` point, moves each to its `to` point over `ms` in frame-sized
// steps, then lifts them all (also when aborted half-way).
async function touchMove(
  touch: PageDriverTouch,
  from: readonly Point[],
  to: readonly Point[],
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const steps = Math.max(2, Math.round(ms / STEP_MS));
  const paths = from.map((start, i) => linePath(start, to[i], steps));
  const fingers = (step: number): TouchPoint[] =>
    paths.map((path, i) => ({ x: path[step][0], y: path[step][1], id: i + 1 }));
  await touch.dispatch("touchStart", fingers(0));
  try {
    for (let step = 1; step <= steps; step++) {
      await sleep(ms / steps, signal);
      await touch.dispatch("touchMove", fingers(step));
    }
  } finally {
    await touch.dispatch("touchEnd", []);
  }
}
