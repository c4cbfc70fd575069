/**
 * The agent's calls that read the screen without acting (spec 2.6, 4.3, 4.4): `aiLocate`, the
 * extractions (`aiQuery`, `aiBoolean`, ...), `aiAssert` and `aiWaitFor`.
 *
 * @module
 */

import { checkNonNegative } from "../device/options.ts";
import { AssertionError, SdkTypeError, WaitForTimeoutError } from "../errors.ts";
import { checkAssertion, extractData } from "../insight/extract.ts";
import type { ExtractReturnType } from "../model/prompts.ts";
import { sleep } from "../runtime/runtime.ts";
import { checkLocateOptions, domOption } from "./call_checks.ts";
import type { AIContextApiName } from "../session/context.ts";
import type { AgentState } from "./lifecycle.ts";
import { locateTarget } from "./locate_target.ts";
import type {
  AiLocateOptions,
  AiWaitForOptions,
  ExtractOptions,
  LocateResultValue,
  PromptWithImages,
  TUserPrompt,
} from "../session/options.ts";
import { resolvePrompt } from "../session/prompt_input.ts";
import { contextFor, runCall, useCache } from "./run_call.ts";
import { toPhysicalRect } from "../session/screen.ts";

/** `agent.aiLocate()`: the element's rect and center in physical screenshot pixels, and dpr. */
export async function locateCall(
  state: AgentState,
  locate: TUserPrompt,
  options: AiLocateOptions | undefined,
): Promise<LocateResultValue> {
  checkLocateOptions("aiLocate", options);
  const prompt = await resolvePrompt(locate, "aiLocate locate");
  return await runCall(state, "aiLocate", prompt, ["default"], async (s) => {
    await useCache(state, s, options?.cacheable);
    const found = (await locateTarget(state, s, "aiLocate", prompt.text, options))!;
    const rect = toPhysicalRect(found.screen, found.imageRect);
    return {
      rect,
      center: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)],
      dpr: found.screen.logical.dpr,
    };
  });
}

/** An extraction (`aiQuery`, `aiBoolean`, `aiNumber`, `aiString`, `aiAsk`): data of `returnType`. */
export async function extractCall(
  state: AgentState,
  api: AIContextApiName,
  demand: TUserPrompt,
  returnType: ExtractReturnType,
  options: ExtractOptions | undefined,
): Promise<unknown> {
  const dom = domOption(api, options?.domIncluded);
  const prompt = await resolvePrompt(demand, `${api} prompt`);
  return await runCall(
    state,
    api,
    prompt,
    ["insight"],
    (s) =>
      extractData(s, prompt.text, returnType, {
        context: contextFor(state, api, options?.context),
        screenshotIncluded: options?.screenshotIncluded,
        dom,
      }),
  );
}

/** `agent.aiAssert()`: rejects with an `AssertionError` when the assertion is false. */
export async function assertCall(
  state: AgentState,
  assertion: TUserPrompt,
  errorMsg: string | undefined,
  options: ExtractOptions | undefined,
): Promise<void> {
  const dom = domOption("aiAssert", options?.domIncluded);
  const prompt = await resolvePrompt(assertion, "aiAssert assertion");
  const text = prompt.text;
  return await runCall(state, "aiAssert", prompt, ["insight"], async (s) => {
    const check = await checkAssertion(s, text, contextFor(state, "aiAssert", options?.context), {
      screenshotIncluded: options?.screenshotIncluded,
      dom,
    });
    if (!check.pass) throw new AssertionError(text, errorMsg, check.thought);
  });
}

/** `agent.aiWaitFor()`: checks the assertion until it holds or the time is up. */
export async function waitForCall(
  state: AgentState,
  assertion: string,
  options: AiWaitForOptions,
): Promise<void> {
  // Typed as a string, but a JavaScript caller may pass a prompt object (spec 2.5).
  if ((assertion as unknown as PromptWithImages | null)?.images?.length) {
    throw new SdkTypeError(
      "aiWaitFor: the assertion is text (spec 4.4) and cannot carry images; " +
        "check a prompt with images with aiAssert",
    );
  }
  const { text } = await resolvePrompt(assertion, "aiWaitFor assertion");
  const timeoutMs = options.timeoutMs ?? 15000;
  const intervalMs = options.checkIntervalMs ?? 3000;
  checkNonNegative("timeoutMs", timeoutMs);
  checkNonNegative("checkIntervalMs", intervalMs);
  return await runCall(state, "aiWaitFor", text, ["insight"], async (s) => {
    const t0 = Date.now();
    const context = contextFor(state, "aiWaitFor", options.context);
    for (;;) {
      const checkStart = Date.now();
      const check = await checkAssertion(s, text, context);
      if (check.pass) return;
      const next = checkStart + intervalMs;
      if (next - t0 > timeoutMs) {
        throw new WaitForTimeoutError(
          `aiWaitFor timed out after ${timeoutMs} ms: ${text}\nLast check: ${check.thought}`,
        );
      }
      await sleep(Math.max(0, next - Date.now()));
    }
  });
}
