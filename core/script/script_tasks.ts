/**
 * The `tasks` section of a YAML script: each task (`name`, `continueOnError`, `flow`) and each of
 * its flow items, checked against the flow items' definitions (./flow_items.ts). Every error names
 * the file, the line and column and the key.
 *
 * @module
 */

import { NAME_OPTION, type ScriptFlowItem } from "./flow_items.ts";
import { FLOW_ITEM_KEYS, FLOW_ITEMS } from "./platform_items.ts";
import {
  bool,
  childAt,
  closestName,
  collect,
  describeNode,
  failAt,
  type ReadContext,
  type Reader,
  readMapping,
  ReportedAlready,
  text,
} from "./value_readers.ts";
import type { YamlMapNode, YamlNode } from "./yaml_parse.ts";
import { referencedEnvVars } from "./env_vars.ts";
import { isSecretVariableName } from "../session/secrets.ts";

/** The values of the variables named like secrets that a prompt's text (or `prompt`) reads. */
function secretValuesRead(node: YamlNode, at: ReadContext): string[] {
  const text = node.kind === "map" ? node.entries.find((e) => e.key === "prompt")?.value : node;
  if (!text || text.kind !== "scalar" || typeof text.value !== "string") return [];
  return referencedEnvVars(text.value).filter(isSecretVariableName)
    .filter((name) => at.refuseEnv?.(name) === undefined)
    .map((name) => at.env(name) ?? "")
    .filter((value) => value !== "");
}

/** Whether a scalar's text reads a variable whose name looks secret (`${LOGIN_PASSWORD}`). */
function readsSecretVariable(node: YamlNode): boolean {
  return node.kind === "scalar" && typeof node.value === "string" &&
    referencedEnvVars(node.value).some(isSecretVariableName);
}

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
  /** The script's text, when it was read from text (`agent.exportScript()` keeps it). */
  source?: string;
  /**
   * The environment variables its `${NAME}` read, with their values: `agent.exportScript()`
   * writes a value typed from one as its `${NAME}`, never the value.
   */
  variables?: ReadonlyMap<string, string>;
}

const taskFields: Record<string, Reader<unknown>> = {
  name: text,
  continueOnError: bool,
  flow: { describe: "a list of flow items", read: (node) => node },
};

/** The keys of a task. */
export const TASK_KEYS: readonly string[] = Object.keys(taskFields);

/**
 * Reads and checks the `tasks` section of the top-level mapping `node`.
 *
 * @throws {YamlScriptError} for a missing `tasks`, or a task or flow item that is not valid.
 */
export function readTasks(node: YamlMapNode, at: ReadContext): ScriptTask[] {
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
  return entry.value.items.flatMap((task, i) =>
    collect(tasksAt, () => readTask(task, { ...tasksAt, path: `tasks[${i}]` }, i)) ?? []
  );
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
  const name = (fields.name as string | undefined) ?? `${index + 1}`;
  const flowNode = fields.flow as YamlNode | undefined;
  const flowAt = childAt(at, "flow", `task '${name}'`);
  if (flowNode === undefined) return { name, continueOnError: false, flow: [], ...node.pos };
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
    flow: flowNode.items.flatMap((item, i) =>
      collect(
        flowAt,
        () => readFlowItem(item, { ...flowAt, path: `${flowAt.path}[${i}]` }, name),
      ) ??
        []
    ),
    ...node.pos,
  };
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
  // An alias of the script's platform reads as the item it names.
  const keyOf = (key: string) =>
    at.flowAliases && Object.hasOwn(at.flowAliases, key) ? at.flowAliases[key] : key;
  const flowEntries = node.entries.filter((e) => Object.hasOwn(FLOW_ITEMS, keyOf(e.key)));
  if (flowEntries.length === 0) {
    const first = node.entries[0];
    const keys = at.flowKeys ?? Object.keys(FLOW_ITEMS);
    const near = closestName(first.key, keys);
    failAt(
      childAt(at, first.key, `task '${taskName}'`),
      first.keyPos,
      `the flow item has no flow key: '${first.key}' is not one${
        near ? ` (did you mean '${near}'?)` : ""
      }; flow keys: ${keys.join(", ")}`,
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
  const spec = FLOW_ITEMS[keyOf(flow.key)];
  const owner = `the ${flow.key} item`;
  const options: Record<string, unknown> = {};
  const reported = at.errors?.list.length ?? 0;
  for (const entry of node.entries) {
    if (entry === flow) continue;
    const reader = Object.hasOwn(spec.options, entry.key)
      ? spec.options[entry.key]
      : spec.result && entry.key === "name"
      ? NAME_OPTION
      : undefined;
    const child = childAt(at, entry.key, owner);
    const value = collect(at, () => {
      if (!reader) {
        const known = FLOW_ITEM_KEYS[keyOf(flow.key)];
        const near = closestName(entry.key, known);
        failAt(
          child,
          entry.keyPos,
          `unknown key '${entry.key}' in ${owner}${near ? ` (did you mean '${near}'?)` : ""}; ${
            known.length ? `known keys: ${known.join(", ")}` : `${flow.key} takes no other keys`
          }`,
        );
      }
      return reader.read(entry.value, child);
    });
    if (value !== undefined) options[entry.key] = value;
  }
  // An option that could not be read is reported; the item's other checks would only guess.
  if ((at.errors?.list.length ?? 0) > reported) throw new ReportedAlready();
  for (const key of spec.required ?? []) {
    if (!(key in options)) failAt(childAt(at, key, owner), flow.keyPos, `${owner} needs '${key}'`);
  }
  const { name, ...rest } = options as { name?: string };
  const valueAt = childAt(at, flow.key, `task '${taskName}'`);
  const read: { value: unknown; options: Record<string, unknown> } = spec.normalize
    ? spec.normalize(flow.value, rest, {
      valueAt,
      optionAt: (key) => childAt(at, key, owner),
      pos: flow.keyPos,
    })
    : { value: spec.value.read(flow.value, valueAt), options: rest };
  // The values an aiAct instruction reads from variables named like secrets are its secrets.
  if (spec.method === "aiAct") {
    const values = secretValuesRead(flow.value, at);
    if (values.length > 0) read.options.secrets = values;
  }
  // A value read from a variable named like a secret is typed as one (docs/security.md).
  if (spec.options.secret && read.options.secret === undefined) {
    const typed = flow.key === "aiInput" && node.entries.some((e) => e.key === "locate")
      ? flow.value
      : node.entries.find((e) => e.key === "value")?.value;
    if (typed && readsSecretVariable(typed)) read.options.secret = true;
  }
  return {
    key: keyOf(flow.key),
    value: read.value,
    options: read.options,
    ...(name !== undefined && { name }),
    ...flow.keyPos,
  };
}
