/**
 * The flow items that need a method only some agents have (`javascript`: `evaluateJavaScript`;
 * the phones' `launch`, `back`, `runBridgeShell`, ...), defined once by the method they call and
 * named by no platform: a platform picks the ones its agents have with {@link platformFlowItems}
 * and hands them in through its section schema (`ScriptSectionSchema.items`) and its
 * `ScriptPlatform`, so an unknown flow key's message offers the script's own platform's keys.
 * Their forms are described in ./flow_items.ts.
 *
 * Every item is known to the reader whatever the platform: an agent that lacks an item's method
 * is named before anything runs (./run_yaml.ts).
 *
 * @module
 */

import { CORE_FLOW_ITEMS, type FlowItemSpec, textOrParams } from "./flow_items.ts";
import { jsonValue, num, oneOf, optional, text } from "./value_readers.ts";
import type { DriverRequestMethod } from "./yaml_agent.ts";
import { SdkTypeError } from "../errors.ts";

/** The flow key of an item a platform may add (see {@link platformFlowItems}). */
export type PlatformFlowKey =
  | "javascript"
  | "launch"
  | "terminate"
  | "runBridgeShell"
  | "runDriverRequest"
  | "runToolShell"
  | "appSwitcher"
  | "back"
  | "home"
  | "recentApps";

const PLATFORM_FLOW_ITEMS: Readonly<Record<PlatformFlowKey, FlowItemSpec>> = {
  javascript: {
    value: text,
    method: "evaluateJavaScript",
    result: true,
    options: {},
    run: (agent, item) => agent.evaluateJavaScript!(item.value as string),
  },
  launch: {
    value: text,
    method: "launch",
    options: {},
    run: (agent, item) => agent.launch!(item.value as string),
  },
  terminate: {
    value: text,
    method: "terminate",
    options: {},
    run: (agent, item) => agent.terminate!(item.value as string),
  },
  runBridgeShell: {
    value: text,
    method: "runBridgeShell",
    result: true,
    options: { timeout: num({ above: 0, unit: "ms" }) },
    normalize: textOrParams("command", { timeout: num({ above: 0, unit: "ms" }) }),
    run: (agent, item) => {
      const { timeout } = item.options as { timeout?: number };
      return agent.runBridgeShell!(item.value as string, timeout === undefined ? {} : { timeout });
    },
  },
  runDriverRequest: {
    value: text,
    method: "runDriverRequest",
    result: true,
    options: { method: oneOf("GET", "POST", "DELETE", "PUT"), data: jsonValue },
    normalize: textOrParams("endpoint", {
      method: oneOf("GET", "POST", "DELETE", "PUT"),
      data: jsonValue,
    }),
    run: (agent, item) => {
      const { method, data } = item.options as { method?: DriverRequestMethod; data?: unknown };
      return agent.runDriverRequest!({
        method: method ?? "GET",
        endpoint: item.value as string,
        ...(data !== undefined && { data }),
      });
    },
  },
  runToolShell: {
    value: text,
    method: "runToolShell",
    result: true,
    options: {},
    normalize: textOrParams("command", {}),
    run: (agent, item) => agent.runToolShell!(item.value as string),
  },
  appSwitcher: {
    value: optional(text),
    method: "appSwitcher",
    options: {},
    run: (agent) => agent.appSwitcher!(),
  },
  back: {
    value: optional(text),
    method: "back",
    options: {},
    run: (agent) => agent.back!(),
  },
  home: {
    value: optional(text),
    method: "home",
    options: {},
    run: (agent) => agent.home!(),
  },
  recentApps: {
    value: optional(text),
    method: "recentApps",
    options: {},
    run: (agent) => agent.recentApps!(),
  },
};

/**
 * The flow items a platform's agents add to the shared ones, for its section schema
 * (`ScriptSectionSchema.items`) and its `ScriptPlatform`.
 *
 * @param keys the items' flow keys, e.g. `"launch", "back", "runBridgeShell"`.
 * @returns the items, by flow key.
 * @throws {SdkTypeError} for a key that is not a platform's item (a JavaScript caller's typo).
 */
export function platformFlowItems(
  ...keys: PlatformFlowKey[]
): Readonly<Record<string, FlowItemSpec>> {
  return Object.fromEntries(keys.map((key) => {
    if (!Object.hasOwn(PLATFORM_FLOW_ITEMS, key)) {
      throw new SdkTypeError(
        `'${key}' is not a platform's flow item; they are ${
          Object.keys(PLATFORM_FLOW_ITEMS).join(", ")
        }`,
      );
    }
    return [key, PLATFORM_FLOW_ITEMS[key]];
  }));
}

/**
 * Other names a platform gives some of its items, for its section schema's `items` beside
 * {@link platformFlowItems}: the peer SDK's phone scripts write the system buttons by their
 * action names (`MobileABackButton` for `back`). An alias reads as the item it names (the read
 * item's `key` is that item's), with the same options, and only in that platform's scripts.
 *
 * @param aliases alias -> the platform item it names, e.g. `{ MobileABackButton: "back" }`.
 * @returns the items by alias.
 * @throws {SdkTypeError} for a named item that is not a platform's item, or an alias that is
 * already a flow key.
 */
export function platformFlowAliases(
  aliases: Readonly<Record<string, PlatformFlowKey>>,
): Readonly<Record<string, FlowItemSpec>> {
  return Object.fromEntries(
    Object.entries(aliases).map(([alias, key]) => {
      if (Object.hasOwn(FLOW_ITEMS, alias)) {
        throw new SdkTypeError(
          `'${alias}' is a flow key already; an alias needs a name of its own`,
        );
      }
      return [alias, platformFlowItems(key)[key]];
    }),
  );
}

/**
 * The aliases among a platform's `items` ({@link platformFlowAliases}): alias -> the flow key of
 * the item it names.
 */
export function flowAliasesOf(
  items: Readonly<Record<string, FlowItemSpec>> = {},
): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const [alias, spec] of Object.entries(items)) {
    if (Object.hasOwn(FLOW_ITEMS, alias)) continue;
    const key = Object.keys(PLATFORM_FLOW_ITEMS).find((k) =>
      PLATFORM_FLOW_ITEMS[k as PlatformFlowKey] === spec
    );
    if (key) aliases[alias] = key;
  }
  return aliases;
}

/** Every flow item, by flow key: what the reader knows and the runner dispatches through. */
export const FLOW_ITEMS: Readonly<Record<string, FlowItemSpec>> = {
  ...CORE_FLOW_ITEMS,
  ...PLATFORM_FLOW_ITEMS,
};

/**
 * The option keys of each flow item, for tools (the command line's help and checks): every key
 * that may stand beside the flow key, `name` included for result items.
 */
export const FLOW_ITEM_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(FLOW_ITEMS).map((
    [key, spec],
  ) => [key, [...Object.keys(spec.options), ...(spec.result ? ["name"] : [])]]),
);

/**
 * The flow keys a script of a platform may use: the shared ones and the platform's own `items`
 * (its aliases too); every flow key when `items` is left out.
 */
export function flowKeysWith(items?: Readonly<Record<string, FlowItemSpec>>): string[] {
  return [
    ...Object.keys(FLOW_ITEMS)
      .filter((key) => !items || Object.hasOwn(CORE_FLOW_ITEMS, key) || Object.hasOwn(items, key)),
    ...Object.keys(flowAliasesOf(items)),
  ];
}
