/**
 * Context resolution (spec 2.4, 4.5): `options.context ?? aiContexts[apiName] ?? aiContexts.default`,
 * one layer only, `""` a defined value that clears lower layers.
 *
 * @module
 */

/** API names that take their own context (spec 2.4 item 4). */
export type AIContextApiName =
  | "aiAct"
  | "aiTap"
  | "aiRightClick"
  | "aiDoubleClick"
  | "aiHover"
  | "aiInput"
  | "aiKeyboardPress"
  | "aiScroll"
  | "aiPinch"
  | "aiLongPress"
  | "aiClearInput"
  | "aiLocate"
  | "aiQuery"
  | "aiBoolean"
  | "aiNumber"
  | "aiString"
  | "aiAsk"
  | "aiAssert"
  | "aiWaitFor";

/** Agent-level guidance: a shared `default` and per-API overrides. */
export type AIContexts = { default?: string } & { [K in AIContextApiName]?: string };

/** Holds an agent's contexts and resolves the effective one per call. */
export class ContextStore {
  #contexts: AIContexts;

  /** Builds the store from the agent options, folding in the deprecated `aiAct` aliases. */
  constructor(
    options: { aiContexts?: AIContexts; aiActContext?: string; aiActionContext?: string },
  ) {
    this.#contexts = { ...options.aiContexts };
    const aiAct = options.aiContexts?.aiAct ?? options.aiActContext ?? options.aiActionContext;
    if (aiAct !== undefined) this.#contexts.aiAct = aiAct;
  }

  /** The effective user context of one call; `undefined` or `""` means none. */
  resolve(apiName: AIContextApiName, callContext?: string): string | undefined {
    return callContext ?? this.#contexts[apiName] ?? this.#contexts.default;
  }

  /**
   * Sets or removes a context. For an API, `""` blocks the shared default and `undefined` removes
   * the override; for `"default"`, `undefined` removes the shared fallback.
   */
  set(target: "default" | AIContextApiName, context: string | undefined): void {
    if (context === undefined) delete this.#contexts[target];
    else this.#contexts[target] = context;
  }

  /** A copy of the current contexts. */
  snapshot(): AIContexts {
    return { ...this.#contexts };
  }
}
