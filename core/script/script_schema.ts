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

import { getEnv } from "../runtime/runtime.ts";
import type { EnvLookup } from "./env_vars.ts";
import { envRefusal, type ScriptTrustOptions } from "./script_trust.ts";
import { checkUntrustedScript } from "./untrusted_check.ts";
import { scriptErrors, YamlScriptError } from "./script_errors.ts";
import { flowAliasesOf, flowKeysWith, platformFlowItems } from "./platform_items.ts";
import {
  AGENT_SECTION_KEYS,
  FORMER_WEB_KEYS,
  readAgentSection,
  readPlatformSection,
  readWebSection,
  type ScriptAgentOptions,
  type ScriptSectionSchema,
  type ScriptWebTarget,
  WEB_SECTION_KEY,
  WEB_SECTION_KEYS,
} from "./script_sections.ts";
import { PLATFORM_SECTION_KEYS } from "../device/platform_sections.ts";
import { readTasks, type ScriptTasks, TASK_KEYS } from "./script_tasks.ts";
import {
  childAt,
  collect,
  describeNode,
  failAt,
  type ReadContext,
  type ScriptErrorList,
  TooManyScriptErrors,
  unknownKeyMessage,
} from "./value_readers.ts";
import { parseYamlTree, type YamlMapNode, type YamlNode } from "./yaml_parse.ts";

/** A whole script file, checked: tasks, agent options and its target. */
export interface ScriptFile extends ScriptTasks {
  /** Which target section the file has. */
  target: "web";
  /** The `web` section. */
  web: ScriptWebTarget;
  /** The `agent` section; `{}` when absent. */
  agent: ScriptAgentOptions;
}

/** A script file with a device platform's section, checked: tasks, agent options, the section. */
export interface PlatformScriptFile<S> extends ScriptTasks {
  /** The section's key. */
  target: string;
  /** The platform's section (`{}` when it is empty), without `output`. */
  section: S;
  /**
   * The section's `output`, as written: the JSON file the results are written to, relative to
   * the script's folder (`runPlatformYaml` writes it).
   */
  output?: string;
  /** The `agent` section; `{}` when absent. */
  agent: ScriptAgentOptions;
}

/** How a script's text is read. */
export interface ScriptReadOptions extends ScriptTrustOptions {
  /** Named in errors. Default `"script.yaml"`. */
  fileName?: string;
  /** Reads environment variables for `${NAME}`. Default: the process environment. */
  env?: EnvLookup;
  /**
   * Receives each warning about the script (a deprecated form, such as the former `target:`
   * section), as `file:line:column: message`. Default: `console.warn`.
   */
  onWarning?: (message: string) => void;
}

/**
 * How a whole script file is read: `env` reads variables for `${NAME}`, `onWarning` receives
 * warnings, and the trust options say whether the file is yours (./script_trust.ts).
 */
export interface ScriptFileReadOptions extends ScriptTrustOptions {
  /** Reads environment variables for `${NAME}`. Default: the process environment. */
  env?: EnvLookup;
  /** Receives each warning about the script. Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

const isFormerWebKey = (key: string) => Object.hasOwn(FORMER_WEB_KEYS, key);

/** The flow items a web script adds to the shared ones: web agents run JavaScript in the page. */
const WEB_ITEMS = platformFlowItems("javascript");

/** Target sections this version runs. */
export const TARGET_SECTIONS: readonly string[] = [WEB_SECTION_KEY];

/**
 * Target sections of device platforms, each read and run by its platform package's
 * `run...Yaml` (a phone's `runMobileAYaml`, ...), not by {@link parseScriptFile}.
 */
export const PLATFORM_TARGET_SECTIONS: readonly string[] = PLATFORM_SECTION_KEYS;

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
  task: TASK_KEYS,
  web: WEB_SECTION_KEYS,
  agent: AGENT_SECTION_KEYS,
};

/**
 * The context of a whole file; every variable its `${NAME}` read goes into `variables` (the
 * export of a run writes their values back as `${NAME}`).
 */
function topContext(
  options: ScriptReadOptions,
  flowKeys?: readonly string[],
  variables = new Map<string, string>(),
  flowAliases?: Readonly<Record<string, string>>,
): ReadContext {
  const env = options.env ?? getEnv;
  return {
    fileName: options.fileName ?? "script.yaml",
    env: (name) => {
      const value = env(name);
      if (value !== undefined) variables.set(name, value);
      return value;
    },
    refuseEnv: (name) => envRefusal(name, options),
    path: "",
    key: "",
    owner: "the script",
    errors: { list: [] },
    ...(flowKeys && { flowKeys }),
    ...(flowAliases && { flowAliases }),
  };
}

/**
 * Reads a whole file with `at`'s collector: every error found, up to the limit, is thrown at the
 * end as one {@link YamlScriptError} (see `scriptErrors`).
 */
async function readWhole<T>(at: ReadContext, read: () => Promise<T>): Promise<T> {
  const errors: ScriptErrorList = at.errors!;
  let value: T;
  try {
    value = await read();
  } catch (e) {
    if (e instanceof TooManyScriptErrors) throw scriptErrors(errors.list, true);
    if (!(e instanceof YamlScriptError)) throw e;
    if (!errors.list.includes(e)) errors.list.push(...e.errors);
    throw scriptErrors(errors.list);
  }
  if (errors.list.length > 0) throw scriptErrors(errors.list);
  return value;
}

/** Parses the text and checks the top level: a mapping whose keys are all known. */
async function readTop(
  content: string,
  at: ReadContext,
  onWarning: ((message: string) => void) | undefined = console.warn,
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
  const webEntries = node.entries.filter((e) => e.key === WEB_SECTION_KEY || isFormerWebKey(e.key));
  const hasWeb = webEntries.some((e) => e.key === WEB_SECTION_KEY);
  const former = webEntries.find((e) => isFormerWebKey(e.key));
  for (const entry of node.entries) {
    collect(at, () => {
      if (isFormerWebKey(entry.key)) {
        const kind = FORMER_WEB_KEYS[entry.key];
        if (hasWeb) {
          failAt(
            childAt(at, entry.key, "the script"),
            entry.keyPos,
            `'${entry.key}' is ${kind} of 'web', and this script has both; keep 'web'`,
          );
        }
        if (entry !== former) {
          failAt(
            childAt(at, entry.key, "the script"),
            entry.keyPos,
            `'${entry.key}' and '${former!.key}' both name the 'web' section: keep one, as 'web'`,
          );
        }
        onWarning?.(
          `${at.fileName}:${entry.keyPos.line}:${entry.keyPos.column}: '${entry.key}' is ` +
            `${kind} of 'web'; it is read as 'web' (rename it to 'web': the old name will go)`,
        );
      } else if (!SCRIPT_SECTION_KEYS.top.includes(entry.key)) {
        failAt(
          childAt(at, entry.key, "the script"),
          entry.keyPos,
          unknownKeyMessage(
            entry.key,
            "the script",
            Object.fromEntries(SCRIPT_SECTION_KEYS.top.map((k) => [k, k])),
          ),
        );
      }
    });
  }
  const section = (key: string) =>
    node.entries.find((e) => e.key === key)?.value ??
      (key === WEB_SECTION_KEY ? former?.value : undefined);
  return { node, section };
}

/**
 * Reads and checks the `tasks` section of a script, as `runYaml` does (spec 4.5: only the tasks
 * run). Other sections are not read, but the top-level keys must be known ones.
 *
 * @throws {YamlScriptError} naming the file, the line and column and the key: invalid YAML, an
 * unknown key, a value of the wrong type, a missing `tasks`, task `name` or `flow`, or an
 * environment variable that is not set.
 */
export function parseScriptTasks(
  content: string,
  options: ScriptReadOptions = {},
): Promise<ScriptTasks> {
  return readScriptTasks(content, options);
}

/**
 * {@link parseScriptTasks}, with the flow keys an unknown key's message offers (those of the
 * agent that runs the script, for `runYamlScript`).
 */
export function readScriptTasks(
  content: string,
  options: ScriptReadOptions,
  flowKeys?: readonly string[],
): Promise<ScriptTasks> {
  const variables = new Map<string, string>();
  const at = topContext(options, flowKeys, variables);
  return readWhole(at, async () => {
    const { node } = await readTop(content, at, options.onWarning);
    if (options.untrusted) await checkUntrustedScript(node, at, options);
    const tasks = collect(at, () => readTasks(node, at)) ?? [];
    return { fileName: at.fileName, tasks, source: content, variables };
  });
}

/**
 * Reads and checks a whole script file, for tools that set up the target themselves (the
 * command line): the tasks, the `agent` section and the target section. This version runs web
 * scripts: the `web` section is required and needs `url`; a device platform's section
 * ({@link PLATFORM_TARGET_SECTIONS}) is an error naming the package that runs it.
 *
 * @param content the file's text.
 * @param fileName named in errors.
 * @param options `env` reads environment variables for `${NAME}`; `onWarning` receives
 * warnings (the former name `target` of the `web` section is read, with one); `untrusted`,
 * `allowEnv` and `workDir` say whether the file is yours (./script_trust.ts): an untrusted
 * file that asks for what it may not do fails with every refusal.
 * @throws {YamlScriptError} as {@link parseScriptTasks}, and for an unknown key or a wrong value
 * in `web` or `agent`, a missing `url` (or one that is not an absolute URL without `serve`), a
 * device platform's section, or no target section. Every error of the file is in one error.
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
export function parseScriptFile(
  content: string,
  fileName: string,
  options: ScriptFileReadOptions = {},
): Promise<ScriptFile> {
  const variables = new Map<string, string>();
  const at = topContext({ ...options, fileName }, flowKeysWith(WEB_ITEMS), variables);
  return readWhole(at, async () => {
    const { node, section } = await readTop(content, at, options.onWarning);
    if (options.untrusted) await checkUntrustedScript(node, at, options);
    for (const entry of node.entries) {
      if (PLATFORM_TARGET_SECTIONS.includes(entry.key)) {
        collect(at, () =>
          failAt(
            childAt(at, entry.key, "the script"),
            entry.keyPos,
            `'${entry.key}' is a device platform's section: this reads web scripts ('web' ` +
              `section); run it with its platform package's run...Yaml (e.g. runMobileAYaml of ` +
              `@sdk/mobilea for 'mobilea')`,
          ));
      }
    }
    const web = collect(at, () => readWebSection(section(WEB_SECTION_KEY), at, node.pos))!;
    const agent = collect(at, () => readAgentSection(section("agent"), at)) ?? {};
    const tasks = collect(at, () => readTasks(node, at)) ?? [];
    return { fileName: at.fileName, tasks, source: content, variables, target: "web", web, agent };
  });
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
  const at = topContext({ fileName });
  const { node } = await readWhole(at, () => readTop(content, at, undefined));
  const key = node.entries.find((e) =>
    TARGET_SECTIONS.includes(e.key) || PLATFORM_TARGET_SECTIONS.includes(e.key) ||
    isFormerWebKey(e.key)
  )?.key;
  return key !== undefined && isFormerWebKey(key) ? WEB_SECTION_KEY : key;
}

/**
 * Reads and checks a script file for a device platform (a platform package's `run...Yaml`): the
 * tasks, the `agent` section and the platform's section, read by its schema. Another target
 * section (`web`, another platform's) is an error.
 *
 * @param schema the platform's section: key, name and readers.
 * @param content the file's text.
 * @param fileName named in errors.
 * @param options `env` reads environment variables for `${NAME}`; `onWarning` receives
 * warnings.
 * @throws {YamlScriptError} as {@link parseScriptTasks}, for a missing platform section, an
 * unknown key or a value of the wrong type in it or in `agent`, or another target section.
 * Every error of the file is in one error.
 */
export function parsePlatformScriptFile<S extends Record<string, unknown>>(
  schema: ScriptSectionSchema<S>,
  content: string,
  fileName: string,
  options: ScriptFileReadOptions = {},
): Promise<PlatformScriptFile<S>> {
  const variables = new Map<string, string>();
  const at = topContext(
    { ...options, fileName },
    flowKeysWith(schema.items ?? {}),
    variables,
    flowAliasesOf(schema.items),
  );
  return readWhole(at, async () => {
    const { node, section } = await readTop(content, at, options.onWarning);
    if (options.untrusted) {
      await checkUntrustedScript(
        node,
        at,
        options,
        schema as unknown as ScriptSectionSchema<Record<string, unknown>>,
      );
    }
    for (const entry of node.entries) {
      if (
        [...TARGET_SECTIONS, ...PLATFORM_TARGET_SECTIONS, ...Object.keys(FORMER_WEB_KEYS)]
          .includes(entry.key) &&
        entry.key !== schema.key
      ) {
        collect(at, () =>
          failAt(
            childAt(at, entry.key, "the script"),
            entry.keyPos,
            `a ${schema.label} script has a '${schema.key}' section and no '${entry.key}' section`,
          ));
      }
    }
    const read = collect(at, () => readPlatformSection(schema, section(schema.key), at, node.pos));
    const agent = collect(at, () => readAgentSection(section("agent"), at)) ?? {};
    return {
      fileName: at.fileName,
      tasks: collect(at, () => readTasks(node, at)) ?? [],
      source: content,
      variables,
      target: schema.key,
      section: read?.section ?? ({} as S),
      ...(read?.output !== undefined && { output: read.output }),
      agent,
    };
  });
}

/**
 * Reads a script file's `agent` section alone, for tools that need what it says apart from a run:
 * the command line names a device platform's file in its merged report by the section's
 * `testId`, `groupName` and `groupDescription`, and the platform's package runs the file.
 *
 * @param content the file's text.
 * @param fileName named in errors.
 * @param options as for {@link parseScriptFile}.
 * @returns the section; `{}` when the file has none.
 * @throws {YamlScriptError} for text that is not YAML, an unknown top key, or a wrong value in
 * `agent`.
 */
export function readScriptAgentSection(
  content: string,
  fileName: string,
  options: ScriptFileReadOptions = {},
): Promise<ScriptAgentOptions> {
  const at = topContext({ ...options, fileName });
  return readWhole(at, async () => {
    const { section } = await readTop(content, at, undefined);
    return collect(at, () => readAgentSection(section("agent"), at)) ?? {};
  });
}
