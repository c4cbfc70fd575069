/**
 * Extraction (`aiQuery`, `aiBoolean`, `aiNumber`, `aiString`, `aiAsk`) and assertion
 * (`aiAssert`, `aiWaitFor`): one insight call each.
 *
 * @module
 */

import type { CallSession } from "../session/session.ts";
import { captureFor, elementsFor } from "../session/session.ts";
import type { Screen } from "../session/screen.ts";
import type { ElementsDescriptionOptions } from "../device/types.ts";
import { ExtractionError, ModelResponseError } from "../errors.ts";
import {
  assertSystemPrompt,
  assertUserText,
  extractSystemPrompt,
  extractUserText,
} from "../model/prompts.ts";
import type { ExtractReturnType } from "../model/prompts.ts";
import { modelStep, stringField } from "./ask.ts";
import { reportValue } from "../report/report_value.ts";

/** Coerces extracted data to the requested type, accepting the string forms. */
function coerce(data: unknown, returnType: ExtractReturnType, raw: string): unknown {
  const fail = () =>
    new ModelResponseError(
      `The model returned ${JSON.stringify(data)} where a ${returnType} was asked for`,
      raw,
    );
  switch (returnType) {
    case "boolean":
      if (typeof data === "boolean") return data;
      if (typeof data === "string" && /^(true|false)$/i.test(data.trim())) {
        return data.trim().toLowerCase() === "true";
      }
      throw fail();
    case "number": {
      if (typeof data === "number" && Number.isFinite(data)) return data;
      const n = typeof data === "string" ? Number(data.trim().replace(/,/g, "")) : NaN;
      if (Number.isFinite(n)) return n;
      throw fail();
    }
    case "string":
      if (typeof data === "string") return data;
      if (typeof data === "number" || typeof data === "boolean") return String(data);
      throw fail();
    default:
      return data;
  }
}

/** What an extraction or assertion shows the model besides its text. */
export interface InsightInput {
  /** Send the screenshot (default true). */
  screenshotIncluded?: boolean;
  /** Send the device's element description (`domIncluded`, spec 4.3); unset sends none. */
  dom?: ElementsDescriptionOptions;
  /**
   * The `<observation>` block of an observation query (spec 4.4), saying what the named frames
   * and the screenshot are; unset for any other call.
   */
  observation?: string;
}

/** Options of an extraction. */
export interface ExtractCallOptions extends InsightInput {
  /** Effective user context. */
  context?: string;
}

/** The screenshot and element description an insight call sends, per its input options. */
async function insightInput(
  s: CallSession,
  input: InsightInput,
): Promise<{ screen?: Screen; domText?: string }> {
  const [screen, domText] = await Promise.all([
    input.screenshotIncluded === false ? undefined : captureFor(s, "insight"),
    input.dom ? elementsFor(s, input.dom) : undefined,
  ]);
  return { screen, domText };
}

/**
 * Extracts data of `returnType` from the screen.
 *
 * @throws {ExtractionError} when the model says it cannot; {@link ModelResponseError} on a wrong type.
 */
export async function extractData(
  s: CallSession,
  demand: string,
  returnType: ExtractReturnType,
  options: ExtractCallOptions,
): Promise<unknown> {
  const { screen, domText } = await insightInput(s, options);
  return await modelStep(s, {
    kind: "Extract",
    title: `Extract: ${demand}`,
    intent: "insight",
    system: extractSystemPrompt(),
    user: extractUserText(
      demand,
      returnType,
      options.context,
      screen?.image,
      domText,
      options.observation,
    ),
    screen,
  }, (answer, step) => {
    const error = stringField(answer.json, "error");
    if (error && (answer.json.data === null || answer.json.data === undefined)) {
      throw new ExtractionError(`Could not extract "${demand}": ${error}`);
    }
    const data = coerce(answer.json.data, returnType, answer.raw);
    // The caller gets the data whole; the report a copy of bounded depth.
    step.param = { data: reportValue(data) };
    return data;
  });
}

/** Outcome of one assertion check. */
export interface AssertionCheck {
  /** Whether the assertion holds. */
  pass: boolean;
  /** The model's reason. */
  thought: string;
}

/**
 * Asks the model whether `assertion` holds on the current screen; `input` says whether the
 * screenshot (default) and the element description go with it.
 */
export async function checkAssertion(
  s: CallSession,
  assertion: string,
  context: string | undefined,
  input: InsightInput = {},
): Promise<AssertionCheck> {
  const { screen, domText } = await insightInput(s, input);
  return await modelStep(s, {
    kind: "Assert",
    title: `Assert: ${assertion}`,
    intent: "insight",
    system: assertSystemPrompt(),
    user: assertUserText(assertion, context, screen?.image, domText, input.observation),
    screen,
  }, (answer, step) => {
    const thought = stringField(answer.json, "thought") ?? "(no reason given)";
    const pass = coerce(answer.json.pass, "boolean", answer.raw) as boolean;
    step.param = { pass };
    if (!pass) step.error = `Assertion is false: ${thought}`;
    return { pass, thought };
  });
}
