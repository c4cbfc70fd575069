/**
 * Touch gestures as W3C WebDriver actions (`POST /session/:id/actions`, WDA's
 * `FBW3CActionsSynthesizer`): each finger is a `pointer` input source with `pointerType: "touch"`,
 * and every coordinate is in the screen's logical **points** (WDA's unit), relative to the
 * viewport. Pure functions: the device sends what they build.
 *
 * @module
 */

import type { Point } from "@sdk/core";

/** One W3C action item of a pointer source. */
export type PointerActionItem =
  | { type: "pointerMove"; duration: number; x: number; y: number; origin?: "viewport" }
  | { type: "pointerDown"; button: 0 }
  | { type: "pointerUp"; button: 0 }
  | { type: "pause"; duration: number };

/** One finger: a W3C `pointer` input source of kind touch. */
export interface TouchSource {
  /** Always `"pointer"`. */
  type: "pointer";
  /** The finger's id (`finger1`, `finger2`). */
  id: string;
  /** Always `{ pointerType: "touch" }`. */
  parameters: { pointerType: "touch" };
  /** Its actions, in order. */
  actions: PointerActionItem[];
}

/** The body of `POST /session/:id/actions`. */
export interface W3CActions {
  /** One source per finger. */
  actions: TouchSource[];
}

/** Gap between the taps of a double tap, ms (well inside iOS's double-tap interval). */
const DOUBLE_TAP_GAP_MS = 100;
/** How long a tap holds the finger down, ms. */
const TAP_HOLD_MS = 50;
/** The two fingers of a pinch are never closer than this, points. */
export const PINCH_MIN_GAP = 20;

/**
 * Where the app switcher gesture starts, points above the bottom edge: inside the bottom 20
 * points where iOS's home indicator takes the gesture.
 */
const APP_SWITCHER_EDGE_PT = 5;
/** How far up the app switcher gesture moves, as a fraction of the screen height. */
const APP_SWITCHER_TRAVEL = 0.4;
/** The app switcher finger's move, ms. */
const APP_SWITCHER_MOVE_MS = 300;
/** The app switcher finger rests this long before it lifts, ms (a quick flick goes home). */
const APP_SWITCHER_HOLD_MS = 400;

function finger(index: number, actions: PointerActionItem[]): TouchSource {
  return {
    type: "pointer",
    id: `finger${index + 1}`,
    parameters: { pointerType: "touch" },
    actions,
  };
}

function move([x, y]: Point, duration: number): PointerActionItem {
  return { type: "pointerMove", duration: Math.max(0, Math.round(duration)), x, y };
}

const DOWN: PointerActionItem = { type: "pointerDown", button: 0 };
const UP: PointerActionItem = { type: "pointerUp", button: 0 };

function pause(ms: number): PointerActionItem {
  return { type: "pause", duration: Math.max(0, Math.round(ms)) };
}

/** `taps` quick taps at `point`. */
export function tapActions(point: Point, taps = 1): W3CActions {
  const items: PointerActionItem[] = [move(point, 0)];
  for (let i = 0; i < taps; i++) {
    if (i > 0) items.push(pause(DOUBLE_TAP_GAP_MS));
    items.push(DOWN, pause(TAP_HOLD_MS), UP);
  }
  return { actions: [finger(0, items)] };
}

/** A finger held at `point` for `ms`. */
export function holdActions(point: Point, ms: number): W3CActions {
  return { actions: [finger(0, [move(point, 0), DOWN, pause(ms), UP])] };
}

/**
 * One finger from `from` to `to` over `ms`; `holdBeforeMs` rests it after touching down (a drag
 * needs the press to pick the item up), `holdAfterMs` before lifting (no fling).
 */
export function dragActions(
  from: Point,
  to: Point,
  ms: number,
  holdBeforeMs = 0,
  holdAfterMs = 0,
): W3CActions {
  const items: PointerActionItem[] = [move(from, 0), DOWN];
  if (holdBeforeMs > 0) items.push(pause(holdBeforeMs));
  items.push(move(to, ms));
  if (holdAfterMs > 0) items.push(pause(holdAfterMs));
  items.push(UP);
  return { actions: [finger(0, items)] };
}

/** Both fingers of a pinch where they touch down and where they lift. */
export interface PinchPath {
  /** Where the fingers touch down. */
  from: [Point, Point];
  /** Where they lift. */
  to: [Point, Point];
}

/**
 * The fingers of a pinch around `center`, on the axis with more room: the gap goes from `start`
 * to `start * scale` points (`scale > 1` spreads them: zoom in; `< 1` brings them together: zoom
 * out), both cut to stay on the screen and at least {@link PINCH_MIN_GAP} apart.
 */
export function pinchPath(
  center: Point,
  start: number,
  scale: number,
  screen: { width: number; height: number },
): PinchPath {
  const cx = Math.min(Math.max(center[0], 0), screen.width - 1);
  const cy = Math.min(Math.max(center[1], 0), screen.height - 1);
  const roomX = 2 * Math.min(cx, screen.width - 1 - cx);
  const roomY = 2 * Math.min(cy, screen.height - 1 - cy);
  const horizontal = roomX >= roomY;
  const room = Math.max(PINCH_MIN_GAP, horizontal ? roomX : roomY);
  const gap = (g: number) => Math.min(Math.max(g, PINCH_MIN_GAP), room);
  const fingers = (g: number): [Point, Point] =>
    horizontal ? [[cx - g / 2, cy], [cx + g / 2, cy]] : [[cx, cy - g / 2], [cx, cy + g / 2]];
  return { from: fingers(gap(start)), to: fingers(gap(start * scale)) };
}

/** Two fingers moving along a pinch path over `ms`, lifting together. */
export function pinchActions(path: PinchPath, ms: number): W3CActions {
  return {
    actions: [0, 1].map((i) =>
      finger(i, [move(path.from[i], 0), DOWN, move(path.to[i], ms), pause(50), UP])
    ),
  };
}

/**
 * The app switcher gesture iOS recognises on phones without a Home button: one finger down
 * within the bottom 20 points, up by {@link APP_SWITCHER_TRAVEL} of the screen height, resting
 * {@link APP_SWITCHER_HOLD_MS} before it lifts (500 ms or more from down to up); the same swipe
 * without the rest goes to the Home screen.
 */
export function appSwitcherActions(screen: { width: number; height: number }): W3CActions {
  const x = screen.width / 2;
  const from: Point = [x, screen.height - APP_SWITCHER_EDGE_PT];
  const to: Point = [x, screen.height * (1 - APP_SWITCHER_TRAVEL) - APP_SWITCHER_EDGE_PT];
  return dragActions(from, to, APP_SWITCHER_MOVE_MS, 0, APP_SWITCHER_HOLD_MS);
}
