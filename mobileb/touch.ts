/**
 * Touches as W3C actions (`POST /session/:id/actions`), at logical points snapped to the screen's
 * pixel grid.
 *
 * @module
 */

import type { Point } from "@sdk/core";
import { dragActions, tapActions, type W3CActions } from "./gestures.ts";
import type { Screen } from "./screen.ts";
import type { WdaSession } from "./session.ts";

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
