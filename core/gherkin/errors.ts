/**
 * Errors of Gherkin runs: a syntax error of the text, and a failing step.
 *
 * @module
 */

import { SdkError, type SdkErrorCode } from "../errors.ts";
import type { GherkinStepAction } from "./keywords.ts";

/** One syntax error of a Gherkin text. */
export interface GherkinSyntaxIssue {
  /** Line in the text as given (1-based). */
  line: number;
  /** Column (1-based). */
  column: number;
  /** What the parser expected or found. */
  message: string;
}

/** A Gherkin text could not be parsed; the message names each error's line and column. */
export class GherkinParseError extends SdkError {
  /** Always `"GherkinParseError"`, whatever a bundler renames the class to. */
  override readonly name: string = "GherkinParseError";
  /** Always `"GHERKIN_INVALID"`. */
  override readonly code: SdkErrorCode = "GHERKIN_INVALID";
  /** Line of the first error (1-based). */
  readonly line: number;
  /** Column of the first error (1-based). */
  readonly column: number;
  /** Every error the parser reported. */
  readonly errors: readonly GherkinSyntaxIssue[];
  /** The file name given to the parser, if any. */
  readonly fileName: string | undefined;
  /** Creates the error from the parser's errors (at least one). */
  constructor(errors: readonly GherkinSyntaxIssue[], fileName?: string, options?: {
    cause?: unknown;
  }) {
    const where = (e: GherkinSyntaxIssue) => `at line ${e.line}, column ${e.column}`;
    const file = fileName ? ` in ${fileName}` : "";
    super(
      errors.length === 1
        ? `Gherkin syntax error${file} ${where(errors[0])}: ${errors[0].message}`
        : `Gherkin syntax errors${file}:\n${
          errors.map((e) => `  ${where(e)}: ${e.message}`).join("\n")
        }`,
      options,
    );
    this.line = errors[0].line;
    this.column = errors[0].column;
    this.errors = errors;
    this.fileName = fileName;
  }
}

/** Where a failing step stands and what it ran, for {@link GherkinStepError}. */
export interface GherkinStepErrorDetails {
  /** Line of the step in the text (1-based). */
  gherkinLine: number;
  /** The step as written: keyword and text, e.g. `"When I add the todo 'x'"`. */
  step: string;
  /** The agent call the step made and the prompt it sent. */
  action: GherkinStepAction;
  /** The scenario's name. */
  scenario?: string;
  /** For a `Scenario Outline` row, the line of its `Examples` row. */
  examplesRowLine?: number;
  /** The file the text came from, when named. */
  fileName?: string;
}

/**
 * A Gherkin step failed (spec 7): the message names the step's line, the step as written and the
 * semantic action run for it, then the failure, e.g.
 * `Step failed at line 5: "Then the list shows 'x'" (aiAssert "the list shows 'x'"): Assertion failed: ...`.
 * `cause` is the error the agent call threw (an `AssertionError`, a `PlanningError`, ...).
 */
export class GherkinStepError extends SdkError {
  /** Always `"GherkinStepError"`, whatever a bundler renames the class to. */
  override readonly name: string = "GherkinStepError";
  /** Always `"GHERKIN_STEP_FAILED"`. */
  override readonly code: SdkErrorCode = "GHERKIN_STEP_FAILED";
  /** Line of the failing step in the Gherkin text (1-based). */
  readonly gherkinLine: number;
  /**
   * The step as written, keyword included: `"When I add the todo 'x'"`. For an outline row, with
   * the row's values in place of its `<placeholders>`. A DocString or table is not included.
   */
  readonly step: string;
  /** The agent call the step made (`aiAct` or `aiAssert`) and the prompt it sent. */
  readonly action: GherkinStepAction;
  /** The scenario's name (may be empty). */
  readonly scenario: string;
  /** For a `Scenario Outline` row, the line of its `Examples` row; otherwise undefined. */
  readonly examplesRowLine: number | undefined;
  /** The file name given to the run, if any. */
  readonly fileName: string | undefined;

  /** Creates the error for a step that threw `cause`. */
  constructor(details: GherkinStepErrorDetails, cause: unknown) {
    const where = `line ${details.gherkinLine}${details.fileName ? ` of ${details.fileName}` : ""}${
      details.examplesRowLine === undefined
        ? ""
        : ` (Examples row at line ${details.examplesRowLine})`
    }`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Step failed at ${where}: "${details.step}" (${details.action.api} "${details.action.prompt}"): ${reason}`,
      { cause },
    );
    this.gherkinLine = details.gherkinLine;
    this.step = details.step;
    this.action = details.action;
    this.scenario = details.scenario ?? "";
    this.examplesRowLine = details.examplesRowLine;
    this.fileName = details.fileName;
  }
}
