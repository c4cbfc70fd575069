/**
 * Flow items about the agent's report and page context rather than the screen: `logScreenshot`
 * (the peer SDK's former name of `recordToReport`), `freezePageContext` and
 * `unfreezePageContext` (spec 3.2), each with an empty value; and how `aiAssert` runs, whose
 * result with a `name` is `{ pass, thought }` as in the peer SDK. The table of every item is
 * ./flow_items.ts.
 *
 * @module
 */

import { AssertionError } from "../errors.ts";
import type { TUserPrompt } from "../session/options.ts";
import { nullValue, optional, text } from "./value_readers.ts";
import type { YamlAgent } from "./yaml_agent.ts";

/** What an item's `run` gets of the checked item (`ScriptFlowItem` of ./flow_items.ts). */
interface ItemArgs {
  value: unknown;
  options: Record<string, unknown>;
  name?: string;
}

/** The items, in the shape of `FlowItemSpec` (./flow_items.ts spreads them into its table). */
export const STATE_FLOW_ITEMS = {
  logScreenshot: {
    value: optional(text),
    method: "recordToReport",
    options: { content: text },
    run: (agent: YamlAgent, item: ItemArgs) =>
      agent.recordToReport(item.value as string | undefined, item.options),
  },
  freezePageContext: {
    value: nullValue,
    method: "freezePageContext",
    options: {},
    run: (agent: YamlAgent) => agent.freezePageContext!(),
  },
  unfreezePageContext: {
    value: nullValue,
    method: "unfreezePageContext",
    options: {},
    run: (agent: YamlAgent) => agent.unfreezePageContext!(),
  },
} as const;

/**
 * Runs an `aiAssert` item (`errorMessage` is the API's `errorMsg`); with a `name`, resolves with
 * `{ pass: true, thought }`, the model's reason read from the agent's log, since `aiAssert`
 * itself resolves with nothing (spec 4.4).
 */
export async function runAssert(agent: YamlAgent, item: ItemArgs): Promise<unknown> {
  const { errorMessage, ...options } = item.options;
  await agent.aiAssert(item.value as TUserPrompt, errorMessage as string | undefined, options);
  if (item.name === undefined) return undefined;
  const last = agent._unstableLogContent?.().executions.at(-1);
  return { pass: true, thought: last?.steps.findLast((s) => s.kind === "Assert")?.thought };
}

/** What a named `aiAssert` that fails stores: `{ pass: false, thought }`. */
export function assertFailedResult(error: unknown): unknown {
  return error instanceof AssertionError ? { pass: false, thought: error.reason } : undefined;
}
