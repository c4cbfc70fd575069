/**
 * Which agent call runs each Gherkin step, and with which prompt.
 *
 * The keyword's kind decides, in any language: a `Context` keyword (`Given`, `Soit`, ...) or an
 * `Action` keyword (`When`, `Quand`, ...) runs `aiAct`; an `Outcome` keyword (`Then`, `Alors`,
 * ...) runs `aiAssert`. `And`, `But`, `*` (and a word that is more than one kind in its language)
 * take the call of the step before them, Background steps included; as the first step they run
 * `aiAct`.
 *
 * @module
 */

import type { GherkinStep } from "./types.ts";

/** The agent method a step runs. */
export type GherkinApi = "aiAct" | "aiAssert";

/** The semantic action of a step: the agent method and the prompt it is sent. */
export interface GherkinStepAction {
  /** `aiAct` for Given/When steps, `aiAssert` for Then steps. */
  api: GherkinApi;
  /** The step text, plus its DocString or data table (see {@link stepPrompt}). */
  prompt: string;
}

/** The agent method of each step, in order. */
export function stepApis(steps: readonly Pick<GherkinStep, "keywordType">[]): GherkinApi[] {
  let previous: GherkinApi = "aiAct";
  return steps.map((step) => {
    switch (step.keywordType) {
      case "Context":
      case "Action":
        previous = "aiAct";
        break;
      case "Outcome":
        previous = "aiAssert";
        break;
      default:
        break; // Conjunction, Unknown: inherit
    }
    return previous;
  });
}

/** A data-table cell as Gherkin writes it: `|`, `\` and newlines escaped. */
function cell(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll("|", "\\|").replaceAll("\n", "\\n");
}

/**
 * The prompt of a step: its text, then on the following lines its argument.
 *
 * - A DocString is appended between `"""` lines (with its media type after the opening one, as
 *   written), so the model sees exactly where the literal text begins and ends; "```" fences are
 *   used instead when the content itself holds `"""`.
 * - A data table is appended as Gherkin table rows, `| a | b |`, one row a line, header row
 *   first (the model reads it as the table it is).
 */
export function stepPrompt(step: Pick<GherkinStep, "text" | "docString" | "dataTable">): string {
  const parts = [step.text];
  if (step.docString) {
    const fence = step.docString.content.includes('"""') ? "```" : '"""';
    parts.push(`${fence}${step.docString.mediaType ?? ""}`, step.docString.content, fence);
  }
  if (step.dataTable) {
    for (const row of step.dataTable) parts.push(`| ${row.map(cell).join(" | ")} |`);
  }
  return parts.join("\n");
}

/** The semantic action of each step, in order. */
export function stepActions(steps: readonly GherkinStep[]): GherkinStepAction[] {
  const apis = stepApis(steps);
  return steps.map((step, i) => ({ api: apis[i], prompt: stepPrompt(step) }));
}
