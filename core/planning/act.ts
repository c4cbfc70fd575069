/**
 * The `aiAct` loop (spec 4.2): screenshot, plan one step, locate, act, and replan from the new
 * screen until the model says the task is finished, the limit is reached or the call is aborted.
 *
 * @module
 */

import type { CallSession } from "../session/session.ts";
import { captureFor } from "../session/session.ts";
import { toLocatedElement } from "../session/screen.ts";
import type { Screen } from "../session/screen.ts";
import { performAction } from "../session/perform.ts";
import { locateWithCache, rememberLocate } from "../cache/locate_cache.ts";
import { replayPlan, toCacheAction } from "../cache/plan_cache.ts";
import type { PlanCacheAction } from "../session/cache_file.ts";
import type { AllowedUploadDir } from "../session/upload_paths.ts";
import type { LocatedElement, Rect } from "../device/types.ts";
import { PlanningError } from "../errors.ts";
import { planSystemPrompt, planUserText } from "../model/prompts.ts";
import type { ReportStep } from "../report/types.ts";
import { modelStep, stringField } from "../insight/ask.ts";
import { deepLocateElement, locateElement, markTarget } from "../insight/locate.ts";
import { sleep } from "../runtime/runtime.ts";
import type { DialectLocate, DialectStep, DialectTurn, PlannerDialect } from "../model/dialect.ts";
import {
  fitPlannedAction,
  type FittedAction,
  type PlannedAction,
  readPlannedActions,
} from "./plan_answer.ts";
import { startGuard } from "./plan_guard.ts";

/** Options of one planning run. */
export interface PlanRunOptions {
  /** Effective user context. */
  context?: string;
  /** Separate planning from locating (one extra call per located action). */
  deepThink: boolean;
  /** Maximum planning cycles. */
  cycleLimit: number;
  /**
   * How many actions one JSON plan may carry (the dialects plan one): the agent's
   * `maxActionsPerPlan`, whose default is `DEFAULT_MAX_ACTIONS_PER_PLAN` (5) in `session/options.ts`.
   */
  maxActionsPerPlan: number;
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

/**
 * Resolves every locate parameter of a fitted action (e.g. DragAndDrop's `from` and `to`) into
 * elements: from the plan's box when it gave one (already read, in `fitted.rects`), else by a
 * locate call on the prompt; the report marks the first one.
 */
async function resolveLocates(
  s: CallSession,
  fitted: FittedAction,
  screen: Screen,
  options: PlanRunOptions,
): Promise<{ mark: Partial<ReportStep>; regions: Rect[] }> {
  const { action, param, rects } = fitted;
  let mark: Partial<ReportStep> = {};
  const regions: Rect[] = [];
  for (const spec of action.params.filter((p) => p.type === "locate")) {
    const v = param[spec.name] as { prompt: string } | undefined | null;
    if (v === undefined || v === null) continue;
    const rect = rects[spec.name];
    if (rect) {
      regions.push(rect);
      param[spec.name] = toLocatedElement(screen, rect, v.prompt);
      if (!mark.target) mark = { screenshot: screen.screenshotId, ...markTarget(rect) };
      if (v.prompt) await rememberLocate(s, v.prompt, param[spec.name] as LocatedElement);
    } else {
      const locate = options.deepLocate ? deepLocateElement : locateElement;
      const located = await locateWithCache(
        s,
        v.prompt,
        () => locate(s, v.prompt, options.context),
      );
      param[spec.name] = located.element;
      regions.push(located.imageRect);
      if (!mark.target) {
        mark = { screenshot: located.screen.screenshotId, ...markTarget(located.imageRect) };
      }
    }
  }
  return { mark, regions };
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
  const history = done.map((a) => masked(s, `${a.type} ${JSON.stringify(a.param)}`));
  for (let cycle = 1; cycle <= options.cycleLimit; cycle++) {
    s.signal?.throwIfAborted();
    const actions = s.device.actionSpace();
    const screen = await captureFor(s, "planning");
    const useBoxes = !options.deepThink && !options.deepLocate;
    const maxActions = options.maxActionsPerPlan;
    const plan = await modelStep(s, {
      kind: "Planning",
      title: `Plan step ${cycle}`,
      intent: "planning",
      system: planSystemPrompt(actions, planning.family, useBoxes, maxActions),
      user: planUserText(instruction, history, options.context, screen.image),
      screen,
    }, (answer, step) => {
      const log = stringField(answer.json, "log");
      step.thought ??= log;
      const error = stringField(answer.json, "error");
      if (error) throw new PlanningError(`aiAct failed: ${error}`);
      const { actions: planned, over } = readPlannedActions(answer.json, answer.raw, maxActions);
      const finished = answer.json.finished === true;
      if (planned.length === 0 && !finished) {
        throw new PlanningError(
          `The planner answered neither an action nor "finished": ${answer.raw.slice(0, 500)}`,
        );
      }
      // The actions and their parameters are fitted here, inside the answer's reading step, so
      // that an action the device lacks or a parameter that does not fit gets the retry.
      const fitted = planned.map((p) =>
        fitPlannedAction(actions, p, {
          family: planning.family,
          image: screen.modelImage,
          useBoxes,
        }, answer.raw)
      );
      return { log, planned, fitted, over, finished, output: stringField(answer.json, "output") };
    });
    for (const extra of plan.over) {
      recordNotPerformed(
        s,
        describePlanned(extra),
        `The plan held more than maxActionsPerPlan (${maxActions}) actions; the rest is not performed.`,
      );
    }
    // Where the plan's actions acted, in model-image pixels: what the guard does not compare.
    const acted: Rect[] = [];
    // "finished" holds only if every action of the plan ran.
    let allRan = plan.over.length === 0;
    const guard = plan.fitted.length > 1
      ? await startGuard(s, screen, plan.fitted.map((f) => Object.values(f.rects)))
      : undefined;
    for (const [i, fitted] of plan.fitted.entries()) {
      const planned = plan.planned[i];
      let shot: Screen | undefined;
      if (i > 0) {
        const check = await guard!.check(i, acted);
        if (check.surprise) {
          dropRest(s, plan.planned.slice(i), check.surprise, history);
          allRan = false;
          break;
        }
        shot = check.screen;
      }
      const cached = toCacheAction(fitted.action, fitted.param);
      done = cached && done ? [...done, cached] : undefined;
      const { mark, regions } = await resolveLocates(s, fitted, screen, options);
      // A further action's step shows the screen it ran on (the guard's), marked where the plan
      // said: no surprise means the element is where it was.
      if (shot) mark.screenshot = shot.screenshotId;
      await performAction(
        s,
        fitted.action.name,
        fitted.param,
        mark,
        { fileChooserAccept: options.fileChooserAccept },
        options.fileChooserAllowedDir,
      );
      acted.push(...regions);
      // One action keeps the plan's log, as before; several have their own.
      const single = plan.fitted.length === 1 && !planned.log ? plan.log : undefined;
      // A value typed as a secret (a password field) is *** in what the model reads next.
      history.push(masked(s, single ?? describePlanned(planned)));
    }
    await s.recorder.flush();
    if (plan.finished && allRan) {
      // A plan that typed a secret is not cached: written as ***, it could not be replayed.
      if (done && s.cache?.write && !done.some((a) => s.secrets?.has(a.param.value))) {
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

/** A planned action as the history and the report name it: its own log, else type and params. */
function describePlanned(planned: PlannedAction): string {
  return planned.log ?? `${planned.type} ${JSON.stringify(planned.param)}`;
}

/**
 * Records the rest of a plan as not performed: the first action with why it was dropped, the
 * later ones as dropped with it; each in the report and in the next planning call's history.
 */
function dropRest(
  s: CallSession,
  rest: readonly PlannedAction[],
  surprise: string,
  history: string[],
): void {
  const first = describePlanned(rest[0]);
  for (const [i, planned] of rest.entries()) {
    const why = i === 0 ? surprise : `dropped with "${first}", whose check found: ${surprise}`;
    recordNotPerformed(s, describePlanned(planned), `Dropped before it ran: ${why}.`);
    history.push(masked(s, `(not done: ${describePlanned(planned)}; ${why})`));
  }
}

/** `text` with the secrets typed so far written as `***`. */
function masked(s: CallSession, text: string): string {
  return s.secrets ? s.secrets.mask(text) : text;
}

/** A report step for a planned action that is not performed, and why. */
function recordNotPerformed(s: CallSession, action: string, why: string): void {
  const step = s.recorder.begin("Log", `Not performed: ${action}`, { thought: why });
  s.recorder.end(step);
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
    history.push({ answer: masked(s, step.historyAnswer), image: screen.image });
    await s.recorder.flush();
    if (step.type === "finished") return step.output;
  }
  throw limitReached(options.cycleLimit);
}
