/**
 * The `aiAct` loop (spec 4.2): screenshot, plan one step, locate, act, and replan from the new
 * screen until the model says the task is finished, the limit is reached or the call is aborted.
 *
 * @module
 */

import type { CallSession } from "../agent/session.ts";
import { captureFor } from "../agent/session.ts";
import { toLocatedElement } from "../agent/screen.ts";
import type { Screen } from "../agent/screen.ts";
import { findAction, performAction } from "../agent/perform.ts";
import type { DeviceAction } from "../device/types.ts";
import { ModelResponseError, PlanningError } from "../errors.ts";
import { planSystemPrompt, planUserText } from "../model/prompts.ts";
import type { ReportStep } from "../report/types.ts";
import { modelStep, stringField } from "../insight/ask.ts";
import { locateElement, markTarget } from "../insight/locate.ts";

/** Options of one planning run. */
export interface PlanRunOptions {
  /** Effective user context. */
  context?: string;
  /** Separate planning from locating (one extra call per located action). */
  deepThink: boolean;
  /** Maximum planning cycles. */
  cycleLimit: number;
}

interface PlannedAction {
  type: string;
  param: Record<string, unknown>;
}

function readPlannedAction(json: Record<string, unknown>, raw: string): PlannedAction | undefined {
  const a = json.action;
  if (a === null || a === undefined) return undefined;
  if (typeof a !== "object" || typeof (a as PlannedAction).type !== "string") {
    throw new ModelResponseError(
      `The planner's "action" must be {"type": string, "param": object}, got ${JSON.stringify(a)}`,
      raw,
    );
  }
  const p = (a as PlannedAction).param;
  return { type: (a as PlannedAction).type, param: p && typeof p === "object" ? { ...p } : {} };
}

/** Resolves the locate parameters of a planned action into elements, with marks for the report. */
async function resolveLocates(
  s: CallSession,
  action: DeviceAction,
  param: Record<string, unknown>,
  screen: Screen,
  options: PlanRunOptions,
): Promise<Partial<ReportStep>> {
  const family = s.caller.config("planning").family;
  let mark: Partial<ReportStep> = {};
  for (const spec of action.params.filter((p) => p.type === "locate")) {
    const v = param[spec.name] as { prompt?: unknown; bbox?: unknown } | string | undefined | null;
    if (v === undefined || v === null) continue;
    const prompt = typeof v === "string" ? v : typeof v.prompt === "string" ? v.prompt : "";
    const bbox = typeof v === "object" ? v.bbox : undefined;
    if (bbox !== undefined && bbox !== null && !options.deepThink) {
      const rect = family.toPixelRect(bbox, screen.modelImage);
      param[spec.name] = toLocatedElement(screen, rect, prompt);
      mark = { screenshot: screen.screenshotId, ...markTarget(rect) };
    } else {
      if (!prompt) {
        throw new PlanningError(
          `The planner gave ${action.name}.${spec.name} without a prompt or bbox`,
        );
      }
      const located = await locateElement(s, prompt, options.context);
      param[spec.name] = located.element;
      mark = { screenshot: located.screen.screenshotId, ...markTarget(located.imageRect) };
    }
  }
  return mark;
}

/**
 * Runs the planning loop for `instruction`; returns the model's output text.
 *
 * @throws {PlanningError} when the model reports an error, an action fails or the limit is hit.
 * @throws the signal's reason when `s.signal` aborts.
 */
export async function runPlan(
  s: CallSession,
  instruction: string,
  options: PlanRunOptions,
): Promise<string | undefined> {
  const history: string[] = [];
  const planning = s.caller.config("planning");
  for (let cycle = 1; cycle <= options.cycleLimit; cycle++) {
    s.signal?.throwIfAborted();
    const actions = s.device.actionSpace();
    const screen = await captureFor(s, "planning");
    const plan = await modelStep(s, {
      kind: "Planning",
      title: `Plan step ${cycle}`,
      intent: "planning",
      system: planSystemPrompt(actions, planning.family, !options.deepThink),
      user: planUserText(instruction, history, options.context, screen.image),
      screen,
    }, (answer, step) => {
      const log = stringField(answer.json, "log");
      step.thought ??= log;
      const error = stringField(answer.json, "error");
      if (error) throw new PlanningError(`aiAct failed: ${error}`);
      const planned = readPlannedAction(answer.json, answer.raw);
      const finished = answer.json.finished === true;
      if (!planned && !finished) {
        throw new PlanningError(
          `The planner answered neither an action nor "finished": ${answer.raw.slice(0, 500)}`,
        );
      }
      return { log, planned, finished, output: stringField(answer.json, "output") };
    });
    const { planned, log } = plan;
    if (planned) {
      let action: DeviceAction;
      try {
        action = findAction(actions, planned.type);
      } catch (e) {
        throw new PlanningError(
          `The planner chose an action this device does not have: ${(e as Error).message}`,
        );
      }
      const mark = await resolveLocates(s, action, planned.param, screen, options);
      await performAction(s, action.name, planned.param, mark);
      history.push(log ?? `${planned.type} ${JSON.stringify(planned.param)}`);
    }
    await s.recorder.flush();
    if (plan.finished) return plan.output;
  }
  throw new PlanningError(
    `aiAct stopped: replanningCycleLimit (${options.cycleLimit}) reached before the model said the task was finished. ` +
      `Raise replanningCycleLimit or split the task.`,
  );
}
