/**
 * Runs a YAML script's tasks on an agent (spec 4.5 `runYaml`). The agent's `runYaml(text)` calls
 * {@link runYamlScript} with itself.
 *
 * @module
 */

import { errorMessage } from "../session/execution.ts";
import { untrustedAgentRefusal } from "../device/powers.ts";
import { FLOW_ITEMS } from "./platform_items.ts";
import { readScriptTasks, type ScriptReadOptions } from "./script_schema.ts";
import type { ScriptTasks } from "./script_tasks.ts";
import {
  MAX_SCRIPT_ERRORS,
  scriptErrors,
  YamlScriptError,
  YamlTaskError,
  type YamlTaskOutcome,
} from "./script_errors.ts";
import type { YamlAgent } from "./yaml_agent.ts";
import { journalOf, type JournalScript } from "../session/action_journal.ts";

/** Options of {@link runYamlScript}. */
export interface RunYamlOptions extends ScriptReadOptions {
  /**
   * Stops the script: checked before each item, passed to `aiAct` and `sleep`. The script then
   * rejects with the signal's reason, whatever `continueOnError` says.
   */
  signal?: AbortSignal;
}

export type { YamlTaskOutcome } from "./script_errors.ts";

/** What a script run gives back. */
export interface RunYamlResult {
  /**
   * The value of every result item (`aiQuery`, `aiBoolean`, `aiNumber`, `aiString`, `aiAsk`,
   * `aiLocate`, `javascript`): under its `name`, or else under its position: the n-th result item
   * without a `name` in the file, counted from 0 over all tasks, is stored under `"n"`. Positions
   * come from the file, not from what ran, so a failed task does not shift later keys; an item
   * that did not run leaves its key out. A later item with the same name replaces the value.
   */
  result: Record<string, unknown>;
  /** How each task ended, in order. */
  tasks: YamlTaskOutcome[];
}

/**
 * Refuses to run an untrusted script on an agent whose action space reaches past the screen (a
 * device shell, raw driver requests): the script's prompts could steer the model to them.
 *
 * @throws {YamlScriptError} at the top of the file, naming the actions and the options that
 * remove them.
 */
function refuseAgentForUntrusted(agent: unknown, fileName: string): void {
  const why = untrustedAgentRefusal(agent);
  if (why !== undefined) throw new YamlScriptError(why, { fileName, line: 1, column: 1 });
}

/**
 * Checks that the agent has every method the script's items call, before anything runs.
 *
 * @throws {YamlScriptError} naming every item whose method the agent lacks (a `javascript` item
 * on an agent without `evaluateJavaScript`), up to the limit of errors a file reports.
 */
function checkAgentMethods(agent: YamlAgent, script: ScriptTasks): void {
  const errors: YamlScriptError[] = [];
  let more = false;
  for (const [ti, task] of script.tasks.entries()) {
    for (const [ii, item] of task.flow.entries()) {
      const method = FLOW_ITEMS[item.key].method;
      if (method === undefined || typeof agent[method] === "function") continue;
      if (errors.length === MAX_SCRIPT_ERRORS) {
        more = true;
        break;
      }
      errors.push(
        new YamlScriptError(
          `'${item.key}' needs an agent with ${method}()${
            item.key === "javascript" ? " (web agents)" : ""
          }, and this agent has none`,
          {
            fileName: script.fileName,
            line: item.line,
            column: item.column,
            key: item.key,
            path: `tasks[${ti}].flow[${ii}]`,
          },
        ),
      );
    }
  }
  if (errors.length > 0) throw scriptErrors(errors, more);
}

/** The flow keys `agent` can run: those that need no method, and those whose method it has. */
function agentFlowKeys(agent: YamlAgent): string[] {
  return Object.entries(FLOW_ITEMS)
    .filter(([, spec]) => spec.method === undefined || typeof agent[spec.method] === "function")
    .map(([key]) => key);
}

function setResult(result: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty: a name such as "__proto__" is stored as a plain key.
  Object.defineProperty(result, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Runs checked tasks (from `parseScriptTasks` or `parseScriptFile`) in order, each flow item
 * through the agent (see ./flow_items.ts for every flow key). A failing item ends its task; with
 * `continueOnError: true` the task is recorded as failed and the next task runs, otherwise the
 * run rejects with a {@link YamlTaskError}.
 *
 * @throws {YamlScriptError} when the agent lacks a method an item needs (nothing runs then).
 * @throws {YamlTaskError} for the first failing item of a task without `continueOnError`: the
 * message names the flow key, the task, the item's number and the file, line and column; `cause`
 * is the original error; `result` the results so far; `tasks` how the tasks before it ended.
 */
export async function runScriptTasks(
  agent: YamlAgent,
  script: ScriptTasks,
  options: { signal?: AbortSignal } = {},
): Promise<RunYamlResult> {
  checkAgentMethods(agent, script);
  const { signal } = options;
  // The agent's journal learns which item each call comes from, for agent.exportScript().
  const journal = journalOf(agent);
  const source: JournalScript | undefined = script.source === undefined ? undefined : {
    source: script.source,
    fileName: script.fileName,
    variables: script.variables ?? new Map(),
  };
  let unnamed = 0;
  // Result keys come from the file: positions do not depend on what ran.
  const keys = script.tasks.map((task) =>
    task.flow.map((item) =>
      FLOW_ITEMS[item.key].result === true
        ? item.name ?? String(unnamed++)
        : FLOW_ITEMS[item.key].result
        ? item.name
        : undefined
    )
  );
  if (source) journal?.startScript(source);
  try {
    return await runTasks(agent, script, keys, signal, (ti, ii) => {
      if (source) journal?.scriptItem(source, ti, ii);
    });
  } finally {
    journal?.endScript();
  }
}

async function runTasks(
  agent: YamlAgent,
  script: ScriptTasks,
  keys: (string | undefined)[][],
  signal: AbortSignal | undefined,
  onItem: (task: number, item: number) => void,
): Promise<RunYamlResult> {
  const result: Record<string, unknown> = {};
  const tasks: YamlTaskOutcome[] = [];
  for (const [ti, task] of script.tasks.entries()) {
    let failure: YamlTaskError | undefined;
    for (const [ii, item] of task.flow.entries()) {
      try {
        signal?.throwIfAborted();
        onItem(ti, ii);
        const value = await FLOW_ITEMS[item.key].run(agent, item, signal);
        const key = keys[ti][ii];
        if (key !== undefined) setResult(result, key, value);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        const key = keys[ti][ii];
        const failed = key === undefined ? undefined : FLOW_ITEMS[item.key].failedResult?.(e);
        if (key !== undefined && failed !== undefined) setResult(result, key, failed);
        failure = new YamlTaskError(
          `${item.key} failed in task '${task.name}' (item ${ii + 1} of ${task.flow.length}): ${
            errorMessage(e)
          }`,
          {
            fileName: script.fileName,
            line: item.line,
            column: item.column,
            key: item.key,
            path: `tasks[${ti}].flow[${ii}]`,
            taskName: task.name,
            taskIndex: ti,
            itemIndex: ii,
            flowKey: item.key,
            result: { ...result },
            tasks: [...tasks],
          },
          { cause: e },
        );
        break;
      }
    }
    if (!failure) {
      tasks.push({ name: task.name, status: "passed" });
      continue;
    }
    if (!task.continueOnError) throw failure;
    // Not printed: the outcome says it, and the agent's report holds the failed call.
    tasks.push({ name: task.name, status: "failed", error: failure });
  }
  return { result, tasks };
}

/**
 * Runs the `tasks` section of a YAML script on an agent (spec 4.5 `runYaml`; other sections are
 * not read, though the top-level keys must be known). The whole text is read and checked first,
 * `${NAME}` environment variables included, so a script with an error runs nothing.
 *
 * @param agent the agent to act with (`Agent.runYaml` passes itself).
 * @param content the script's text.
 * @param options `fileName` named in errors (default `"script.yaml"`); `env` reads environment
 * variables (default: the process environment); `signal` stops the run; `untrusted` (with
 * `allowEnv`, `workDir`) for a script you did not write: what it may not do is refused before
 * anything runs, and so is an agent whose action space reaches past the screen
 * (docs/security.md, "Running scripts you did not write").
 * @returns every result item's value (see {@link RunYamlResult}) and how each task ended.
 * @throws {YamlScriptError} before anything runs: invalid YAML, an unknown key, a wrong type, a
 * missing required key or environment variable, or a method the agent lacks.
 * @throws {YamlTaskError} when an item of a task without `continueOnError` fails.
 *
 * @example
 * ```ts ignore
 * const { result } = await runYamlScript(agent, `
 * tasks:
 *   - name: search
 *     flow:
 *       - aiInput: the search box
 *         value: \${QUERY}
 *       - aiKeyboardPress: Enter
 *       - aiQuery: the result titles, as an array of strings
 *         name: titles
 * `, { fileName: "search.yaml" });
 * console.log(result.titles);
 * ```
 */
export async function runYamlScript(
  agent: YamlAgent,
  content: string,
  options: RunYamlOptions = {},
): Promise<RunYamlResult> {
  const script = await readScriptTasks(content, options, agentFlowKeys(agent));
  if (options.untrusted) refuseAgentForUntrusted(agent, script.fileName);
  return await runScriptTasks(agent, script, { signal: options.signal });
}
