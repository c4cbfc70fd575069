/**
 * `runGherkinFeature`: runs every scenario of a `.feature` text (each `Scenario Outline` once per
 * `Examples` row) and reports each one's result, for the command line. Beyond spec 4.5, which
 * runs one scenario.
 *
 * @module
 */

import { parseGherkin } from "./parse.ts";
import {
  checkGherkinAgent,
  type GherkinAgent,
  type GherkinScenarioOptions,
  noStepsError,
  runScenarioSteps,
} from "./run_scenario.ts";

/** A scenario about to run, as `beforeScenario` sees it. */
export interface GherkinScenarioInfo {
  /** The scenario's name; for an outline row, with the row's values in place. May be empty. */
  name: string;
  /** Line of the scenario: its `Scenario:` line, or for an outline row its `Examples` row. */
  line: number;
  /** Position among the feature's scenarios, from 0. */
  index: number;
  /** Tags of the feature, rule, scenario and `Examples` block, e.g. `"@smoke"`. */
  tags: string[];
}

/** How a scenario ended. */
export type GherkinScenarioStatus = "passed" | "failed" | "skipped";

/** The result of one scenario of a feature run. */
export interface GherkinScenarioResult {
  /** The scenario's name; for an outline row, with the row's values in place. May be empty. */
  name: string;
  /** Line of the scenario: its `Scenario:` line, or for an outline row its `Examples` row. */
  line: number;
  /** `passed`, `failed`, or `skipped` (after a failure with `failFast`). */
  status: GherkinScenarioStatus;
  /**
   * Why it failed: a `GherkinStepError` for a failing step, a `GherkinParseError` for a scenario
   * without steps, or what `beforeScenario` threw (an `Error`; other values are wrapped in one).
   */
  error?: Error;
  /** Time the scenario took, `beforeScenario` included, in ms (0 when skipped). */
  durationMs: number;
}

/** Options of {@link runGherkinFeature}: those of `runGherkinScenario`, plus the run's hooks. */
export interface GherkinFeatureOptions extends GherkinScenarioOptions {
  /** Names the text in syntax errors and step errors (`Step failed at line 5 of a.feature`). */
  fileName?: string;
  /**
   * Called before each scenario runs, e.g. to open a fresh page: scenarios share the agent and
   * its page, so state one scenario leaves is what the next one starts from. An error it throws
   * fails that scenario (its steps do not run).
   */
  beforeScenario?: (scenario: GherkinScenarioInfo) => void | Promise<void>;
  /** Called with each scenario's result as soon as it is known, skipped ones included. */
  onScenario?: (result: GherkinScenarioResult) => void | Promise<void>;
  /** After the first failed scenario, skip the rest. Default `false`: run every scenario. */
  failFast?: boolean;
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e), { cause: e });
}

/**
 * Runs every scenario of a feature text on an agent, in order: each `Scenario`, and each
 * `Examples` row of a `Scenario Outline` with its values substituted, `Background` steps first.
 * Steps map to agent calls as in `runGherkinScenario`. A failing scenario does not stop the run
 * (unless `failFast`); its result carries the error.
 *
 * @example
 * ```ts ignore
 * const results = await runGherkinFeature(agent, featureText, {
 *   fileName: "todo.feature",
 *   beforeScenario: () => page.goto(appUrl),
 * });
 * const failed = results.filter((r) => r.status === "failed");
 * ```
 *
 * @returns one result per scenario (outline rows count one each), in the order of the text.
 * @throws {GherkinParseError} on a syntax error of the text (no scenario runs).
 * @throws the signal's reason when `abortSignal` aborts (results known so far went to
 * `onScenario`).
 */
export async function runGherkinFeature(
  target: GherkinAgent,
  featureText: string,
  options: GherkinFeatureOptions = {},
): Promise<GherkinScenarioResult[]> {
  checkGherkinAgent(target, options);
  const { fileName, beforeScenario, onScenario, failFast, ...scenarioOptions } = options;
  const signal = options.abortSignal;
  signal?.throwIfAborted();
  const feature = await parseGherkin(featureText, { fileName });
  const results: GherkinScenarioResult[] = [];
  let failed = false;
  for (const [index, scenario] of feature.scenarios.entries()) {
    const base = { name: scenario.name, line: scenario.line };
    let result: GherkinScenarioResult;
    if (failed && failFast) {
      result = { ...base, status: "skipped", durationMs: 0 };
    } else {
      signal?.throwIfAborted();
      const start = performance.now();
      try {
        if (scenario.steps.length === 0) throw noStepsError(scenario, feature, fileName);
        await beforeScenario?.({ ...base, index, tags: [...scenario.tags] });
        await runScenarioSteps(target, scenario, scenarioOptions, fileName);
        result = { ...base, status: "passed", durationMs: performance.now() - start };
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        failed = true;
        result = {
          ...base,
          status: "failed",
          error: asError(e),
          durationMs: performance.now() - start,
        };
      }
    }
    results.push(result);
    await onScenario?.(result);
  }
  return results;
}
