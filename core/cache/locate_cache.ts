/**
 * The locate cache (spec 2.2, 4.2; docs/agent.md, "Cache"): a located element is remembered by
 * how to find it again, keyed by the prompt text, and later calls find it that way before asking
 * the model:
 *
 * - on devices with an element tree (`xpathsAt` and `locateByXpath`: web pages and the phones),
 *   the xpaths the device gives for its center, with its identity (`targetsAt`), which a hit must
 *   still match;
 * - on devices without one (the desktop, RDP, custom devices), or where the tree names nothing
 *   (a canvas), its look: the element's crop, found again on the new screenshot by template
 *   matching (`core/image/template_match.ts`).
 *
 * Each lookup is a report step that says "Cache hit", "Cache miss" or "Healed" (the cached
 * location no longer matched, the model located the element again and the record was updated),
 * and why.
 *
 * @module
 */

import type { LocatedElement, Point, TargetIdentity } from "../device/types.ts";
import { targetDifference } from "../device/target_identity.ts";
import { cutTemplate, findTemplate, TEMPLATE_MATCH_THRESHOLD } from "../image/template_match.ts";
import { imageSizeFromDataUri } from "../image/size.ts";
import { type LocateResult, markTarget } from "../insight/locate.ts";
import { elementOnScreen } from "../insight/locate_xpath.ts";
import { errorMessage } from "../session/execution.ts";
import type { ReportStep } from "../report/types.ts";
import { type CallSession, captureFor } from "../session/session.ts";
import { toLocatedElement } from "../session/screen.ts";
import type { CachedTarget } from "../session/cache_file.ts";

/** How to find an element again: a locate record's fields, or a cached action's target's. */
export type Locator = Pick<CachedTarget, "xpaths" | "target" | "fingerprint">;

/** What a lookup through the cache gave. */
export interface CachedLocate {
  /** The element. */
  found: LocateResult;
  /** How to find it next time, when the model located it and the call may write. */
  fresh?: Locator;
}

/**
 * Locates `description` from the cache when the call may read it; else, or when the cached
 * location no longer finds it, by `locate` (the model), and records the result when the call may
 * write.
 */
export async function locateWithCache(
  s: CallSession,
  description: string,
  locate: () => Promise<LocateResult>,
): Promise<LocateResult> {
  const record = s.cache?.read ? s.cache.store.findLocate(description) : undefined;
  const { found, fresh } = await locateThroughCache(s, description, record, locate);
  if (fresh) putLocate(s, description, fresh);
  return found;
}

/**
 * Finds an element by its `cached` locator when the call may read the cache, else by `locate`
 * (the model), with a report step "Locate from cache: {description}" that says which and why;
 * when the model located it and the call may write, `fresh` is how to find it next time.
 */
export async function locateThroughCache(
  s: CallSession,
  description: string,
  cached: Locator | undefined,
  locate: () => Promise<LocateResult>,
): Promise<CachedLocate> {
  if (!s.cache?.read) return await byModel(s, locate);
  const step = s.recorder.begin("Locate", `Locate from cache: ${description}`);
  let why: string;
  try {
    const attempt = cached
      ? await findByLocator(s, cached, description, step).catch((e): Attempt => {
        // A cache never fails a call: a location that cannot be checked is a miss.
        if (s.signal?.aborted) throw e;
        return { why: `the cached location could not be checked (${errorMessage(e)})` };
      })
      : { why: `nothing is cached for "${description}" yet` };
    if ("found" in attempt) {
      step.thought = `Cache hit: located ${attempt.how}, without a model call.`;
      s.recorder.end(step);
      return { found: attempt.found };
    }
    why = attempt.why;
    step.thought = `Cache miss: ${why}; locating with the model.`;
    s.recorder.end(step);
  } catch (e) {
    s.recorder.end(step, e);
    throw e;
  }
  const result = await byModel(s, locate);
  if (cached && result.fresh) {
    step.thought =
      `Healed: ${why}; the model located the element again and the cache record is updated.`;
  } else if (result.fresh) {
    step.thought = `Cache miss: ${why}; located with the model, and the location is recorded.`;
  }
  return result;
}

async function byModel(
  s: CallSession,
  locate: () => Promise<LocateResult>,
): Promise<CachedLocate> {
  const found = await locate();
  const fresh = s.cache?.write ? await locatorOf(s, found) : undefined;
  return { found, ...(fresh ? { fresh } : {}) };
}

/**
 * Records where `description` was found when the call may write (an `aiAct` plan's box, which
 * needed no locate call).
 */
export async function rememberLocate(
  s: CallSession,
  description: string,
  found: LocateResult,
): Promise<void> {
  if (!s.cache?.write) return;
  const fresh = await locatorOf(s, found);
  if (fresh) putLocate(s, description, fresh);
}

function putLocate(s: CallSession, description: string, locator: Locator): void {
  s.cache?.store.putLocate(description, locator.xpaths, locator.target, locator.fingerprint);
}

/**
 * How to find `found` again: the device's xpaths of the element at its center with what is at
 * the point an xpath selects, or, where the device names no xpath, the element's crop of the
 * screenshot it was found on. `undefined` when neither can be had; a failure is a warning, never
 * the call's error.
 */
export async function locatorOf(
  s: CallSession,
  found: LocateResult,
): Promise<Locator | undefined> {
  try {
    const { element } = found;
    if (s.device.xpathsAt) {
      const xpaths = await s.device.xpathsAt(element.center);
      if (xpaths.length > 0) {
        // Read where a later hit will read it: the center of what the xpath selects.
        const selected = await s.device.locateByXpath?.(xpaths[0]);
        const [target] = selected && s.device.targetsAt
          ? await s.device.targetsAt([selected.center])
          : [];
        return { xpaths, ...(target ? { target } : {}) };
      }
    }
    const template = await cutTemplate(found.screen.image.dataUri, found.imageRect);
    if (!template) return undefined;
    const r = template.region, i = found.imageRect;
    const grown = r.left !== Math.round(i.left) || r.top !== Math.round(i.top) ||
      r.width !== Math.round(i.width) || r.height !== Math.round(i.height);
    const box = grown ? toLocatedElement(found.screen, r, "").rect : element.rect;
    return {
      xpaths: [],
      fingerprint: { image: template.dataUri, box, ...(grown ? { element: element.rect } : {}) },
    };
  } catch (e) {
    console.warn(
      `cache: could not record the location of "${found.element.description}": ${errorMessage(e)}`,
    );
    return undefined;
  }
}

type Attempt = { found: LocateResult; how: string } | { why: string };

/** Finds the element of `locator` now: by its xpaths (identity checked), else by its look. */
async function findByLocator(
  s: CallSession,
  locator: Locator,
  description: string,
  step: ReportStep,
): Promise<Attempt> {
  const find = s.device.locateByXpath?.bind(s.device);
  let why: string | undefined;
  if (locator.xpaths.length > 0 && find) {
    let changed: string | undefined;
    for (const xpath of locator.xpaths) {
      // A cached xpath the page no longer accepts is a miss like any other.
      const element = await find(xpath).catch(() => undefined);
      if (!element) continue;
      changed = await cachedTargetChange(s, locator.target, element.center);
      if (changed) continue;
      const found = await elementOnScreen(s, { ...element, description }, step);
      return { found, how: `by the cached xpath ${xpath} (its target checked)` };
    }
    why = changed
      ? `the cached xpath selects another target now (${changed})`
      : "no cached xpath selects a visible element";
  }
  if (locator.fingerprint) {
    const attempt = await findByLook(s, locator.fingerprint, description, step);
    if ("found" in attempt || !why) return attempt;
    return { why: `${why}, and ${attempt.why}` };
  }
  return {
    why: why ?? "the cached location is an xpath, and this device cannot locate by xpath",
  };
}

/** Finds an element by its cached look on a screenshot taken now. */
async function findByLook(
  s: CallSession,
  fingerprint: NonNullable<Locator["fingerprint"]>,
  description: string,
  step: ReportStep,
): Promise<Attempt> {
  const screen = await captureFor(s, "default");
  const template = imageSizeFromDataUri(fingerprint.image);
  // Template pixels per logical pixel when cut, over screenshot pixels per logical pixel now.
  const scale = (template.width / fingerprint.box.width) /
    (screen.image.contentWidth / screen.logical.width);
  const match = await findTemplate(screen.image.dataUri, fingerprint.image, scale);
  Object.assign(step, { screenshot: screen.screenshotId });
  if (!match || match.score < TEMPLATE_MATCH_THRESHOLD) {
    const best = match
      ? `best match ${match.score.toFixed(2)}, below ${TEMPLATE_MATCH_THRESHOLD}`
      : "it is larger than the screen";
    return { why: `its cached look is not on the screen (${best})` };
  }
  if (match.runnerUp >= TEMPLATE_MATCH_THRESHOLD) {
    return {
      why: `its cached look is in more than one place (matches ${match.score.toFixed(2)} and ${
        match.runnerUp.toFixed(2)
      }), which cannot be told apart`,
    };
  }
  // The element within the crop, when the crop was cut larger than the element.
  const inner = fingerprint.element;
  const k = match.region.width / fingerprint.box.width;
  const imageRect = inner
    ? {
      left: match.region.left + (inner.left - fingerprint.box.left) * k,
      top: match.region.top + (inner.top - fingerprint.box.top) * k,
      width: inner.width * k,
      height: inner.height * k,
    }
    : match.region;
  const element: LocatedElement = toLocatedElement(screen, imageRect, description);
  Object.assign(step, markTarget(imageRect));
  return {
    found: { element, imageRect, screen },
    how: `by its cached look (match ${match.score.toFixed(2)})`,
  };
}

/**
 * Why the element at `point` is not the cached `target` (kind, id, name, row; its box may differ
 * from run to run), or `undefined` when it is, when the record has no target, or when the device
 * names nothing (docs/agent.md, "Cache").
 */
async function cachedTargetChange(
  s: CallSession,
  target: TargetIdentity | undefined,
  point: Point,
): Promise<string | undefined> {
  if (!target || !s.device.targetsAt) return undefined;
  const [now] = await s.device.targetsAt([point]);
  return targetDifference(target, now && { ...now, box: target.box });
}
