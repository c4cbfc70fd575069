/**
 * `runGherkinScenario` (spec 4.5, beta): runs the steps of one Gherkin scenario as agent calls,
 * `Given` / `When` through `aiAct`, `Then` through `aiAssert` (see `keywords.ts`).
 *
 * @module
 */

import { InvalidStateError, SdkRangeError, SdkTypeError } from "../errors.ts";
import { untrustedAgentRefusal } from "../device/powers.ts";
import { GherkinParseError, GherkinStepError } from "./errors.ts";
import { stepActions } from "./keywords.ts";
import { parseGherkin } from "./parse.ts";
import type { GherkinFeature, GherkinScenario } from "./types.ts";

/** Options `runGherkinScenario` passes to each `aiAct` call. */
export interface GherkinActOptions {
  /** Per-call context (spec 2.4 rule 6). */
  context?: string;
  /** Planning mode of `aiAct`. */
  deepThink?: "unset" | boolean;
  /** Enhanced location. */
  deepLocate?: boolean;
  /** Stops the planning loop. */
  abortSignal?: AbortSignal;
}

/** Options `runGherkinScenario` passes to each `aiAssert` call. */
export interface GherkinAssertOptions {
  /** Per-call context (spec 2.4 rule 6). */
  context?: string;
}

/** What a Gherkin run needs of an agent: `aiAct` and `aiAssert` (every agent has both). */
export interface GherkinAgent {
  /** Runs a Given / When step. */
  aiAct(prompt: string, options: GherkinActOptions): Promise<unknown>;
  /** Checks a Then step; `errorMsg` is always undefined here. */
  aiAssert(
    assertion: string,
    errorMsg: string | undefined,
    options: GherkinAssertOptions,
  ): Promise<unknown>;
}

/** Options of `runGherkinScenario` (spec 4.5). */
export interface GherkinScenarioOptions {
  /**
   * Context of every mapped call: it is passed as the per-call `context` of each `aiAct` and
   * `aiAssert`, so it overrides the API-specific `aiContexts` entries and `aiContexts.default`
   * (spec 2.4 rule 6); `""` clears them. Undefined: each call resolves its context as usual.
   */
  context?: string;
  /**
   * Stops the run: checked before each step and passed to `aiAct` (whose planning loop stops).
   * The run then rejects with the signal's reason. An `aiAssert` in flight (one model call) is
   * not interrupted; its result is discarded.
   */
  abortSignal?: AbortSignal;
  /** Passed to `aiAct` for `Given` / `When` steps: planning separated from locating. */
  deepThink?: "unset" | boolean;
  /** Passed to `aiAct` for `Given` / `When` steps: enhanced location. */
  deepLocate?: boolean;
  /**
   * The text is not yours (docs/security.md, "Running scripts you did not write"): its steps are
   * prompts that could steer the model, so it runs only on an agent whose action space does not
   * reach past the screen (no device shell, no raw driver requests). Default `false`.
   */
  untrusted?: boolean;
}

/** The options of the `aiAct` and `aiAssert` calls of a run. */
function callOptions(options: GherkinScenarioOptions): {
  act: GherkinActOptions;
  assert: GherkinAssertOptions;
} {
  const act: GherkinActOptions = {};
  const assert: GherkinAssertOptions = {};
  if (options.context !== undefined) act.context = assert.context = options.context;
  if (options.deepThink !== undefined) act.deepThink = options.deepThink;
  if (options.deepLocate !== undefined) act.deepLocate = options.deepLocate;
  if (options.abortSignal !== undefined) act.abortSignal = options.abortSignal;
  return { act, assert };
}

/**
 * Throws a `TypeError` unless `target` has `aiAct` and `aiAssert` methods, and an
 * `InvalidStateError` for an `untrusted` run on an agent whose action space reaches past the
 * screen.
 */
export function checkGherkinAgent(target: unknown, options: GherkinScenarioOptions = {}): void {
  const t = target as Partial<GherkinAgent> | null | undefined;
  if (typeof t?.aiAct !== "function" || typeof t?.aiAssert !== "function") {
    throw new SdkTypeError("runGherkinScenario needs an agent with aiAct and aiAssert methods");
  }
  const refusal = options.untrusted ? untrustedAgentRefusal(target) : undefined;
  if (refusal !== undefined) throw new InvalidStateError(`Gherkin: ${refusal}`);
}

/** The error for a scenario with no steps: it points at the first line read as description. */
export function noStepsError(
  scenario: GherkinScenario,
  feature: GherkinFeature,
  fileName?: string,
): GherkinParseError {
  const name = scenario.name ? `Scenario "${scenario.name}"` : "The scenario";
  const keywords = feature.stepKeywords.join(", ");
  if (scenario.descriptionLine !== undefined) {
    return new GherkinParseError([{
      line: scenario.descriptionLine,
      column: 1,
      message: `${name} has no steps: this line is not a step (a step starts with a keyword: ` +
        `${keywords})`,
    }], fileName);
  }
  return new GherkinParseError([{
    line: scenario.scenarioLine,
    column: 1,
    message: `${name} has no steps (a step starts with a keyword: ${keywords})`,
  }], fileName);
}

/**
 * Runs one parsed scenario's steps in order (Background steps first). Internal to the Gherkin
 * runners.
 *
 * @throws the signal's reason when `abortSignal` aborts; {GherkinStepError} for a failing step.
 */
export async function runScenarioSteps(
  target: GherkinAgent,
  scenario: GherkinScenario,
  options: GherkinScenarioOptions,
  fileName?: string,
): Promise<void> {
  const signal = options.abortSignal;
  const { act, assert } = callOptions(options);
  const actions = stepActions(scenario.steps);
  for (const [i, step] of scenario.steps.entries()) {
    signal?.throwIfAborted();
    const action = actions[i];
    try {
      if (action.api === "aiAct") await target.aiAct(action.prompt, { ...act });
      else await target.aiAssert(action.prompt, undefined, { ...assert });
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      throw new GherkinStepError({
        gherkinLine: step.line,
        step: `${step.keyword}${step.text}`,
        action,
        scenario: scenario.name,
        examplesRowLine: scenario.examplesRowLine,
        fileName,
      }, cause);
    }
  }
  signal?.throwIfAborted();
}

/**
 * Runs one Gherkin scenario on an agent (spec 4.5, beta): each step becomes one agent call, in
 * order. `Given` and `When` steps run `aiAct` (with `deepThink` / `deepLocate`), `Then` steps run
 * `aiAssert`; `And`, `But` and `*` take the call of the step before them. Keywords are those of
 * the text's language (`# language: fr` gives `Soit` / `Quand` / `Alors`, ...).
 *
 * The text is one `Scenario:` (with its `Feature:` and `Background:` if wanted), one
 * `Scenario Outline:` with a single `Examples` row, or just steps without any header. A step's
 * DocString or data table is appended to its prompt (see `stepPrompt`). For a `.feature` file with
 * several scenarios or outline rows use `runGherkinFeature` (or the command line).
 *
 * @example
 * ```ts ignore
 * await runGherkinScenario(agent, `
 *   Given I sign in as alice with password secret
 *   When I add the todo 'Buy milk'
 *   Then the list shows 'Buy milk'
 * `);
 * ```
 *
 * @throws {GherkinStepError} when a step fails: its message names the Gherkin line, the step as
 * written and the action run; `cause` is the agent's error.
 * @throws {GherkinParseError} on a syntax error, or a scenario without steps, naming the line.
 * @throws {RangeError} when the text holds no scenario, or more than one.
 * @throws the signal's reason when `abortSignal` is aborted (before or during a step).
 */
export async function runGherkinScenario(
  target: GherkinAgent,
  scenarioText: string,
  options: GherkinScenarioOptions = {},
): Promise<void> {
  checkGherkinAgent(target, options);
  options.abortSignal?.throwIfAborted();
  const feature = await parseGherkin(scenarioText);
  const { scenarios } = feature;
  if (scenarios.length === 0) {
    throw new SdkRangeError(
      "runGherkinScenario: the text holds no scenario (give steps, or a Scenario: with steps)",
    );
  }
  if (scenarios.length > 1) {
    const lines = scenarios.map((s) => s.line).join(", ");
    throw new SdkRangeError(
      `runGherkinScenario runs one scenario, but the text holds ${scenarios.length} ` +
        `(scenarios or Examples rows at lines ${lines}); use runGherkinFeature, or the ` +
        `command line, to run a feature file with several scenarios`,
    );
  }
  const [scenario] = scenarios;
  if (scenario.steps.length === 0) throw noStepsError(scenario, feature);
  await runScenarioSteps(target, scenario, options);
}
