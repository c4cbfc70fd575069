/**
 * The agent's interaction calls (spec 4.2): `aiAct`'s plan-and-act loop, and the instant actions
 * that locate a target then perform one named action.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError, UnsupportedActionError } from "../errors.ts";
import type { ActionContext } from "../device/types.ts";
import { markTarget } from "../insight/locate.ts";
import { runPlan } from "../planning/act.ts";
import { getEnv } from "../runtime/runtime.ts";
import { checkLocateOptions, checkPositive } from "./call_checks.ts";
import type { AIContextApiName } from "../session/context.ts";
import { errorMessage } from "../session/execution.ts";
import type { AgentState } from "./lifecycle.ts";
import { locateTarget } from "./locate_target.ts";
import type {
  AiActOptions,
  AiLongPressOptions,
  AiPinchOptions,
  AiTapOptions,
  LocateOptions,
  TUserPrompt,
} from "../session/options.ts";
import { DEFAULT_MAX_ACTIONS_PER_PLAN } from "../session/options.ts";
import { findAction, performAction } from "../session/perform.ts";
import { resolvePrompt } from "../session/prompt_input.ts";
import { checkLive, contextFor, runCall, useCache } from "./run_call.ts";
import { resolveUploadOptions } from "../session/upload_paths.ts";

/** `agent.aiAct()`: plans and performs a multi-step task, replanning from each new screen. */
export async function actCall(
  state: AgentState,
  prompt: TUserPrompt,
  options: AiActOptions,
): Promise<string | undefined> {
  checkLive(state, "aiAct");
  const secrets = options.secrets ?? [];
  if (!Array.isArray(secrets) || secrets.some((v) => typeof v !== "string")) {
    throw new SdkTypeError(
      `aiAct: 'secrets' must be an array of strings: current value is ${typeof secrets}`,
    );
  }
  for (const value of secrets) state.secrets.add(value);
  const uploads = await resolveUploadOptions("aiAct", state.device.actionSpace(), options);
  const resolved = await resolvePrompt(prompt, "aiAct prompt", options.abortSignal);
  const deepThink = options.deepThink === true;
  return await runCall(state, "aiAct", resolved, ["planning", "default"], async (s) => {
    await useCache(state, s, options.cacheable);
    const envLimit = Number(getEnv("SDK_REPLANNING_CYCLE_LIMIT"));
    const cycleLimit = state.options.replanningCycleLimit ??
      (Number.isInteger(envLimit) && envLimit > 0
        ? envLimit
        : s.caller.config("planning").family.replanningCycleLimit);
    return await runPlan(s, resolved.text, {
      context: contextFor(state, "aiAct", options.context),
      deepThink,
      deepLocate: options.deepLocate === true,
      cycleLimit,
      maxActionsPerPlan: state.options.maxActionsPerPlan ?? DEFAULT_MAX_ACTIONS_PER_PLAN,
      fileChooserAccept: uploads.accept,
      fileChooserAllowedDir: uploads.allowedDir,
    });
  }, options.abortSignal);
}

/** Locates then performs one named action (the instant actions). */
export async function instantCall(
  state: AgentState,
  api: AIContextApiName,
  actionName: string,
  locate: TUserPrompt | undefined,
  opt: LocateOptions | undefined,
  param: Record<string, unknown> = {},
  context: Omit<ActionContext, "signal"> = {},
): Promise<void> {
  checkLive(state, api);
  checkLocateOptions(api, opt);
  requireAction(state, api, actionName);
  const prompt = locate === undefined ? undefined : await resolvePrompt(locate, `${api} locate`);
  return await runCall(state, api, prompt ?? actionName, ["default"], async (s) => {
    let mark = {};
    await useCache(state, s, opt?.cacheable);
    const found = await locateTarget(state, s, api, prompt?.text, opt);
    if (found) {
      param = { ...param, locate: found.element };
      mark = { screenshot: found.screen.screenshotId, ...markTarget(found.imageRect) };
    }
    await performAction(s, actionName, param, mark, context);
  });
}

/** `agent.aiTap()`: with `fileChooserAccept`, the files a file chooser the tap opens gets. */
export async function tapCall(
  state: AgentState,
  locate: TUserPrompt,
  options: AiTapOptions | undefined,
): Promise<void> {
  const tap = options?.fileChooserAccept === undefined
    ? []
    : [findAction(state.device.actionSpace(), "Tap")];
  const { accept } = await resolveUploadOptions("aiTap", tap, {
    fileChooserAccept: options?.fileChooserAccept,
  });
  return await instantCall(state, "aiTap", "Tap", locate, options, {}, {
    fileChooserAccept: accept,
  });
}

/** `agent.aiLongPress()`: its options checked before any model call. */
export async function longPressCall(
  state: AgentState,
  locate: TUserPrompt,
  options: AiLongPressOptions | undefined,
): Promise<void> {
  checkPositive("aiLongPress", "duration", options?.duration);
  requireAction(state, "aiLongPress", "LongPress");
  const param = options?.duration === undefined ? {} : { duration: options.duration };
  return await instantCall(state, "aiLongPress", "LongPress", locate, options, param);
}

/** `agent.aiPinch()`: its options checked before any model call. */
export async function pinchCall(
  state: AgentState,
  locate: TUserPrompt | undefined,
  options: AiPinchOptions,
): Promise<void> {
  const direction = options?.direction;
  if (direction !== "in" && direction !== "out") {
    throw new SdkRangeError(
      `aiPinch: 'direction' must be 'in' (zoom out) or 'out' (zoom in): current value is ${
        JSON.stringify(direction)
      }`,
    );
  }
  checkPositive("aiPinch", "distance", options.distance);
  checkPositive("aiPinch", "duration", options.duration);
  requireAction(
    state,
    "aiPinch",
    "Pinch",
    "On web pages, create the agent with enableTouchEventsInActionSpace: true (Chromium only).",
  );
  const param: Record<string, unknown> = { direction };
  if (options.distance !== undefined) param.distance = options.distance;
  if (options.duration !== undefined) param.duration = options.duration;
  return await instantCall(state, "aiPinch", "Pinch", locate, options, param);
}

// Fails an instant action the device cannot perform before any screenshot or model call.
function requireAction(state: AgentState, api: string, action: string, hint = ""): void {
  try {
    findAction(state.device.actionSpace(), action);
  } catch (e) {
    throw new UnsupportedActionError(`${api}: ${errorMessage(e)}.${hint ? " " + hint : ""}`, api, {
      cause: e,
    });
  }
}
