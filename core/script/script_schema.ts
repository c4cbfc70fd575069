/**
 * The shape of a YAML script file: a `tasks` section, an optional `agent` section, and one
 * target section (`web` in this version). Every error names the file, the line and column and
 * the key (see {@link YamlScriptError}).
 *
 * ```yaml
 * web:
 *   url: https://example.com/login
 *   viewportWidth: 1280
 * agent:
 *   reportFileName: login-flow
 * tasks:
 *   - name: sign in
 *     continueOnError: false
 *     flow:
 *       - aiInput: the username field
 *         value: ${LOGIN_USER}
 *       - aiTap: the Sign in button
 *       - aiQuery: the todo items, as an array of strings
 *         name: items
 * ```
 *
 * `${NAME}` in any string value reads the environment (./env_vars.ts); the whole file is read
 * before anything runs, so a missing variable, like an unknown key, stops the script before its
 * first item.
 *
 * @module
 */

import type { CacheStrategy } from "../agent/cache/options.ts";
import type { AgentOptions } from "../agent/options.ts";
import type { AIContextApiName } from "../agent/context.ts";
import { getEnv } from "../runtime/runtime.ts";
import type { EnvLookup } from "./env_vars.ts";
import { FLOW_ITEM_KEYS, FLOW_ITEMS, NAME_OPTION, type ScriptFlowItem } from "./flow_items.ts";
import { YamlScriptError } from "./script_errors.ts";
import {
  bool,
  childAt,
  describeNode,
  either,
  failAt,
  mapping,
  num,
  oneOf,
  type ReadContext,
  type Reader,
  readMapping,
  record,
  text,
  unknownKeyMessage,
} from "./value_readers.ts";
import { parseYamlTree, type YamlMapNode, type YamlNode } from "./yaml_parse.ts";

/** One task of the `tasks` section. */
export interface ScriptTask {
  /** The task's `name`. */
  name: string;
  /** `continueOnError`: a failing item ends this task only, and the next task runs. */
  continueOnError: boolean;
  /** The checked flow items. */
  flow: ScriptFlowItem[];
  /** 1-based line where the task starts. */
  line: number;
  /** 1-based column where the task starts. */
  column: number;
}

/** The `tasks` section of a script, checked. */
export interface ScriptTasks {
  /** The file name errors name. */
  fileName: string;
  /** The tasks in order. */
  tasks: ScriptTask[];
}

/**
 * The `web` target section: the page a tool such as the command line opens before the tasks.
 * Read and checked here; acting on it is the tool's job.
 */
export interface ScriptWebTarget {
  /** The page to open: an absolute URL, or a path under `serve`. Required. */
  url: string;
  /** A local folder to serve over HTTP; `url` is then a path in it. */
  serve?: string;
  /** Viewport width in CSS pixels. */
  viewportWidth?: number;
  /** Viewport height in CSS pixels. */
  viewportHeight?: number;
  /** Physical pixels per CSS pixel. */
  deviceScaleFactor?: number;
  /** The browser's user agent string. */
  userAgent?: string;
  /** Path of a JSON file of cookies to set before opening `url`. */
  cookie?: string;
  /** Wait for the network to go idle after opening `url`: `true`, or the timeout and whether a timeout fails. */
  waitForNetworkIdle?: boolean | { timeout?: number; continueOnNetworkIdleError?: boolean };
  /** Path of a JSON file to write the tasks' results to. */
  output?: string;
  /** Page agent option (spec 4.7). */
  forceSameTabNavigation?: boolean;
  /** Page agent option (spec 4.7), ms. */
  waitForNavigationTimeout?: number;
  /** Page agent option (spec 4.7), ms. */
  waitForNetworkIdleTimeout?: number;
  /** Page agent option (spec 4.7). */
  enableTouchEventsInActionSpace?: boolean;
  /** Page agent option (spec 4.7). */
  forceChromeSelectRendering?: boolean;
  /** Page agent option (spec 4.7), ms. */
  keyboardTypeDelay?: number;
  /** Page agent option (spec 4.7). */
  inputStrategy?: "legacy" | "sequential" | "bulk";
}

/**
 * The `agent` section: the agent options (spec 2.1) that are plain data, as `AgentOptions` types
 * them. `cache: true` asks the tool to pick the cache id (the command line uses the script's file
 * name); a `cache` mapping may leave `id` out for the same reason.
 */
export type ScriptAgentOptions =
  & Pick<
    AgentOptions,
    | "generateReport"
    | "persistExecutionDump"
    | "reportFileName"
    | "autoPrintReportMsg"
    | "cacheId"
    | "aiContexts"
    | "aiActContext"
    | "aiActionContext"
    | "modelConfig"
    | "replanningCycleLimit"
    | "waitAfterAction"
    | "useDeviceTime"
    | "outputFormat"
    | "screenshotShrinkFactor"
    | "screenshotFormat"
    | "screenshotQuality"
  >
  & {
    /** Spec 2.1, 2.2; see above for `true` and a missing `id`. */
    cache?: boolean | { id?: string; strategy?: CacheStrategy; cacheDir?: string };
  };

/** A whole script file, checked: tasks, agent options and its target. */
export interface ScriptFile extends ScriptTasks {
  /** Which target section the file has. */
  target: "web";
  /** The `web` section. */
  web: ScriptWebTarget;
  /** The `agent` section; `{}` when absent. */
  agent: ScriptAgentOptions;
}

/**
 * How a device platform's script section is read (spec 4.5): each platform package (MobileA,
 * MobileB, ...) supplies its own, so a platform plugs into scripts without core naming it.
 */
export interface ScriptSectionSchema<S extends Record<string, unknown>> {
  /** The section's key, e.g. `"mobilea"`. */
  readonly key: string;
  /** The platform's name in messages, e.g. `"MobileA"`. */
  readonly label: string;
  /** One reader per key of the section (readers: `@sdk/core/script`'s `text`, `num`, ...). */
  readonly fields: { readonly [K in keyof S]-?: Reader<S[K]> };
  /** What the section holds, for the message when it is not a mapping: `"deviceId, launch, ..."`. */
  readonly describe: string;
}

/** A script file with a device platform's section, checked: tasks, agent options, the section. */
export interface PlatformScriptFile<S> extends ScriptTasks {
  /** The section's key. */
  target: string;
  /** The platform's section (`{}` when it is empty). */
  section: S;
  /** The `agent` section; `{}` when absent. */
  agent: ScriptAgentOptions;
}

/** How a script's text is read. */
export interface ScriptReadOptions {
  /** Named in errors. Default `"script.yaml"`. */
  fileName?: string;
  /** Reads environment variables for `${NAME}`. Default: the process environment. */
  env?: EnvLookup;
}

/** Target sections this version runs. */
export const TARGET_SECTIONS: readonly string[] = ["web"];

/**
 * Target sections of device platforms, each read and run by its platform package's
 * `run...Yaml` (`mobilea`: `runMobileAYaml` of `@sdk/mobilea`, ...), not by {@link parseScriptFile}.
 */
export const PLATFORM_TARGET_SECTIONS: readonly string[] = [
  "mobilea",
  "mobileb",
  "mobilec",
  "computer",
];

const taskFields: Record<string, Reader<unknown>> = {
  name: text,
  continueOnError: bool,
  flow: { describe: "a list of flow items", read: (node) => node },
};

const webFields: { [K in keyof ScriptWebTarget]-?: Reader<ScriptWebTarget[K]> } = {
  url: text,
  serve: text,
  viewportWidth: num({ integer: true, above: 0, unit: "CSS px" }),
  viewportHeight: num({ integer: true, above: 0, unit: "CSS px" }),
  deviceScaleFactor: num({ above: 0 }),
  userAgent: text,
  cookie: text,
  waitForNetworkIdle: either(
    bool,
    mapping<{ timeout?: number; continueOnNetworkIdleError?: boolean }>("waitForNetworkIdle", {
      timeout: num({ min: 0, unit: "ms" }),
      continueOnNetworkIdleError: bool,
    }),
  ),
  output: text,
  forceSameTabNavigation: bool,
  waitForNavigationTimeout: num({ min: 0, unit: "ms" }),
  waitForNetworkIdleTimeout: num({ min: 0, unit: "ms" }),
  enableTouchEventsInActionSpace: bool,
  forceChromeSelectRendering: bool,
  keyboardTypeDelay: num({ min: 0, unit: "ms" }),
  inputStrategy: oneOf("legacy", "sequential", "bulk"),
};

const contextFields: { [K in "default" | AIContextApiName]-?: Reader<string> } = {
  default: text,
  aiAct: text,
  aiTap: text,
  aiRightClick: text,
  aiDoubleClick: text,
  aiHover: text,
  aiInput: text,
  aiKeyboardPress: text,
  aiScroll: text,
  aiPinch: text,
  aiLongPress: text,
  aiClearInput: text,
  aiLocate: text,
  aiQuery: text,
  aiBoolean: text,
  aiNumber: text,
  aiString: text,
  aiAsk: text,
  aiAssert: text,
  aiWaitFor: text,
};

const agentFields: { [K in keyof ScriptAgentOptions]-?: Reader<ScriptAgentOptions[K]> } = {
  generateReport: bool,
  persistExecutionDump: bool,
  reportFileName: text,
  autoPrintReportMsg: bool,
  cache: either(
    bool,
    mapping<{ id?: string; strategy?: CacheStrategy; cacheDir?: string }>("the cache mapping", {
      id: text,
      strategy: oneOf("read-only", "read-write", "write-only"),
      cacheDir: text,
    }),
  ),
  cacheId: text,
  aiContexts: mapping("aiContexts", contextFields),
  aiActContext: text,
  aiActionContext: text,
  modelConfig: record(either(num(), text)),
  replanningCycleLimit: num({ integer: true, above: 0 }),
  waitAfterAction: num({ min: 0, unit: "ms" }),
  useDeviceTime: bool,
  outputFormat: oneOf("single-html", "html-and-external-assets"),
  screenshotShrinkFactor: num({ min: 1 }),
  screenshotFormat: oneOf("jpeg", "png"),
  screenshotQuality: num({ integer: true, min: 1 }),
};

/**
 * The keys of each part of a script, for tools (the command line's help and checks): the top
 * level, a task, the `web` and `agent` sections. Flow items' keys are in {@link FLOW_ITEM_KEYS}.
 */
export const SCRIPT_SECTION_KEYS: Readonly<{
  top: readonly string[];
  task: readonly string[];
  web: readonly string[];
  agent: readonly string[];
}> = {
  top: ["tasks", "agent", ...TARGET_SECTIONS, ...PLATFORM_TARGET_SECTIONS],
  task: Object.keys(taskFields),
  web: Object.keys(webFields),
  agent: Object.keys(agentFields),
};

function topContext(options: ScriptReadOptions): ReadContext {
  return {
    fileName: options.fileName ?? "script.yaml",
    env: options.env ?? getEnv,
    path: "",
    key: "",
    owner: "the script",
  };
}

/** Parses the text and checks the top level: a mapping whose keys are all known. */
async function readTop(
  content: string,
  at: ReadContext,
): Promise<{ node: YamlMapNode; section: (key: string) => YamlNode | undefined }> {
  const node = await parseYamlTree(content, at.fileName);
  if (node === null || node.kind !== "map") {
    throw new YamlScriptError(
      `a script is a mapping with a 'tasks' section: got ${
        node === null ? "an empty document" : describeNode(node)
      }`,
      { fileName: at.fileName, ...(node?.pos ?? { line: 1, column: 1 }) },
    );
  }
  for (const entry of node.entries) {
    if (!SCRIPT_SECTION_KEYS.top.includes(entry.key)) {
      failAt(
        childAt(at, entry.key, "the script"),
        entry.keyPos,
        unknownKeyMessage(
          entry.key,
          "the script",
          Object.fromEntries(
            SCRIPT_SECTION_KEYS.top.map((k) => [k, k]),
          ),
        ),
      );
    }
  }
  const section = (key: string) => node.entries.find((e) => e.key === key)?.value;
  return { node, section };
}

function readFlowItem(node: YamlNode, at: ReadContext, taskName: string): ScriptFlowItem {
  if (node.kind !== "map" || node.entries.length === 0) {
    failAt(
      at,
      node.pos,
      `a flow item is a mapping with one flow key, such as \`- aiTap: the Sign in button\`: got ${
        describeNode(node)
      }`,
    );
  }
  const flowEntries = node.entries.filter((e) => Object.hasOwn(FLOW_ITEMS, e.key));
  if (flowEntries.length === 0) {
    const first = node.entries[0];
    failAt(
      childAt(at, first.key, `task '${taskName}'`),
      first.keyPos,
      `the flow item has no flow key: '${first.key}' is not one; flow keys: ${
        Object.keys(FLOW_ITEMS).join(", ")
      }`,
    );
  }
  if (flowEntries.length > 1) {
    const [a, b] = flowEntries;
    failAt(
      childAt(at, b.key, `task '${taskName}'`),
      b.keyPos,
      `a flow item has one flow key, but '${a.key}' and '${b.key}' are both in this one; ` +
        `start each with its own '- '`,
    );
  }
  const flow = flowEntries[0];
  const spec = FLOW_ITEMS[flow.key];
  const owner = `the ${flow.key} item`;
  const options: Record<string, unknown> = {};
  for (const entry of node.entries) {
    if (entry === flow) continue;
    const reader = Object.hasOwn(spec.options, entry.key)
      ? spec.options[entry.key]
      : spec.result && entry.key === "name"
      ? NAME_OPTION
      : undefined;
    const child = childAt(at, entry.key, owner);
    if (!reader) {
      const known = FLOW_ITEM_KEYS[flow.key];
      failAt(
        child,
        entry.keyPos,
        `unknown key '${entry.key}' in ${owner}; ${
          known.length ? `known keys: ${known.join(", ")}` : `${flow.key} takes no other keys`
        }`,
      );
    }
    options[entry.key] = reader.read(entry.value, child);
  }
  for (const key of spec.required ?? []) {
    if (!(key in options)) failAt(childAt(at, key, owner), flow.keyPos, `${owner} needs '${key}'`);
  }
  const { name, ...rest } = options as { name?: string };
  const valueAt = childAt(at, flow.key, `task '${taskName}'`);
  const read = spec.normalize
    ? spec.normalize(flow.value, rest, {
      valueAt,
      optionAt: (key) => childAt(at, key, owner),
      pos: flow.keyPos,
    })
    : { value: spec.value.read(flow.value, valueAt), options: rest };
  return {
    key: flow.key,
    value: read.value,
    options: read.options,
    ...(name !== undefined && { name }),
    ...flow.keyPos,
  };
}

function readTask(node: YamlNode, at: ReadContext, index: number): ScriptTask {
  const owner = `task ${index + 1}`;
  if (node.kind !== "map") {
    failAt(
      at,
      node.pos,
      `${owner} must be a mapping with 'name' and 'flow': got ${describeNode(node)}`,
    );
  }
  const fields = readMapping(node, at, owner, taskFields, ["name", "flow"]);
  const name = fields.name as string;
  const flowNode = fields.flow as YamlNode;
  const flowAt = childAt(at, "flow", `task '${name}'`);
  if (flowNode.kind !== "seq") {
    failAt(
      flowAt,
      flowNode.pos,
      `'flow' of task '${name}' must be a list of flow items: got ${describeNode(flowNode)}`,
    );
  }
  return {
    name,
    continueOnError: fields.continueOnError === true,
    flow: flowNode.items.map((item, i) =>
      readFlowItem(item, { ...flowAt, path: `${flowAt.path}[${i}]` }, name)
    ),
    ...node.pos,
  };
}

function readTasks(node: YamlMapNode, at: ReadContext): ScriptTask[] {
  const entry = node.entries.find((e) => e.key === "tasks");
  if (!entry) {
    failAt(childAt(at, "tasks", "the script"), node.pos, "the script has no 'tasks' section");
  }
  const tasksAt = childAt(at, "tasks", "the script");
  if (entry.value.kind !== "seq") {
    failAt(
      tasksAt,
      entry.value.pos,
      `'tasks' must be a list of tasks (each with 'name' and 'flow'): got ${
        describeNode(entry.value)
      }`,
    );
  }
  return entry.value.items.map((task, i) => readTask(task, { ...tasksAt, path: `tasks[${i}]` }, i));
}

/**
 * Reads and checks the `tasks` section of a script, as `runYaml` does (spec 4.5: only the tasks
 * run). Other sections are not read, but the top-level keys must be known ones.
 *
 * @throws {YamlScriptError} naming the file, the line and column and the key: invalid YAML, an
 * unknown key, a value of the wrong type, a missing `tasks`, task `name` or `flow`, or an
 * environment variable that is not set.
 */
export async function parseScriptTasks(
  content: string,
  options: ScriptReadOptions = {},
): Promise<ScriptTasks> {
  const at = topContext(options);
  const { node } = await readTop(content, at);
  return { fileName: at.fileName, tasks: readTasks(node, at) };
}

/**
 * Reads and checks a whole script file, for tools that set up the target themselves (the
 * command line): the tasks, the `agent` section and the target section. This version runs web
 * scripts: the `web` section is required and needs `url`; a device platform's section
 * ({@link PLATFORM_TARGET_SECTIONS}) is an error naming the package that runs it.
 *
 * @param content the file's text.
 * @param fileName named in errors.
 * @param options `env` reads environment variables for `${NAME}`.
 * @throws {YamlScriptError} as {@link parseScriptTasks}, and for an unknown key or a wrong value
 * in `web` or `agent`, a missing `url` (or one that is not an absolute URL without `serve`), a
 * device platform's section, or no target section.
 *
 * @example
 * ```ts
 * import { parseScriptFile } from "./script_schema.ts";
 *
 * const script = await parseScriptFile(
 *   "web:\n  url: https://example.com\ntasks:\n  - name: look\n    flow:\n      - aiAssert: the page has a heading\n",
 *   "look.yaml",
 * );
 * console.log(script.web.url, script.tasks[0].flow[0].key); // https://example.com aiAssert
 * ```
 */
export async function parseScriptFile(
  content: string,
  fileName: string,
  options: { env?: EnvLookup } = {},
): Promise<ScriptFile> {
  const at = topContext({ ...options, fileName });
  const { node, section } = await readTop(content, at);
  for (const entry of node.entries) {
    if (PLATFORM_TARGET_SECTIONS.includes(entry.key)) {
      failAt(
        childAt(at, entry.key, "the script"),
        entry.keyPos,
        `'${entry.key}' is a device platform's section: this reads web scripts ('web' ` +
          `section); run it with its platform package's run...Yaml (e.g. runMobileAYaml of ` +
          `@sdk/mobilea for 'mobilea')`,
      );
    }
  }
  const webNode = section("web");
  if (webNode === undefined) {
    failAt(
      childAt(at, "web", "the script"),
      node.pos,
      "the script needs a target section: 'web' with the 'url' of the page to open",
    );
  }
  const webAt = childAt(at, "web", "the script");
  if (webNode.kind !== "map") {
    failAt(webAt, webNode.pos, `'web' must be a mapping with 'url': got ${describeNode(webNode)}`);
  }
  const web = readMapping(webNode, webAt, "the web section", webFields, [
    "url",
  ]) as unknown as ScriptWebTarget;
  if (web.serve === undefined && !URL.canParse(web.url)) {
    const urlEntry = webNode.entries.find((e) => e.key === "url")!;
    failAt(
      childAt(webAt, "url", "the web section"),
      urlEntry.value.pos,
      `'url' of the web section must be an absolute URL (https://...), or a path with 'serve': got ${
        JSON.stringify(web.url)
      }`,
    );
  }
  const agent = readAgentSection(section("agent"), at);
  return { fileName: at.fileName, tasks: readTasks(node, at), target: "web", web, agent };
}

function readAgentSection(agentNode: YamlNode | undefined, at: ReadContext): ScriptAgentOptions {
  if (agentNode === undefined) return {};
  const agentAt = childAt(at, "agent", "the script");
  if (agentNode.kind !== "map") {
    failAt(agentAt, agentNode.pos, `'agent' must be a mapping: got ${describeNode(agentNode)}`);
  }
  return readMapping(agentNode, agentAt, "the agent section", agentFields) as ScriptAgentOptions;
}

/**
 * Which target section a script file has, for tools that dispatch a file to its platform (the
 * command line): the first top-level key that is `web` or a device platform's section.
 *
 * @param content the file's text.
 * @param fileName named in errors.
 * @returns the section's key, or `undefined` when the file has none.
 * @throws {YamlScriptError} when the text is not YAML, not a mapping, or has an unknown top key.
 */
export async function scriptTargetOf(
  content: string,
  fileName: string,
): Promise<string | undefined> {
  const { node } = await readTop(content, topContext({ fileName }));
  return node.entries.find((e) =>
    TARGET_SECTIONS.includes(e.key) || PLATFORM_TARGET_SECTIONS.includes(e.key)
  )?.key;
}

/**
 * Reads and checks a script file for a device platform (a platform package's `run...Yaml`): the
 * tasks, the `agent` section and the platform's section, read by its schema. Another target
 * section (`web`, another platform's) is an error.
 *
 * @param schema the platform's section: key, name and readers.
 * @param content the file's text.
 * @param fileName named in errors.
 * @param options `env` reads environment variables for `${NAME}`.
 * @throws {YamlScriptError} as {@link parseScriptTasks}, for a missing platform section, an
 * unknown key or a value of the wrong type in it or in `agent`, or another target section.
 */
export async function parsePlatformScriptFile<S extends Record<string, unknown>>(
  schema: ScriptSectionSchema<S>,
  content: string,
  fileName: string,
  options: { env?: EnvLookup } = {},
): Promise<PlatformScriptFile<S>> {
  const at = topContext({ ...options, fileName });
  const { node, section } = await readTop(content, at);
  for (const entry of node.entries) {
    if (
      [...TARGET_SECTIONS, ...PLATFORM_TARGET_SECTIONS].includes(entry.key) &&
      entry.key !== schema.key
    ) {
      failAt(
        childAt(at, entry.key, "the script"),
        entry.keyPos,
        `a ${schema.label} script has a '${schema.key}' section and no '${entry.key}' section`,
      );
    }
  }
  const sectionNode = section(schema.key);
  const sectionAt = childAt(at, schema.key, "the script");
  if (sectionNode === undefined) {
    failAt(
      sectionAt,
      node.pos,
      `a ${schema.label} script needs a '${schema.key}' section (it may be empty)`,
    );
  }
  let value = {} as S;
  if (sectionNode.kind === "map") {
    value = readMapping(
      sectionNode,
      sectionAt,
      `the ${schema.key} section`,
      schema.fields as Record<string, Reader<unknown>>,
    ) as S;
  } else if (!(sectionNode.kind === "scalar" && sectionNode.value === null)) {
    failAt(
      sectionAt,
      sectionNode.pos,
      `'${schema.key}' must be a mapping (${schema.describe}): got ${describeNode(sectionNode)}`,
    );
  }
  const agent = readAgentSection(section("agent"), at);
  return {
    fileName: at.fileName,
    tasks: readTasks(node, at),
    target: schema.key,
    section: value,
    agent,
  };
}
