/**
 * Agent options as command-line flags (spec 2.1, last rule): each option of a web page agent is
 * also a bare kebab-case flag (`waitAfterAction` is `--wait-after-action 500`), with its value
 * checked and converted here. The agent's constructor checks ranges, as it does for code.
 *
 * @module
 */

import type { WebPageAgentOptions } from "@sdk/web";
import { SdkTypeError } from "@sdk/core";

/** How a flag's text becomes an option value. */
export type FlagKind =
  | { type: "boolean" }
  | { type: "number" }
  | { type: "string" }
  | { type: "enum"; values: readonly string[] }
  | { type: "json" };

/** The agent options that have a flag, by option name. Functions and actions have none. */
export const AGENT_OPTION_KINDS: {
  readonly [K in keyof WebPageAgentOptions]?: FlagKind;
} = {
  generateReport: { type: "boolean" },
  persistExecutionDump: { type: "boolean" },
  reportFileName: { type: "string" },
  autoPrintReportMsg: { type: "boolean" },
  cache: { type: "json" },
  cacheId: { type: "string" },
  aiContexts: { type: "json" },
  aiActContext: { type: "string" },
  aiActionContext: { type: "string" },
  modelConfig: { type: "json" },
  replanningCycleLimit: { type: "number" },
  maxActionsPerPlan: { type: "number" },
  waitAfterAction: { type: "number" },
  useDeviceTime: { type: "boolean" },
  outputFormat: { type: "enum", values: ["single-html", "html-and-external-assets"] },
  screenshotShrinkFactor: { type: "number" },
  screenshotFormat: { type: "enum", values: ["jpeg", "png"] },
  screenshotQuality: { type: "number" },
  waitForNavigationTimeout: { type: "number" },
  waitForNetworkIdleTimeout: { type: "number" },
  keyboardTypeDelay: { type: "number" },
  inputStrategy: { type: "enum", values: ["legacy", "sequential", "bulk"] },
  enableTouchEventsInActionSpace: { type: "boolean" },
  forceSameTabNavigation: { type: "boolean" },
  forceChromeSelectRendering: { type: "boolean" },
  nativeDialogs: { type: "enum", values: ["dismiss", "accept"] },
};

/** `waitAfterAction` -> `wait-after-action`. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const BY_FLAG: ReadonlyMap<string, keyof WebPageAgentOptions> = new Map(
  (Object.keys(AGENT_OPTION_KINDS) as (keyof WebPageAgentOptions)[]).map((o) => [kebabCase(o), o]),
);

/** The option a flag name (without `--`) sets, or undefined when it is not an agent option. */
export function optionOfFlag(flag: string): keyof WebPageAgentOptions | undefined {
  return BY_FLAG.get(flag);
}

/** Every agent option flag name (without `--`), sorted, for help and suggestions. */
export function agentFlagNames(): string[] {
  return [...BY_FLAG.keys()].sort();
}

/**
 * Converts a flag's text to the option's value.
 *
 * @param flag the flag as typed (for messages), e.g. `--wait-after-action`.
 * @param kind the option's kind.
 * @param text the value; `undefined` when the flag was given bare (booleans only).
 * @throws {SdkTypeError} naming the flag, the value and what it accepts.
 */
export function convertFlagValue(
  flag: string,
  kind: FlagKind,
  text: string | undefined,
): unknown {
  if (kind.type === "boolean") {
    if (text === undefined || text === "true") return true;
    if (text === "false") return false;
    throw new SdkTypeError(`${flag} takes true or false (or nothing for true): got "${text}"`);
  }
  if (text === undefined) throw new SdkTypeError(`${flag} needs a value`);
  switch (kind.type) {
    case "number": {
      const value = Number(text);
      if (text.trim() === "" || !Number.isFinite(value)) {
        throw new SdkTypeError(`${flag} takes a number: got "${text}"`);
      }
      return value;
    }
    case "enum":
      if (!kind.values.includes(text)) {
        throw new SdkTypeError(`${flag} takes one of ${kind.values.join(", ")}: got "${text}"`);
      }
      return text;
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        throw new SdkTypeError(`${flag} takes JSON, e.g. '{"id":"login"}': got "${text}"`);
      }
    default:
      return text;
  }
}
