/**
 * The plan cache of `aiAct` (spec 2.2): the actions of a completed plan are stored with their
 * `locate` parameters as descriptions; a later `aiAct` with the same instruction replays them
 * without planning calls, locating each element through the locate cache, then the model.
 *
 * @module
 */

import type { DeviceAction } from "../device/types.ts";
import { deepLocateElement, locateElement, markTarget } from "../insight/locate.ts";
import type { ReportStep } from "../report/types.ts";
import { errorMessage } from "../session/execution.ts";
import { findAction, performAction } from "../session/perform.ts";
import type { CallSession } from "../session/session.ts";
import type { AllowedUploadDir } from "../session/upload_paths.ts";
import { locateWithCache } from "./locate_cache.ts";
import type { PlanCacheAction } from "../session/cache_file.ts";

/**
 * A planned action as the plan cache keeps it: each `locate` parameter becomes its description.
 * `undefined` when a located parameter has no description (a plan with it is not cached).
 * Call it before the parameters are resolved into elements.
 */
export function toCacheAction(
  action: DeviceAction,
  param: Record<string, unknown>,
): PlanCacheAction | undefined {
  const kept = structuredClone(param);
  for (const spec of action.params.filter((p) => p.type === "locate")) {
    const v = kept[spec.name] as { prompt?: unknown } | string | undefined | null;
    if (v === undefined || v === null) continue;
    const prompt = typeof v === "string" ? v : v.prompt;
    if (typeof prompt !== "string" || !prompt) return undefined;
    kept[spec.name] = prompt;
  }
  return { type: action.name, param: kept };
}

/** How a replay locates and acts: the `aiAct` call's settings. */
export interface ReplayOptions {
  /** Effective user context for the model locates. */
  context?: string;
  /** Locate with deepLocate when the cache misses. */
  deepLocate?: boolean;
  /** The call's checked `fileChooserAccept`. */
  fileChooserAccept?: readonly string[];
  /** The call's checked `fileChooserAllowedDir`. */
  fileChooserAllowedDir?: AllowedUploadDir;
}

/** How a replay ended. */
export interface ReplayResult {
  /** Whether every cached action was performed. */
  finished: boolean;
  /** The cached output text, when finished. */
  output?: string;
  /** The cached actions performed before one failed (all of them when finished). */
  performed: PlanCacheAction[];
}

/**
 * Replays the cached plan of `instruction` when the call may read the cache. The report gets a
 * "Replayed from cache" planning step.
 *
 * @returns `undefined` when there is no cached plan; else whether every action was performed.
 * When one failed (its element not found, or the action threw), the caller plans from the
 * current screen.
 * @throws the signal's reason when the call is aborted.
 */
export async function replayPlan(
  s: CallSession,
  instruction: string,
  options: ReplayOptions,
): Promise<ReplayResult | undefined> {
  const record = s.cache?.read ? s.cache.store.findPlan(instruction) : undefined;
  if (!record) return undefined;
  const step = s.recorder.begin("Planning", "Replayed from cache", {
    thought: `Replaying ${record.actions.length} cached action(s) without planning calls.`,
  });
  let current = 0;
  try {
    for (; current < record.actions.length; current++) {
      s.signal?.throwIfAborted();
      const cached = record.actions[current];
      const action = findAction(s.device.actionSpace(), cached.type);
      const param = structuredClone(cached.param);
      let mark: Partial<ReportStep> = {};
      for (const spec of action.params.filter((p) => p.type === "locate")) {
        const description = param[spec.name];
        if (typeof description !== "string") continue;
        const locate = options.deepLocate ? deepLocateElement : locateElement;
        const found = await locateWithCache(
          s,
          description,
          () => locate(s, description, options.context),
        );
        param[spec.name] = found.element;
        if (!mark.target) {
          mark = { screenshot: found.screen.screenshotId, ...markTarget(found.imageRect) };
        }
      }
      await performAction(
        s,
        action.name,
        param,
        mark,
        { fileChooserAccept: options.fileChooserAccept },
        options.fileChooserAllowedDir,
      );
    }
  } catch (e) {
    if (s.signal?.aborted) {
      s.recorder.end(step, e);
      throw e;
    }
    // The page moved on from the cached plan: plan anew from where the replay stopped.
    step.thought =
      `Replay from cache stopped at action ${current + 1} of ${record.actions.length}` +
      ` (${record.actions[current]?.type}): ${errorMessage(e)}. Planning from the current screen.`;
    s.recorder.end(step);
    await s.recorder.flush();
    return { finished: false, performed: record.actions.slice(0, current) };
  }
  s.recorder.end(step);
  return { finished: true, output: record.output, performed: record.actions };
}
