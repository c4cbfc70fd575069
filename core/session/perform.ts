/**
 * Performs one action of the device's action space: checks its parameters against the action's
 * own spec, runs it between the device's before/after hooks, then waits `waitAfterAction`.
 *
 * @module
 */

import { SdkTypeError, UnsupportedActionError } from "../errors.ts";
import type { ActionContext, DeviceAction, LocatedElement } from "../device/types.ts";
import type { ReportStep } from "../report/types.ts";
import { sleep } from "../runtime/runtime.ts";
import { logger } from "../log/run_log.ts";
import { checkParamShape } from "../device/param_shape.ts";
import type { CallSession } from "./session.ts";
import { type AllowedUploadDir, resolvePlannedFiles } from "./upload_paths.ts";

const log = logger("sdk:agent");

/**
 * Finds an action by name.
 *
 * @throws {UnsupportedActionError} naming the actions the device has.
 */
export function findAction(actions: readonly DeviceAction[], name: string): DeviceAction {
  const action = actions.find((a) => a.name === name);
  if (!action) {
    throw new UnsupportedActionError(
      `This device has no action named "${name}"; its actions are: ${
        actions.map((a) => a.name).join(", ")
      }`,
      name,
    );
  }
  return action;
}

/**
 * Checks a param object against an action's spec.
 *
 * @throws {TypeError} naming the action and the parameter.
 */
function checkParams(action: DeviceAction, param: Record<string, unknown>): void {
  for (const spec of action.params) {
    const v = param[spec.name];
    if (v === undefined || v === null) {
      if (spec.required) {
        throw new SdkTypeError(`Action ${action.name} needs the parameter "${spec.name}"`);
      }
      continue;
    }
    const ok = spec.type === "locate"
      ? typeof v === "object" && Array.isArray((v as LocatedElement).center)
      : spec.type === "files"
      ? typeof v === "string" || (Array.isArray(v) && v.every((f) => typeof f === "string"))
      : spec.type === "enum"
      ? (spec.values ?? []).includes(String(v))
      : spec.type === "number"
      ? typeof v === "number" && Number.isFinite(v)
      : spec.type === "string"
      ? typeof v === "string"
      : typeof v === "boolean";
    if (!ok) {
      throw new SdkTypeError(
        `Action ${action.name}: parameter "${spec.name}" must be ${
          spec.type === "enum"
            ? `one of ${spec.values?.join(", ")}`
            : spec.type === "files"
            ? "a file path or an array of file paths"
            : `a ${spec.type}`
        }, got ${JSON.stringify(v)}`,
      );
    }
  }
}

/** A param object for display in the report: located elements shown by description and point. */
function displayParam(param: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(param).map(([k, v]) => {
      const el = v as LocatedElement | undefined;
      return [
        k,
        el && typeof el === "object" && Array.isArray(el.center)
          ? { description: el.description, center: el.center }
          : v,
      ];
    }),
  );
}

/**
 * Performs `name` with `param`; `mark` places the target on the step's screenshot; `context`
 * adds call settings (e.g. `inputOptions`) to the action's {@link ActionContext}. `files`
 * parameters (from a planner) are checked against `allowedDir` (the call's
 * `fileChooserAllowedDir`) and replaced by real paths; without it they are rejected.
 */
export async function performAction(
  s: CallSession,
  name: string,
  param: Record<string, unknown>,
  mark: Partial<ReportStep> = {},
  context: Omit<ActionContext, "signal"> = {},
  allowedDir?: AllowedUploadDir,
): Promise<void> {
  checkParamShape(name, param, "the call");
  // A typed value the caller marked secret, or one typed as a secret before, is *** from the
  // start; one the device finds going into a password field from then on.
  const typed = typeof param.value === "string" ? param.value : undefined;
  const secret = { value: context.secret?.value === true || s.secrets?.has(typed) === true };
  const shown = displayParam(param);
  const hide = () => {
    if (!secret.value || typed === undefined) return;
    s.secrets?.add(typed);
    shown.value = "***";
  };
  hide();
  const step = s.recorder.begin("Action", name, { ...mark, param: shown });
  const started = Date.now();
  try {
    const action = findAction(s.device.actionSpace(), name);
    checkParams(action, param);
    await resolvePlannedFiles(action, param, allowedDir);
    s.signal?.throwIfAborted();
    // For agent.exportScript(): how to find its elements again, read while they are there.
    const noted = await s.journal?.capture(s.device, s.cache, action, param, context);
    await s.device.beforeAction?.();
    try {
      await action.call(param, { ...context, secret, signal: s.signal });
    } finally {
      hide();
    }
    await s.device.afterAction?.();
    if (noted) s.journal?.performed(noted);
    if (s.waitAfterAction > 0) await sleep(s.waitAfterAction, s.signal);
    s.recorder.end(step);
    log("action", { name, param: shown, ms: Date.now() - started });
  } catch (e) {
    s.recorder.end(step, e);
    log("action failed", { name, param: shown, ms: Date.now() - started, error: e });
    throw e;
  }
}
