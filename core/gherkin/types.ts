/**
 * The shapes of parsed Gherkin: features, scenarios and steps, as `parse.ts` produces them and the
 * runner and keyword mapping read them.
 *
 * @module
 */

/**
 * What kind of step a keyword makes, as Gherkin classifies it: `Context` (Given), `Action`
 * (When), `Outcome` (Then), `Conjunction` (And, But), `Unknown` (`*`, or a word that is more
 * than one kind in its language).
 */
export type GherkinKeywordType = "Context" | "Action" | "Outcome" | "Conjunction" | "Unknown";

/** One step as written, after `Scenario Outline` substitution. */
export interface GherkinStep {
  /** Line of the step in the text (1-based). */
  line: number;
  /** The keyword as written, with its trailing space when the language has one (`"When "`). */
  keyword: string;
  /** The keyword's kind, from the dialect of the text. */
  keywordType: GherkinKeywordType;
  /** The step text after the keyword, `<placeholders>` of an outline replaced. */
  text: string;
  /** The step's DocString, when it has one. */
  docString?: { content: string; mediaType?: string };
  /** The step's data table, rows of cells, when it has one. */
  dataTable?: string[][];
}

/** One runnable scenario: a `Scenario`, or one `Examples` row of a `Scenario Outline`. */
export interface GherkinScenario {
  /** The scenario's name; for an outline row, with `<placeholders>` replaced. May be empty. */
  name: string;
  /**
   * Line of the scenario (1-based): the `Scenario:` line, or for an outline the line of its
   * `Examples` row, as Cucumber reports it. For wrapped bare steps, the first step's line.
   */
  line: number;
  /** Line of the `Scenario:` / `Scenario Outline:` header (for wrapped bare steps, as `line`). */
  scenarioLine: number;
  /** For an outline row, the line of its `Examples` row; otherwise undefined. */
  examplesRowLine?: number;
  /** Tags of the feature, rule, scenario and `Examples` block, e.g. `"@smoke"`. */
  tags: string[];
  /** Background steps first, then the scenario's own, in order. */
  steps: GherkinStep[];
  /**
   * When the scenario has no steps but text below its header: the first such line. Gherkin reads
   * lines without a step keyword as a description, so this is usually a step missing its keyword.
   */
  descriptionLine?: number;
}

/** A parsed feature text. */
export interface GherkinFeature {
  /** The feature's name (empty for wrapped text). */
  name: string;
  /** The dialect, e.g. `"en"`, `"fr"`. */
  language: string;
  /** Every runnable scenario, in the order of the text. */
  scenarios: GherkinScenario[];
  /** The step keywords of the dialect, for messages (`["Given", "When", "Then", ...]`). */
  stepKeywords: string[];
}
