/**
 * The locate cache (spec 2.2, 4.2): a located element is remembered as the xpaths the device
 * gives for its center (`xpathsAt`), keyed by the prompt text; later calls try those xpaths
 * (`locateByXpath`) before asking the model. Devices without both capabilities are not cached.
 *
 * @module
 */

import type { LocatedElement, Point, TargetIdentity } from "../device/types.ts";
import { targetDifference } from "../device/target_identity.ts";
import type { LocateResult } from "../insight/locate.ts";
import { elementOnScreen } from "../insight/locate_xpath.ts";
import { errorMessage } from "../session/execution.ts";
import type { CallSession } from "../session/session.ts";

/**
 * Locates `description` from the cache when the call may read it; else, or when no cached xpath
 * selects a visible element, by `locate` (the model), and records the result when the call may
 * write.
 */
export async function locateWithCache(
  s: CallSession,
  description: string,
  locate: () => Promise<LocateResult>,
): Promise<LocateResult> {
  const hit = await locateFromCache(s, description);
  if (hit) return hit;
  const found = await locate();
  await rememberLocate(s, description, found.element);
  return found;
}

/**
 * The element of a cached location of `description`: the first cached xpath that selects a
 * visible element. A report step says "cache hit" or that the model locates instead.
 */
async function locateFromCache(
  s: CallSession,
  description: string,
): Promise<LocateResult | undefined> {
  const record = s.cache?.read ? s.cache.store.findLocate(description) : undefined;
  const find = s.device.locateByXpath?.bind(s.device);
  if (!record || !find) return undefined;
  const step = s.recorder.begin("Locate", `Locate from cache: ${description}`);
  try {
    let changed: string | undefined;
    for (const xpath of record.xpaths) {
      // A cached xpath the page no longer accepts is a miss like any other.
      const element = await find(xpath).catch(() => undefined);
      if (!element) continue;
      changed = await cachedTargetChange(s, record.target, element.center);
      if (changed) continue;
      const found = await elementOnScreen(s, { ...element, description }, step);
      step.thought = `Cache hit: located by the cached xpath ${xpath}, without a model call.`;
      s.recorder.end(step);
      return found;
    }
    step.thought = changed
      ? `Cache miss: the cached xpath selects another target now (${changed}); locating with the model.`
      : "Cache miss: no cached xpath selects a visible element; locating with the model.";
    s.recorder.end(step);
    return undefined;
  } catch (e) {
    s.recorder.end(step, e);
    throw e;
  }
}

/**
 * Records where `description` was found when the call may write: the device's xpaths of the
 * element at its center. A device that cannot tell them, or fails to, leaves the cache as it is.
 */
export async function rememberLocate(
  s: CallSession,
  description: string,
  element: LocatedElement,
): Promise<void> {
  if (!s.cache?.write || !s.device.xpathsAt) return;
  try {
    const xpaths = await s.device.xpathsAt(element.center);
    // Read where a later hit will read it: the center of what the xpath selects.
    const selected = xpaths.length > 0 ? await s.device.locateByXpath?.(xpaths[0]) : undefined;
    const [target] = selected && s.device.targetsAt
      ? await s.device.targetsAt([selected.center])
      : [];
    s.cache.store.putLocate(description, xpaths, target);
  } catch (e) {
    console.warn(`cache: could not record the location of "${description}": ${errorMessage(e)}`);
  }
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
