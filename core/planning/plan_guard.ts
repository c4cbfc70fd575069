/**
 * The guard between the actions of one plan (docs/model-protocol.md, "Several actions per plan"
 * and "Target checks"): before each further action it checks that the action's target is still
 * the one the plan aimed at, and that the screen is still the one the plan was made on but for
 * what the plan's actions did to their own elements. A changed target, a change of the device's
 * screen context (a web page's address, the foreground app) or of the screen beyond the acted
 * elements' neighbourhood drops the rest of the plan.
 *
 * The target is checked by its identity where the device can read one (`targetsAt`: the element
 * at the action's point, read when the plan arrives and again before the action), else by the
 * pixels of its box on the plan's screenshot and the screenshot taken for the check.
 *
 * @module
 */

import type { CallSession } from "../session/session.ts";
import { captureFor } from "../session/session.ts";
import type { Screen } from "../session/screen.ts";
import { toLocatedElement } from "../session/screen.ts";
import { targetDifference } from "../device/target_identity.ts";
import type { Point, Rect, TargetIdentity } from "../device/types.ts";
import { changedShare, type ChangeRegion, screenThumbnail } from "../image/screen_change.ts";
import type { ScreenThumbnail } from "../image/screen_change.ts";
import { REGION_MATCH_THRESHOLD, regionSimilarity } from "../image/region_match.ts";

/**
 * The share of the screen (outside the acted elements' neighbourhood) that may change before the
 * rest of a plan is dropped: a spinner, a counter or a caret elsewhere stays below it; a dialog,
 * a new page or another app does not.
 */
const SURPRISE_SHARE = 0.1;

/** What the check before a further action found. */
export interface GuardCheck {
  /** Why the rest of the plan is dropped; undefined when the screen is as expected. */
  surprise?: string;
  /** Whether the surprise is this action's own target (the history names it as changed). */
  targetChanged?: boolean;
  /** The screen taken for the check (the next action's report screenshot), unless a context change was enough. */
  screen?: Screen;
}

/** Checks the screen before each further action of one plan. */
export interface PlanGuard {
  /**
   * Checks the target of the plan's action `index` and the screen now against the plan's.
   *
   * @param index the action about to run (> 0).
   * @param acted where the plan's actions so far acted, in pixels of the model's image.
   */
  check(index: number, acted: readonly ChangeRegion[]): Promise<GuardCheck>;
}

/** One target of a planned action: its box in model-image pixels and its point on the device. */
interface Target {
  rect: Rect;
  point: Point;
  /** What was at the point when the plan arrived; undefined where the device named nothing. */
  identity?: TargetIdentity;
}

/**
 * A guard for a plan made on `planned` whose actions aim at `targets` (per action, the boxes of
 * its located parameters in model-image pixels). Reads the device's screen context and the
 * identities of the further actions' targets now, before the plan's first action.
 */
export async function startGuard(
  s: CallSession,
  planned: Screen,
  targets: readonly (readonly Rect[])[],
): Promise<PlanGuard> {
  const contextBefore = await s.device.screenContext?.();
  const byAction: Target[][] = targets.map((rects) =>
    rects.map((rect) => ({ rect, point: toLocatedElement(planned, rect, "").center }))
  );
  const further = byAction.slice(1).flat();
  const readIdentities = s.device.targetsAt?.bind(s.device);
  if (readIdentities && further.length > 0) {
    const found = await readIdentities(further.map((t) => t.point));
    further.forEach((t, i) => t.identity = found[i]);
  }
  let before: Promise<ScreenThumbnail> | undefined;

  /** Why a target of action `index` is not the planned one any more, if it is not. */
  async function targetChange(
    index: number,
    screen: Screen,
    acted: readonly ChangeRegion[],
  ): Promise<string | undefined> {
    const own = byAction[index] ?? [];
    const named = own.filter((t) => t.identity);
    if (named.length > 0 && readIdentities) {
      const now = await readIdentities(named.map((t) => t.point));
      for (const [i, t] of named.entries()) {
        const difference = targetDifference(t.identity!, now[i]);
        if (difference) return difference;
      }
    }
    // A box the plan already acted on changed by design (the text typed into it): only a
    // target the device can name is checked there.
    for (const t of own.filter((t) => !t.identity && !acted.some((r) => overlaps(r, t.rect)))) {
      const similarity = await regionSimilarity(
        planned.image.dataUri,
        screen.image.dataUri,
        t.rect,
      );
      if (similarity < REGION_MATCH_THRESHOLD) {
        return `its box (${Math.round(t.rect.left)},${Math.round(t.rect.top)} ${
          Math.round(t.rect.width)
        }x${Math.round(t.rect.height)} px) shows something else now (similarity ${
          similarity.toFixed(2)
        })`;
      }
    }
    return undefined;
  }

  return {
    async check(index, acted) {
      if (contextBefore !== undefined) {
        const now = await s.device.screenContext!();
        if (now !== contextBefore) {
          return { surprise: `the screen's context changed (${contextBefore} -> ${now})` };
        }
      }
      const screen = await captureFor(s, "planning");
      const changed = await targetChange(index, screen, acted);
      if (changed) {
        return { screen, surprise: `its target changed: ${changed}`, targetChanged: true };
      }
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

function overlaps(a: ChangeRegion, b: ChangeRegion): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width &&
    a.top < b.top + b.height && b.top < a.top + a.height;
}
