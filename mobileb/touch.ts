/**
 * Touches as W3C actions (`POST /session/:id/actions`), at logical points snapped to the screen's
 * pixel grid.
 *
 * @module
 */

import type { Point, Stroke } from "@sdk/core";
import { dragActions, holdActions, tapActions, type W3CActions } from "./gestures.ts";
import type { Screen } from "./screen.ts";
import type { WdaSession } from "./session.ts";

// A scroll or a drag rests its finger before lifting so that what moved stops where it did.
const SCROLL_REST_MS = 100;
const DRAG_MOVE_MS = 1000;
// iOS picks an item up for dragging after a long press.
const DRAG_PICK_UP_MS = 800;

/** Sends W3C actions to the session. */
export async function perform(
  session: WdaSession,
  actions: W3CActions,
  signal?: AbortSignal,
): Promise<void> {
  const path = await session.path();
  await session.client.request("POST", `${path}/actions`, actions, { signal });
}

/** `taps` quick taps at a point. */
export async function tapAt(
  session: WdaSession,
  screen: Screen,
  point: Point,
  taps = 1,
): Promise<void> {
  await perform(session, tapActions(await screen.point(point), taps));
}

/** One finger from `from` to `to` over `ms`, resting before and after the move. */
export async function drag(
  session: WdaSession,
  screen: Screen,
  from: Point,
  to: Point,
  ms: number,
  holdBefore = 0,
  holdAfter = 0,
): Promise<void> {
  await perform(
    session,
    dragActions(await screen.point(from), await screen.point(to), ms, holdBefore, holdAfter),
  );
}

/** One finger held at a point for `ms`. */
export async function hold(
  session: WdaSession,
  screen: Screen,
  point: Point,
  ms: number,
): Promise<void> {
  await perform(session, holdActions(await screen.point(point), ms));
}

/** `DragAndDrop`: a long press on `from` picks the item up; it moves to `to` and rests there. */
export async function dragAndDrop(
  session: WdaSession,
  screen: Screen,
  from: Point,
  to: Point,
): Promise<void> {
  await drag(session, screen, from, to, DRAG_MOVE_MS, DRAG_PICK_UP_MS, SCROLL_REST_MS);
}

/**
 * The strokes of a `Scroll`; a single scroll rests its finger before lifting so that the list
 * stops where the finger did (no fling).
 */
export async function scroll(
  session: WdaSession,
  screen: Screen,
  strokes: readonly Stroke[],
): Promise<void> {
  const single = strokes.length === 1;
  for (const { from, to, ms } of strokes) {
    await drag(session, screen, from, to, ms, 0, single ? SCROLL_REST_MS : 0);
  }
}
