/**
 * The flow items of a YAML script: one row per flow key, saying what the item's own value is,
 * which option keys may stand beside it, which agent method it needs and how it is called. The
 * schema's tasks reader (./script_tasks.ts) checks items with it, and the runner (./run_yaml.ts)
 * dispatches through it.
 *
 * An item is a mapping with exactly one flow key; its other keys are that item's options:
 *
 * ```yaml
 * - aiTap: the Sign in button
 *   deepLocate: true
 * ```
 *
 * Items whose value is a prompt accept text or a prompt mapping (`prompt`, `images`,
 * `convertHttpImage2Base64`; spec 2.5). Forms, per item:
 *
 * - `ai` / `aiAct` / `aiAction`: the instruction; `cacheable`, `deepThink` (`true`, `false`,
 *   `'unset'`), `deepLocate`, `context`, `fileChooserAccept` (a path or a list),
 *   `fileChooserAllowedDir`. All three call `aiAct`.
 * - `aiTap`, `aiHover`, `aiDoubleClick`, `aiRightClick`, `aiClearInput`, `aiLongPress` (+
 *   `duration`): the element, as the item's value or as `locate` (not both); the locate options
 *   `deepLocate`, `deepThink` (deprecated name of `deepLocate`), `context`, `xpath`, `locator`
 *   (an exported script's), `cacheable`; `aiTap` also `fileChooserAccept`. Every item that locates takes these, and
 *   `locate`.
 * - `aiInput`, locate-first (recommended, as the API): `- aiInput: the search box` with
 *   `value: cats`; `mode` (`replace`, `typeOnly`, `clear`, deprecated `append`),
 *   `keyboardTypeDelay`, `inputStrategy`, `autoDismissKeyboard` and the locate options. The older
 *   form, `- aiInput: cats` with `locate: the search box`, is accepted too: `locate` present
 *   means the item's value is the text. Giving both `value` and `locate` is an error, as is no
 *   `value` in the locate-first form unless `mode: clear`.
 * - `aiKeyboardPress`: the key name (`Enter`, `Control+A`), with an optional `locate` (no locate:
 *   the focused element gets the key). Or, like the API, the element as the value (may be
 *   empty) and `keyName`. Both `keyName` and `locate` is an error.
 * - `aiScroll`: the element, or empty to scroll at the pointer; `direction` (`down` by default),
 *   `scrollType`, `distance` (px, or empty for the SDK's choice). The element may also be given
 *   as `locate` when the value is empty.
 * - `aiPinch`: the element, or empty for the screen center (or `locate`); `direction` (`in` or
 *   `out`, required), `distance`, `duration`.
 * - `aiQuery`, `aiBoolean`, `aiNumber`, `aiString`, `aiAsk`: the demand; `name`, `domIncluded`
 *   (`true`, `false`, `visible-only`), `screenshotIncluded`, `context`.
 * - `aiAssert`: the assertion; `errorMessage` (given to `aiAssert` as its `errorMsg`),
 *   `domIncluded`, `screenshotIncluded`, `context`.
 * - `aiWaitFor`: the condition (text); `timeout` and `checkInterval` in ms (the API's
 *   `timeoutMs`, `checkIntervalMs`), `context`.
 * - `aiLocate`: the element (or `locate`); the locate options and `name`; its result (`rect`,
 *   `center`, `dpr`) is stored like a query's.
 * - `sleep`: milliseconds (>= 0).
 * - `javascript`: a script run by the agent's `evaluateJavaScript` (web agents); `name`; its
 *   value is stored like a query's.
 * - `recordToReport`: the title (empty: `untitled`); `content`, the description.
 * - Phone agents, each item where the agent has its method: `launch` (an app name, package or
 *   bundle, `package/.Activity`, URL), `terminate` (an app name, package or bundle), `home`,
 *   `back`, `recentApps` (MobileA, MobileC) and `appSwitcher` (MobileB), all with an empty value.
 * - MobileA only: `runBridgeShell` (a shell command, or `{ command, timeout }`; `timeout` in ms;
 *   `name`; its stdout is stored like a query's; fails when the device has
 *   `exposeRunBridgeShellAction: false`).
 * - MobileB only: `runDriverRequest` (the driver endpoint path, e.g. `/status`, with `method`
 *   `GET` (default), `POST`, `DELETE` or `PUT` and `data`, the JSON body, beside it; or the
 *   spec's params mapping `{ method, endpoint, data }` as the value; `name`; the answer is stored
 *   like a query's).
 * - MobileC only: `runToolShell` (a device shell command, or `{ command }`; `name`; its output is
 *   stored like a query's).
 *
 * The items every agent has are {@link CORE_FLOW_ITEMS}; the others (`javascript`, the phones'
 * items) are in ./platform_items.ts, and each platform says which of them its agents have.
 *
 * @module
 */

import type { TUserPrompt } from "../session/options.ts";
import { isCacheRecord } from "../session/cache_file.ts";
import { sleep } from "../runtime/runtime.ts";
import {
  bool,
  either,
  failAt,
  jsonValue,
  list,
  mapping,
  nullValue,
  num,
  oneOf,
  optional,
  prompt,
  type ReadContext,
  type Reader,
  text,
} from "./value_readers.ts";
import type { YamlAgent } from "./yaml_agent.ts";
import { assertFailedResult, runAssert, STATE_FLOW_ITEMS } from "./flow_items_state.ts";
import type { SourcePosition, YamlNode } from "./yaml_parse.ts";

/** A checked flow item, ready to run. */
export interface ScriptFlowItem {
  /** The flow key as written (`ai`, `aiAct`, `aiTap`, ...). */
  key: string;
  /**
   * The item's own value, read: the prompt or element (`undefined` when there is none), the key
   * name is moved to `options.keyName` and `aiInput`'s text to `options.value` in the older
   * forms, so every item reads `method(value, options)`; `sleep`'s milliseconds; the script.
   */
  value: unknown;
  /** The options for the agent's method, as it names them (only those given). */
  options: Record<string, unknown>;
  /** The `name` under which a result item's value is stored. */
  name?: string;
  /** 1-based line of the flow key. */
  line: number;
  /** 1-based column of the flow key. */
  column: number;
}

/** Where {@link FlowItemSpec.normalize} reads: for its errors. */
export interface NormalizeContext {
  /** The context of the item's own value. */
  valueAt: ReadContext;
  /** The context of an option key of the item. */
  optionAt(key: string): ReadContext;
  /** Position of the item's flow key. */
  pos: SourcePosition;
}

/** One row of the flow item table. */
export interface FlowItemSpec {
  /** Reads the item's own value (the value of its flow key). */
  readonly value: Reader<unknown>;
  /** The option keys that may stand beside the flow key, with their readers. */
  readonly options: Readonly<Record<string, Reader<unknown>>>;
  /** Option keys that must be given. */
  readonly required?: readonly string[];
  /** The agent method the item calls; `undefined` for items that need none (`sleep`). */
  readonly method?: keyof YamlAgent;
  /**
   * Whether the item's value is a result: `true` stores it under `name`, else by position;
   * `"named"` only when the item has a `name` (`aiAssert`).
   */
  readonly result?: boolean | "named";
  /**
   * The result stored under the item's `name` when the item fails with `error` (`aiAssert`:
   * `{ pass: false, thought }`); nothing is stored when it returns `undefined`.
   */
  readonly failedResult?: (error: unknown) => unknown;
  /**
   * Reads value and options together where one depends on the other (the older forms);
   * default: the value read by {@link value}, the options as read.
   */
  readonly normalize?: (
    value: YamlNode,
    options: Record<string, unknown>,
    where: NormalizeContext,
  ) => { value: unknown; options: Record<string, unknown> };
  /** Calls the agent; resolves with the item's value (a result item's result). */
  readonly run: (agent: YamlAgent, item: ScriptFlowItem, signal?: AbortSignal) => Promise<unknown>;
}

/**
 * `locator`: a location as `agent.exportScript()` writes it (docs/yaml-and-cli.md, "Exported
 * scripts"): `xpaths`, a list, and `target`, the element's identity; other keys a platform keeps
 * are passed on.
 */
const locator: Reader<unknown> = {
  describe: "a locator mapping (xpaths: a list of xpaths, target: the element's identity)",
  read(node, at) {
    const value = jsonValue.read(node, at);
    if (
      node.kind !== "map" ||
      !isCacheRecord({ ...(value as object), type: "locate", prompt: "" })
    ) {
      failAt(
        at,
        node.pos,
        `'${at.key}' of ${at.owner} must be ${this.describe}, as an exported script writes it`,
      );
    }
    return value;
  },
};

const locateOptions = {
  deepLocate: bool,
  deepThink: bool,
  context: text,
  xpath: text,
  locator,
  cacheable: bool,
};

const extractOptions = {
  domIncluded: either(bool, oneOf("visible-only")),
  screenshotIncluded: bool,
  context: text,
};

const files = either(text, list(text));
const ms = num({ min: 0, unit: "ms" });
const positive = (unit?: string) => num({ above: 0, unit });

type Opt<T> = T & Record<string, unknown>;
const opt = <T>(item: ScriptFlowItem) => item.options as Opt<T>;
const p = (item: ScriptFlowItem) => item.value as TUserPrompt;

/**
 * Errors when the item's value and `locate` both name the element; else the one given. With
 * `required`, one of them must be given.
 */
function oneLocate(required: boolean): NonNullable<FlowItemSpec["normalize"]> {
  return (value, options, { valueAt, optionAt, pos }) => {
    const { locate, ...rest } = options;
    const own = optional(prompt).read(value, valueAt);
    if (own !== undefined && locate !== undefined) {
      failAt(
        optionAt("locate"),
        pos,
        `'${valueAt.key}' names the element twice: give it as the item's value or as 'locate', not both`,
      );
    }
    if (required && own === undefined && locate === undefined) {
      failAt(
        valueAt,
        value.pos,
        `'${valueAt.key}' of ${valueAt.owner} needs the element, as the item's value ` +
          `(\`- ${valueAt.key}: the Sign in button\`) or as 'locate': got nothing`,
      );
    }
    return { value: own ?? locate, options: rest };
  };
}

/**
 * Reads an item whose value is text, or the same as a mapping of parameters (the spec's params
 * object: `runDriverRequest: { method, endpoint, data }`): `valueKey` is the text, the other
 * keys join the options, and a key given both in the mapping and beside it is an error.
 */
export function textOrParams(
  valueKey: string,
  fields: Record<string, Reader<unknown>>,
): NonNullable<FlowItemSpec["normalize"]> {
  return (value, options, { valueAt, optionAt, pos }) => {
    if (value.kind !== "map") return { value: text.read(value, valueAt), options };
    const params = mapping(`the ${valueAt.key} mapping`, { [valueKey]: text, ...fields }, [
      valueKey,
    ]);
    const { [valueKey]: own, ...inner } = params.read(value, valueAt);
    for (const key of Object.keys(inner)) {
      if (key in options) {
        failAt(
          optionAt(key),
          pos,
          `'${key}' of ${valueAt.key} is given both in its mapping and beside it; give it once`,
        );
      }
    }
    return { value: own, options: { ...options, ...inner } };
  };
}

const act: FlowItemSpec = {
  value: prompt,
  method: "aiAct",
  options: {
    cacheable: bool,
    deepThink: either(bool, oneOf("unset")),
    deepLocate: bool,
    context: text,
    fileChooserAccept: files,
    fileChooserAllowedDir: text,
  },
  run: (agent, item, signal) =>
    agent.aiAct(p(item), { ...item.options, ...(signal && { abortSignal: signal }) }),
};

const extract = (method: "aiQuery" | "aiBoolean" | "aiNumber" | "aiString" | "aiAsk") => ({
  value: prompt,
  method,
  result: true,
  options: extractOptions,
  run: (agent: YamlAgent, item: ScriptFlowItem) => agent[method](p(item), item.options),
});

/**
 * The flow items every agent has, by flow key. The items that need a method only some agents
 * have are in ./platform_items.ts.
 */
export const CORE_FLOW_ITEMS: Readonly<Record<string, FlowItemSpec>> = {
  ai: act,
  aiAct: act,
  aiAction: act,
  aiTap: {
    value: optional(prompt),
    method: "aiTap",
    options: { ...locateOptions, locate: prompt, fileChooserAccept: files },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiTap(p(item), item.options),
  },
  aiHover: {
    value: optional(prompt),
    method: "aiHover",
    options: { ...locateOptions, locate: prompt },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiHover(p(item), item.options),
  },
  aiDoubleClick: {
    value: optional(prompt),
    method: "aiDoubleClick",
    options: { ...locateOptions, locate: prompt },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiDoubleClick(p(item), item.options),
  },
  aiRightClick: {
    value: optional(prompt),
    method: "aiRightClick",
    options: { ...locateOptions, locate: prompt },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiRightClick(p(item), item.options),
  },
  aiClearInput: {
    value: optional(prompt),
    method: "aiClearInput",
    options: { ...locateOptions, locate: prompt },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiClearInput(p(item), item.options),
  },
  aiInput: {
    value: prompt,
    method: "aiInput",
    options: {
      ...locateOptions,
      value: text,
      locate: prompt,
      mode: oneOf("replace", "typeOnly", "clear", "append"),
      autoDismissKeyboard: bool,
      keyboardTypeDelay: ms,
      inputStrategy: oneOf("legacy", "sequential", "bulk"),
      secret: bool,
    },
    normalize(value, options, { valueAt, optionAt, pos }) {
      const { locate, ...rest } = options;
      if (locate !== undefined) {
        // The older form: the item's value is the text, `locate` the field.
        if (rest.value !== undefined) {
          failAt(
            optionAt("value"),
            pos,
            "aiInput takes 'value' (the field as the item's value: `- aiInput: the search box` " +
              "with `value: cats`) or 'locate' (the older form: `- aiInput: cats` with " +
              "`locate: the search box`), not both",
          );
        }
        const typed = optional(text).read(value, valueAt);
        if (typed === undefined && rest.mode !== "clear") {
          failAt(valueAt, pos, "aiInput with 'locate' needs the text to type as the item's value");
        }
        return {
          value: locate,
          options: { ...rest, ...(typed !== undefined && { value: typed }) },
        };
      }
      const field = prompt.read(value, valueAt);
      if (rest.value === undefined && rest.mode !== "clear") {
        failAt(
          optionAt("value"),
          pos,
          "aiInput needs 'value', the text to type (`value: cats`), unless `mode: clear`",
        );
      }
      return { value: field, options: rest };
    },
    run: (agent, item) => agent.aiInput(p(item), opt(item)),
  },
  aiKeyboardPress: {
    value: text,
    method: "aiKeyboardPress",
    options: { ...locateOptions, keyName: text, locate: prompt },
    normalize(value, options, { valueAt, optionAt, pos }) {
      const { locate, ...rest } = options;
      if (rest.keyName !== undefined) {
        // The API's form: the element as the value (may be empty) and `keyName`.
        if (locate !== undefined) {
          failAt(
            optionAt("locate"),
            pos,
            "aiKeyboardPress with 'keyName' takes the element as its value; 'locate' is for " +
              "the form with the key as the value (`- aiKeyboardPress: Enter`)",
          );
        }
        return { value: optional(prompt).read(value, valueAt), options: rest };
      }
      return { value: locate, options: { ...rest, keyName: text.read(value, valueAt) } };
    },
    run: (agent, item) => agent.aiKeyboardPress(item.value as TUserPrompt | undefined, opt(item)),
  },
  aiScroll: {
    value: optional(prompt),
    method: "aiScroll",
    options: {
      ...locateOptions,
      direction: oneOf("down", "up", "left", "right"),
      scrollType: oneOf(
        "singleAction",
        "scrollToBottom",
        "scrollToTop",
        "scrollToRight",
        "scrollToLeft",
      ),
      distance: either(num({ min: 0, unit: "px" }), nullValue),
      locate: prompt,
    },
    normalize: oneLocate(false),
    run: (agent, item) => agent.aiScroll(item.value as TUserPrompt | undefined, item.options),
  },
  aiLongPress: {
    value: optional(prompt),
    method: "aiLongPress",
    options: { ...locateOptions, locate: prompt, duration: positive("ms") },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiLongPress(p(item), item.options),
  },
  aiPinch: {
    value: optional(prompt),
    method: "aiPinch",
    options: {
      ...locateOptions,
      direction: oneOf("in", "out"),
      distance: positive("px"),
      duration: positive("ms"),
      locate: prompt,
    },
    required: ["direction"],
    normalize: oneLocate(false),
    run: (agent, item) => agent.aiPinch(item.value as TUserPrompt | undefined, opt(item)),
  },
  aiLocate: {
    value: optional(prompt),
    method: "aiLocate",
    result: true,
    options: { ...locateOptions, locate: prompt },
    normalize: oneLocate(true),
    run: (agent, item) => agent.aiLocate(p(item), item.options),
  },
  aiQuery: extract("aiQuery"),
  aiBoolean: extract("aiBoolean"),
  aiNumber: extract("aiNumber"),
  aiString: extract("aiString"),
  aiAsk: extract("aiAsk"),
  aiAssert: {
    value: prompt,
    method: "aiAssert",
    result: "named",
    options: { errorMessage: text, ...extractOptions },
    run: runAssert,
    failedResult: assertFailedResult,
  },
  aiWaitFor: {
    value: text,
    method: "aiWaitFor",
    options: { timeout: ms, checkInterval: ms, context: text },
    run: (agent, item) => {
      const { timeout, checkInterval, context } = item.options as Record<string, undefined>;
      return agent.aiWaitFor(item.value as string, {
        ...(timeout !== undefined && { timeoutMs: timeout }),
        ...(checkInterval !== undefined && { checkIntervalMs: checkInterval }),
        ...(context !== undefined && { context }),
      });
    },
  },
  sleep: {
    value: ms,
    options: {},
    run: (_agent, item, signal) => sleep(item.value as number, signal),
  },
  recordToReport: {
    value: optional(text),
    method: "recordToReport",
    options: { content: text },
    run: (agent, item) => agent.recordToReport(item.value as string | undefined, item.options),
  },
  ...STATE_FLOW_ITEMS,
};

/** The `name` option of result items. */
export const NAME_OPTION: Reader<string> = text;
