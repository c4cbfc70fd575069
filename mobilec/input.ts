/**
 * Touches and key events through `uitest uiInput`, in logical points (vp) turned into physical
 * pixels. uitest prints its refusals instead of failing (hdc passes on no exit code), so its
 * output is read for them.
 *
 * @module
 */

import type { Point } from "@sdk/core";
import { deviceFailure } from "./errors.ts";
import type { Screen } from "./screen.ts";
import type { ToolShell } from "./tool_shell.ts";

// uitest's speed range for swipe, fling and drag, px/s.
const MIN_SPEED = 200;
const MAX_SPEED = 40_000;
// `DragAndDrop`: uitest's `drag` (which holds first) at the speed of a move over this long, ms.
const DRAG_AND_DROP_MS = 1000;
// What uitest prints when it refuses its arguments.
const UITEST_ERROR =
  /Invalid parameters|Missing parameter|Too many parameters|Please confirm that the coordinate values are correct/i;

/** Where input goes: the device's hdc runs and its screen. */
export interface InputTarget {
  readonly shell: ToolShell;
  readonly screen: Screen;
}

/**
 * Runs `uitest uiInput <args>`.
 *
 * @throws {ToolError} (`hdc`) with uitest's output when it refuses the arguments.
 */
export async function uiInput(shell: ToolShell, args: string): Promise<void> {
  const output = await shell.shell(`uitest uiInput ${args}`);
  const refused = UITEST_ERROR.exec(output);
  if (refused) {
    throw deviceFailure(
      `uitest uiInput ${args} failed on HarmonyOS device ${JSON.stringify(shell.deviceId)}`,
      output,
    );
  }
}

/** `uitest uiInput keyEvent` with one key or a combination (codes or names). */
export async function keyEvent(shell: ToolShell, ...keys: string[]): Promise<void> {
  await uiInput(shell, `keyEvent ${keys.join(" ")}`);
}

/** A touch at a logical point: `click`, `doubleClick` or `longClick` (the system's hold). */
export async function touch(
  target: InputTarget,
  kind: "click" | "doubleClick" | "longClick",
  point: Point,
): Promise<void> {
  const [x, y] = await target.screen.physical(point);
  await uiInput(target.shell, `${kind} ${x} ${y}`);
}

/** One finger from `from` to `to` over about `ms`: a `swipe`, or a `drag` (which holds first). */
export async function move(
  target: InputTarget,
  kind: "swipe" | "drag",
  from: Point,
  to: Point,
  ms: number,
): Promise<void> {
  const [x1, y1] = await target.screen.physical(from);
  const [x2, y2] = await target.screen.physical(to);
  // uitest takes a speed, not a duration: px/s, within its range.
  const speed = Math.round(
    Math.min(Math.max(Math.hypot(x2 - x1, y2 - y1) / (ms / 1000), MIN_SPEED), MAX_SPEED),
  );
  await uiInput(target.shell, `${kind} ${x1} ${y1} ${x2} ${y2} ${speed}`);
}

/** `DragAndDrop`: uitest's `drag` (a hold picks the item up) from `from` to `to`. */
export async function dragAndDrop(target: InputTarget, from: Point, to: Point): Promise<void> {
  await move(target, "drag", from, to, DRAG_AND_DROP_MS);
}
