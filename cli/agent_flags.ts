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

/**
 * What `sdk --help` says of each agent option flag: the value it takes (none for a boolean) and
 * what it does.
 */
const AGENT_OPTION_HELP: {
  readonly [K in keyof WebPageAgentOptions]?: { value?: string; text: string };
} = {
  generateReport: { text: "write a report file per file (default true)" },
  persistExecutionDump: { text: "also write each call as JSON next to the report (default false)" },
  reportFileName: { value: "NAME", text: "name of the merged report of the run" },
  autoPrintReportMsg: { text: "print where each report is (default true)" },
  cache: { value: "JSON", text: `cache, e.g. '{"id":"login","strategy":"read-only"}'` },
  cacheId: { value: "ID", text: "deprecated: the same as --cache '{\"id\":ID}'" },
  aiContexts: { value: "JSON", text: `guidance for the model, e.g. '{"default":"..."}'` },
  aiActContext: { value: "TEXT", text: "deprecated: guidance for aiAct planning" },
  aiActionContext: { value: "TEXT", text: "deprecated: guidance for aiAct planning" },
  modelConfig: {
    value: "JSON",
    text: "model settings as SDK_MODEL_* keys, instead of the environment",
  },
  replanningCycleLimit: { value: "N", text: "most planning cycles of one aiAct (default 20)" },
  maxActionsPerPlan: { value: "N", text: "most actions one planning answer may carry (default 5)" },
  waitAfterAction: {
    value: "MS",
    text: "wait after each action so the page settles (default 300)",
  },
  useDeviceTime: { text: "take task times from the device's clock (default false)" },
  outputFormat: {
    value: "single-html|html-and-external-assets",
    text: "report layout (default single-html)",
  },
  screenshotShrinkFactor: { value: "N", text: "divide screenshots by N for the model (default 1)" },
  screenshotFormat: { value: "jpeg|png", text: "screenshot format (default jpeg)" },
  screenshotQuality: { value: "1-100", text: "JPEG quality of screenshots (default 60)" },
  waitForNavigationTimeout: {
    value: "MS",
    text: "longest wait for an action's navigation; 0 skips (default 5000)",
  },
  waitForNetworkIdleTimeout: {
    value: "MS",
    text: "longest wait for an action's requests; 0 skips (default 2000)",
  },
  keyboardTypeDelay: { value: "MS", text: "delay between typed characters (default none)" },
  inputStrategy: { value: "legacy|sequential|bulk", text: "how aiInput types (default legacy)" },
  enableTouchEventsInActionSpace: { text: "offer touch actions to the model (default false)" },
  forceSameTabNavigation: { text: "open new-tab links in the page itself (default true)" },
  forceChromeSelectRendering: {
    text: "draw <select> pickers in the page for screenshots (default true)",
  },
  nativeDialogs: {
    value: "dismiss|accept",
    text: "how alert, confirm, prompt and beforeunload are answered (default dismiss)",
  },
};

/**
 * The help lines of the agent option flags, sorted: `--flag VALUE`, then what it does, in a
 * column; a flag too long for the column has its text on the next line.
 *
 * @param indent spaces before each line.
 * @param column where the texts start.
 */
export function agentFlagHelpLines(indent = 2, column = 38): string[] {
  return agentFlagNames().flatMap((flag) => {
    const help = AGENT_OPTION_HELP[optionOfFlag(flag)!] ?? { text: "" };
    const usage = `${" ".repeat(indent)}--${flag}${help.value ? ` ${help.value}` : ""}`;
    return usage.length + 2 <= column
      ? [usage.padEnd(column) + help.text]
      : [usage, " ".repeat(column) + help.text];
  });
}

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
