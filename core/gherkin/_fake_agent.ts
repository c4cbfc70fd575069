/**
 * A fake {@link GherkinAgent} for the Gherkin unit tests: records every call and fails the
 * prompts it is told to.
 *
 * @module
 */

import type { GherkinActOptions, GherkinAgent, GherkinAssertOptions } from "./run_scenario.ts";

/** One recorded call. */
export type FakeCall =
  | { api: "aiAct"; prompt: string; options: GherkinActOptions }
  | {
    api: "aiAssert";
    prompt: string;
    errorMsg: string | undefined;
    options: GherkinAssertOptions;
  };

/** The fake agent and its record. */
export interface FakeAgent extends GherkinAgent {
  /** Every call, in order. */
  calls: FakeCall[];
  /** `api prompt` of every call, for short assertions. */
  log(): string[];
}

/**
 * A fake agent. `fail(call)` may return an error to throw for a call (or a promise of one, e.g.
 * to abort during it); `undefined` lets the call pass.
 */
export function fakeAgent(
  fail: (call: FakeCall) => unknown | Promise<unknown> = () => undefined,
): FakeAgent {
  const calls: FakeCall[] = [];
  const run = async (call: FakeCall) => {
    calls.push(call);
    const error = await fail(call);
    if (error !== undefined) throw error;
  };
  return {
    calls,
    log: () => calls.map((c) => `${c.api} ${c.prompt}`),
    async aiAct(prompt, options) {
      await run({ api: "aiAct", prompt, options });
      return undefined;
    },
    async aiAssert(prompt, errorMsg, options) {
      await run({ api: "aiAssert", prompt, errorMsg, options });
    },
  };
}
