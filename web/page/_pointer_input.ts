/**
 * The web actions' mouse input that leaves the pointer somewhere (private to `@sdk/web`): clicks
 * on an element, and the wheel scrolls of `Scroll`, which go to whatever is under the pointer.
 * Every coordinate is in CSS pixels of the viewport.
 *
 * @module
 */

import type { ActionParams, LocatedElement, Point } from "../_core.ts";
import {
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  SCROLL_DIRECTIONS,
  SCROLL_TYPES,
} from "../_core.ts";
import type { GestureHost } from "./_gestures.ts";
import { waitForScrollToSettle } from "./_page_scripts.ts";

// A single Scroll without a distance moves most of a screen, keeping some context visible.
const SCROLL_SCREEN_FRACTION = 0.7;
// "Scroll to the end" is one wheel event far larger than any page.
const SCROLL_TO_END_DELTA = 10_000_000;
const SCROLL_SETTLE_MAX_MS = 1000;

/** What pointer input needs from the device: its driver, and where it left the pointer. */
export interface PointerHost extends GestureHost {
  /** Where the device last put the pointer on the current page; undefined before that. */
  pointer(): Point | undefined;
}

/** Clicks the middle of `target` and remembers the pointer there. */
export async function clickAt(
  host: PointerHost,
  target: LocatedElement,
  signal: AbortSignal | undefined,
  options?: { button?: "left" | "right"; clickCount?: number },
): Promise<void> {
  signal?.throwIfAborted();
  const [x, y] = target.center;
  await host.driver().mouse.click(x, y, options);
  host.pointerMoved([x, y]);
}

/**
 * The `Scroll` action: one wheel event (a screen's worth, `distance`, or to an end), then a wait
 * for the page's scrolling to settle.
 */
export async function scrollPage(
  host: PointerHost,
  param: ActionParams,
  signal: AbortSignal | undefined,
): Promise<void> {
  const target = readLocateParam("Scroll", param, false);
  const direction = readEnumParam("Scroll", param, "direction", SCROLL_DIRECTIONS, "down");
  const scrollType = readEnumParam("Scroll", param, "scrollType", SCROLL_TYPES, "singleAction");
  const distance = readPositiveNumberParam("Scroll", param, "distance");

  let deltaX = 0;
  let deltaY = 0;
  switch (scrollType) {
    case "scrollToBottom":
      deltaY = SCROLL_TO_END_DELTA;
      break;
    case "scrollToTop":
      deltaY = -SCROLL_TO_END_DELTA;
      break;
    case "scrollToRight":
      deltaX = SCROLL_TO_END_DELTA;
      break;
    case "scrollToLeft":
      deltaX = -SCROLL_TO_END_DELTA;
      break;
    case "singleAction": {
      const vertical = direction === "down" || direction === "up";
      let step = distance;
      if (step === undefined) {
        const viewport = await host.driver().viewport();
        step = Math.round((vertical ? viewport.height : viewport.width) * SCROLL_SCREEN_FRACTION);
      }
      const sign = direction === "down" || direction === "right" ? 1 : -1;
      if (vertical) deltaY = sign * step;
      else deltaX = sign * step;
      break;
    }
  }

  // The wheel scrolls whatever is under the pointer: the element when given, else wherever
  // this device left the pointer (the driver's own position before any pointer action).
  const at = target?.center ?? host.pointer();
  signal?.throwIfAborted();
  if (at) {
    await host.driver().mouse.move(at[0], at[1]);
    host.pointerMoved([at[0], at[1]]);
  }
  await host.driver().mouse.wheel(deltaX, deltaY);
  await host.driver().evaluate(waitForScrollToSettle, SCROLL_SETTLE_MAX_MS).catch(() => {
    // The page navigated meanwhile: there is no scroll left to wait for.
  });
}
