/**
 * Touches and key events through Android's `input` command, in logical points (dp) turned into
 * physical pixels, on the display given as `displayId` (`-d <id>`) when set.
 *
 * @module
 */

import type { Point } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";
import type { Screen } from "./screen.ts";

export const KEYCODE_BACK = 4;
export const KEYCODE_HOME = 3;
export const KEYCODE_APP_SWITCH = 187;
export const KEYCODE_ESCAPE = 111;
export const KEYCODE_DEL = 67;
export const KEYCODE_MOVE_END = 123;

/** Where input goes: the device's shell, its screen, and the display when one is set. */
export interface InputTarget {
  readonly shell: BridgeShell;
  readonly screen: Screen;
  readonly displayId: number | undefined;
}

/** ` -d <id>` for the display when one is set, else nothing (for `input` and `screencap`). */
export function displayArgs(displayId: number | undefined): string {
  return displayId === undefined ? "" : ` -d ${displayId}`;
}

/** The `input` command line with `rest` after it, on the target's display. */
export function inputCommand(target: InputTarget, rest: string): string {
  return `input${displayArgs(target.displayId)} ${rest}`;
}

/** One tap at a logical point. */
export async function tap(target: InputTarget, point: Point): Promise<void> {
  const [x, y] = await target.screen.physical(point);
  await target.shell.shellOk(inputCommand(target, `tap ${x} ${y}`));
}

/** Two taps at a logical point, in one shell command so that they come quickly. */
export async function doubleTap(target: InputTarget, point: Point): Promise<void> {
  const [x, y] = await target.screen.physical(point);
  const once = inputCommand(target, `tap ${x} ${y}`);
  await target.shell.shellOk(`${once} && ${once}`);
}

/**
 * One finger from `from` to `to` over `ms`: `swipe`, or `draganddrop` (which holds before
 * moving). From a point to itself, a long press.
 */
export async function swipe(
  target: InputTarget,
  from: Point,
  to: Point,
  ms: number,
  verb: "swipe" | "draganddrop" = "swipe",
): Promise<void> {
  const [x1, y1] = await target.screen.physical(from);
  const [x2, y2] = await target.screen.physical(to);
  await target.shell.shellOk(
    inputCommand(target, `${verb} ${x1} ${y1} ${x2} ${y2} ${Math.round(ms)}`),
  );
}

/** `DragAndDrop`: `draganddrop` from `from` to `to`, holding first, over this long (ms). */
const DRAG_AND_DROP_MS = 1500;

/** `DragAndDrop`: picks up what is at `from` (a hold) and moves it to `to`. */
export async function dragAndDrop(target: InputTarget, from: Point, to: Point): Promise<void> {
  await swipe(target, from, to, DRAG_AND_DROP_MS, "draganddrop");
}

/** Key events (`KEYCODE_*` numbers), in one `input keyevent`. */
export async function keyevent(target: InputTarget, ...codes: number[]): Promise<void> {
  await target.shell.shellOk(inputCommand(target, `keyevent ${codes.join(" ")}`));
}
