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
import { locateWithCache, rememberLocate } from "../agent/cache/locate_cache.ts";
import { replayPlan, toCacheAction } from "../agent/cache/plan_cache.ts";
import type { PlanCacheAction } from "../agent/cache/yaml_io.ts";
import type { AllowedUploadDir } from "../agent/upload_paths.ts";
import type { DeviceAction, LocatedElement } from "../device/types.ts";
import { ModelResponseError, PlanningError } from "../errors.ts";
import { planSystemPrompt, planUserText } from "../model/prompts.ts";
import type { ReportStep } from "../report/types.ts";
import { modelStep, stringField } from "../insight/ask.ts";
import { deepLocateElement, locateElement, markTarget } from "../insight/locate.ts";
import { sleep } from "../runtime/runtime.ts";
import type { DialectLocate, DialectStep, DialectTurn, PlannerDialect } from "../model/dialect.ts";

/** Options of one planning run. */
export interface PlanRunOptions {
  /** Effective user context. */
  context?: string;
  /** Separate planning from locating (one extra call per located action). */
  deepThink: boolean;
  /** Maximum planning cycles. */
  cycleLimit: number;
  /**
   * Locate each planned element with deepLocate (two calls, the second on a zoomed crop) instead
   * of using the planner's box (JSON protocol only; dialects give their own coordinates).
   */
  deepLocate?: boolean;
  /** The user's `fileChooserAccept`, checked: every action that can choose files gets it. */
  fileChooserAccept?: readonly string[];
  /** The user's `fileChooserAllowedDir`, checked: where planned `files` may come from. */
  fileChooserAllowedDir?: AllowedUploadDir;
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

/**
 * Resolves every locate parameter of a planned action (e.g. DragAndDrop's `from` and `to`) into
 * elements; the report marks the first one.
 */
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
    if (bbox !== undefined && bbox !== null && !options.deepThink && !options.deepLocate) {
      const rect = family.toPixelRect(bbox, screen.modelImage);
      param[spec.name] = toLocatedElement(screen, rect, prompt);
      if (!mark.target) mark = { screenshot: screen.screenshotId, ...markTarget(rect) };
      if (prompt) await rememberLocate(s, prompt, param[spec.name] as LocatedElement);
    } else {
      if (!prompt) {
        throw new PlanningError(
          `The planner gave ${action.name}.${spec.name} without a prompt or bbox`,
        );
      }
      const locate = options.deepLocate ? deepLocateElement : locateElement;
      const located = await locateWithCache(s, prompt, () => locate(s, prompt, options.context));
      param[spec.name] = located.element;
      if (!mark.target) {
        mark = { screenshot: located.screen.screenshotId, ...markTarget(located.imageRect) };
      }
    }
  }
  return mark;
}

/**
 * Runs the planning loop for `instruction`; returns the model's output text.
 *
 * @throws {PlanningError} when the model reports an error or the limit is hit; a failing action's own error otherwise.
 * @throws the signal's reason when `s.signal` aborts.
 */
export async function runPlan(
  s: CallSession,
  instruction: string,
  options: PlanRunOptions,
): Promise<string | undefined> {
  const planning = s.caller.config("planning");
  const dialect = planning.family.planner;
  // Dialect plans carry coordinates without element descriptions, so only this loop is cached.
  if (dialect) return await runDialectPlan(s, dialect, instruction, options);
  const replay = await replayPlan(s, instruction, options);
  if (replay?.finished) return replay.output;
  // The actions done so far, for the plan cache (a failed replay's first ones included);
  // undefined once one cannot be cached.
  let done: PlanCacheAction[] | undefined = [...replay?.performed ?? []];
  const history = done.map((a) => `${a.type} ${JSON.stringify(a.param)}`);
  for (let cycle = 1; cycle <= options.cycleLimit; cycle++) {
    s.signal?.throwIfAborted();
    const actions = s.device.actionSpace();
    const screen = await captureFor(s, "planning");
    const plan = await modelStep(s, {
      kind: "Planning",
      title: `Plan step ${cycle}`,
      intent: "planning",
      system: planSystemPrompt(actions, planning.family, !options.deepThink && !options.deepLocate),
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
      const cached = toCacheAction(action, planned.param);
      done = cached && done ? [...done, cached] : undefined;
      const mark = await resolveLocates(s, action, planned.param, screen, options);
      await performAction(
        s,
        action.name,
        planned.param,
        mark,
        { fileChooserAccept: options.fileChooserAccept },
        options.fileChooserAllowedDir,
      );
      history.push(log ?? `${planned.type} ${JSON.stringify(planned.param)}`);
    }
    await s.recorder.flush();
    if (plan.finished) {
      if (done && s.cache?.write) {
        s.cache.store.putPlan({
          type: "plan",
          prompt: instruction,
          actions: done,
          output: plan.output,
        });
      }
      return plan.output;
    }
  }
  throw limitReached(options.cycleLimit);
}

function limitReached(limit: number): PlanningError {
  return new PlanningError(
    `aiAct stopped: replanningCycleLimit (${limit}) reached before the model said the task was finished. ` +
      `Raise replanningCycleLimit or split the task.`,
  );
}

/**
 * A report step for an action of a dialect answer that is not performed (docs/model-protocol.md,
 * "Planning dialects": of several calls in one UI-TARS `Action:` block only the first counts).
 */
function recordDropped(s: CallSession, dialect: PlannerDialect, performed: string, call: string) {
  const step = s.recorder.begin("Log", `Not performed: ${call}`, {
    thought: `The ${dialect.name} answer held more than one action; only the first ` +
      `(${performed}) is performed, so ${call} was dropped.`,
  });
  s.recorder.end(step);
}

function isDialectLocate(v: unknown): v is DialectLocate {
  return !!v && typeof v === "object" && typeof (v as DialectLocate).prompt === "string" &&
    !!(v as DialectLocate).rect && typeof (v as DialectLocate).rect === "object";
}

/**
 * The planning loop in a family's own dialect (UI-TARS, AutoGLM): the dialect builds each turn's
 * conversation with its history format and reads the answer into device actions whose locations
 * are already pixel rects of the screenshot; the loop performs them.
 */
async function runDialectPlan(
  s: CallSession,
  dialect: PlannerDialect,
  instruction: string,
  options: PlanRunOptions,
): Promise<string | undefined> {
  const history: DialectTurn[] = [];
  for (let cycle = 1; cycle <= options.cycleLimit; cycle++) {
    s.signal?.throwIfAborted();
    const actions = s.device.actionSpace();
    const screen: Screen = await captureFor(s, "planning");
    const step: DialectStep = await modelStep(s, {
      kind: "Planning",
      title: `Plan step ${cycle}`,
      intent: "planning",
      system: "",
      user: "",
      screen,
      format: "text",
      messages: dialect.messages({
        instruction,
        context: options.context,
        actions,
        image: screen.image,
        history,
        promptImages: s.promptImages,
      }),
    }, (answer, reportStep) => {
      const parsed = dialect.parse(answer.raw, {
        actions,
        image: screen.modelImage,
        platform: s.device.interfaceType,
      });
      reportStep.thought = parsed.thought ?? parsed.log;
      if (parsed.type === "error") throw new PlanningError(`aiAct failed: ${parsed.message}`);
      return parsed;
    });
    for (const call of step.dropped ?? []) recordDropped(s, dialect, step.log, call);
    if (step.type === "actions") {
      for (const planned of step.actions) {
        let mark: Partial<ReportStep> = {};
        const param: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(planned.param)) {
          if (isDialectLocate(value)) {
            param[name] = toLocatedElement(screen, value.rect, value.prompt);
            if (!mark.target) mark = { screenshot: screen.screenshotId, ...markTarget(value.rect) };
          } else param[name] = value;
        }
        await performAction(
          s,
          planned.name,
          param,
          mark,
          { fileChooserAccept: options.fileChooserAccept },
          options.fileChooserAllowedDir,
        );
      }
    } else if (step.type === "wait") {
      await sleep(step.ms, s.signal);
    }
    history.push({ answer: step.historyAnswer, image: screen.image });
    await s.recorder.flush();
    if (step.type === "finished") return step.output;
  }
  throw limitReached(options.cycleLimit);
}
