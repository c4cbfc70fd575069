/**
 * Usage metrics (spec 2.7): accumulated once per model call, from the same usage record that goes
 * to `onLLMUsage` and the report.
 *
 * @module
 */

import type { AIUsageInfo } from "../report/types.ts";

/** Token totals of a group of calls. */
export interface UsageBucket {
  /** Prompt tokens. */
  promptTokens: number;
  /** Completion tokens. */
  completionTokens: number;
  /** Total tokens. */
  totalTokens: number;
  /** Input tokens served from the provider's cache. */
  cachedInputTokens: number;
  /** Number of model calls. */
  calls: number;
}

/** Snapshot returned by `agent.metrics`; accumulated since the agent was created. */
export interface AgentMetrics {
  /** Prompt tokens of all calls. */
  totalPromptTokens: number;
  /** Completion tokens of all calls. */
  totalCompletionTokens: number;
  /** Total tokens of all calls. */
  totalTokens: number;
  /** Cached input tokens of all calls. */
  totalCachedInput: number;
  /** Wall time spent in model calls, ms. */
  totalTimeCostMs: number;
  /** Number of model calls. */
  calls: number;
  /** Totals per intent (`planning`, `insight`, `default`). */
  byIntent: Record<string, UsageBucket>;
  /** Totals per model name. */
  byModel: Record<string, UsageBucket>;
}

const emptyBucket = (): UsageBucket => ({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cachedInputTokens: 0,
  calls: 0,
});

/** Accumulates usage records. */
export class MetricsCollector {
  #m: AgentMetrics = {
    totalPromptTokens: 0,
    totalCompletionTokens: 0,
    totalTokens: 0,
    totalCachedInput: 0,
    totalTimeCostMs: 0,
    calls: 0,
    byIntent: {},
    byModel: {},
  };

  /** Adds one call's usage. */
  add(u: AIUsageInfo): void {
    const m = this.#m;
    m.totalPromptTokens += u.promptTokens;
    m.totalCompletionTokens += u.completionTokens;
    m.totalTokens += u.totalTokens;
    m.totalCachedInput += u.cachedInputTokens;
    m.totalTimeCostMs += u.timeCostMs;
    m.calls++;
    for (
      const b of [m.byIntent[u.intent] ??= emptyBucket(), m.byModel[u.modelName] ??= emptyBucket()]
    ) {
      b.promptTokens += u.promptTokens;
      b.completionTokens += u.completionTokens;
      b.totalTokens += u.totalTokens;
      b.cachedInputTokens += u.cachedInputTokens;
      b.calls++;
    }
  }

  /** A deep copy of the totals. */
  snapshot(): AgentMetrics {
    return structuredClone(this.#m);
  }
}
