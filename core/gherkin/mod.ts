/**
 * Gherkin scenarios on an agent (spec 4.5, beta): `runGherkinScenario` runs one scenario's
 * steps, `Given` / `When` through `aiAct` and `Then` through `aiAssert`; `runGherkinFeature`
 * runs every scenario and `Examples` row of a `.feature` text and reports each result.
 * `@cucumber/gherkin` parses the text; it is loaded on first use.
 *
 * @example
 * ```ts ignore
 * import { runGherkinScenario } from "./mod.ts";
 * await runGherkinScenario(agent, `
 *   Scenario: add a todo
 *     Given I sign in as alice with password secret
 *     When I add the todo 'Buy milk'
 *     Then the list shows 'Buy milk'
 * `, { context: "The app is a todo list." });
 * ```
 *
 * @module
 */

export { GherkinParseError, GherkinStepError } from "./errors.ts";
export type { GherkinStepErrorDetails, GherkinSyntaxIssue } from "./errors.ts";
export { stepActions, stepApis, stepPrompt } from "./keywords.ts";
export type { GherkinApi, GherkinStepAction } from "./keywords.ts";
export { parseGherkin } from "./parse.ts";
export type { GherkinFeature, GherkinKeywordType, GherkinScenario, GherkinStep } from "./types.ts";
export { runGherkinScenario } from "./run_scenario.ts";
export type {
  GherkinActOptions,
  GherkinAgent,
  GherkinAssertOptions,
  GherkinScenarioOptions,
} from "./run_scenario.ts";
export { runGherkinFeature } from "./run_feature.ts";
export type {
  GherkinFeatureOptions,
  GherkinScenarioInfo,
  GherkinScenarioResult,
  GherkinScenarioStatus,
} from "./run_feature.ts";
