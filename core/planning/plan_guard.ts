/**
 * The guard between the actions of one plan (docs/model-protocol.md, "Several actions per
 * plan"): before each further action it checks that the screen is still the one the plan was
 * made on, but for what the plan's actions did to their own elements. A change of the device's
 * screen context (a web page's address, the foreground app) or of the screen beyond the acted
 * elements' neighbourhood is a surprise, and the rest of the plan is dropped.
 *
 * @module
 */

import type { CallSession } from "../agent/session.ts";
import { captureFor } from "../agent/session.ts";
import type { Screen } from "../agent/screen.ts";
import { changedShare, type ChangeRegion, screenThumbnail } from "../image/screen_change.ts";
import type { ScreenThumbnail } from "../image/screen_change.ts";

/**
 * The share of the screen (outside the acted elements' neighbourhood) that may change before the
 * rest of a plan is dropped: a spinner, a counter or a caret elsewhere stays below it; a dialog,
 * a new page or another app does not.
 */
export const SURPRISE_SHARE = 0.1;

/** What the check before a further action found. */
export interface GuardCheck {
  /** Why the rest of the plan is dropped; undefined when the screen is as expected. */
  surprise?: string;
  /** The screen taken for the check (the next action's report screenshot), unless a context change was enough. */
  screen?: Screen;
}

/** Checks the screen before each further action of one plan. */
export interface PlanGuard {
  /**
   * Checks the screen now against the plan's.
   *
   * @param acted where the plan's actions so far acted, in pixels of the model's image.
   */
  check(acted: readonly ChangeRegion[]): Promise<GuardCheck>;
}

/**
 * A guard for a plan made on `planned`; reads the device's screen context now, before the
 * plan's first action.
 */
export async function startGuard(s: CallSession, planned: Screen): Promise<PlanGuard> {
  const contextBefore = await s.device.screenContext?.();
  let before: Promise<ScreenThumbnail> | undefined;
  return {
    async check(acted) {
      if (contextBefore !== undefined) {
        const now = await s.device.screenContext!();
        if (now !== contextBefore) {
          return { surprise: `the screen's context changed (${contextBefore} -> ${now})` };
        }
      }
      const screen = await captureFor(s, "planning");
      before ??= screenThumbnail(planned.image.dataUri);
      const share = changedShare(await before, await screenThumbnail(screen.image.dataUri), acted);
      if (share > SURPRISE_SHARE) {
        return {
          screen,
          surprise: `the screen changed beyond the elements acted on (${
            Math.round(share * 100)
          }% of the rest of it)`,
        };
      }
      return { screen };
    },
  };
}
