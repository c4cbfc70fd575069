/**
 * Errors of YAML scripts: every one names the file, the line and column, and the key at fault,
 * in the form `file:line:column: message`, like a compiler.
 *
 * @module
 */

import { SdkError, type SdkErrorCode } from "../errors.ts";

/** Where a {@link YamlScriptError} points. */
export interface YamlScriptErrorLocation {
  /** The script's file name as given (`runYamlScript`'s `fileName`, default `"script.yaml"`). */
  fileName: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** The key at fault (`"timeout"`, `"aiTap"`, `"tasks"`), when there is one. */
  key?: string;
  /** Path of the node at fault from the top of the file, e.g. `tasks[0].flow[2].timeout`. */
  path?: string;
}

/** How many errors of one file a {@link YamlScriptError} reports at most. */
export const MAX_SCRIPT_ERRORS = 20;

/**
 * A script that cannot run: invalid YAML, an unknown key, a value of the wrong type, a missing
 * required key or environment variable, or an item the agent cannot perform. The message starts
 * with `file:line:column: `.
 *
 * A file is read whole, and every error found is reported at once (up to
 * {@link MAX_SCRIPT_ERRORS}): `errors` lists them in the order of the file, each with its own
 * `file:line:column:` message, and the error's own fields (`line`, `column`, `key`, `path`) are
 * the first one's. Its message is the first error's, then each other error's on a line of its
 * own, then a line that counts them.
 *
 * @example
 * ```ts ignore
 * try {
 *   await runYamlScript(agent, text, { fileName: "flow.yaml" });
 * } catch (e) {
 *   if (e instanceof YamlScriptError) console.error(`fix ${e.fileName} line ${e.line}: ${e.key}`);
 * }
 * ```
 */
export class YamlScriptError extends SdkError {
  /** Always `"YamlScriptError"`, whatever a bundler renames the class to. */
  override readonly name: string = "YamlScriptError";
  /** Always `"SCRIPT_INVALID"`. */
  override readonly code: SdkErrorCode = "SCRIPT_INVALID";
  /** The script's file name. */
  readonly fileName: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** The key at fault, when there is one. */
  readonly key: string | undefined;
  /** Path of the node at fault, e.g. `tasks[0].flow[2].timeout`, when known. */
  readonly path: string | undefined;
  /**
   * Every error found in the file, in the order of the file, each on its own (the first has the
   * same fields as this error); `[this]` when there is one. At most {@link MAX_SCRIPT_ERRORS}.
   */
  readonly errors: readonly YamlScriptError[];

  /**
   * Creates the error; `message` is prefixed with `fileName:line:column: `.
   *
   * @param options `cause`; `errors`, every error of the file when there are several (the first at
   * `location`, with `message`), whose messages follow on lines of their own; `more`, whether
   * the file has errors beyond these.
   */
  constructor(
    message: string,
    location: YamlScriptErrorLocation,
    options?: { cause?: unknown; errors?: readonly YamlScriptError[]; more?: boolean },
  ) {
    const own = `${location.fileName}:${location.line}:${location.column}: ${message}`;
    const all = options?.errors ?? [];
    super(
      all.length <= 1 && !options?.more ? own : [
        own,
        ...all.slice(1).map((e) => e.message),
        options?.more
          ? `(the first ${all.length} errors of ${location.fileName}; there are more: fix these first)`
          : `(${all.length} errors in ${location.fileName})`,
      ].join("\n"),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.fileName = location.fileName;
    this.line = location.line;
    this.column = location.column;
    this.key = location.key;
    this.path = location.path;
    this.errors = all.length > 0 ? all : [this];
  }
}

/**
 * The one error that reports `errors` (each a single error, found in one file): the first in the
 * order of the file, with the others listed after it; that error itself when there is one.
 *
 * @param errors at least one error.
 * @param more whether the file has errors beyond these.
 */
export function scriptErrors(errors: readonly YamlScriptError[], more = false): YamlScriptError {
  const sorted = [...errors].sort((a, b) => a.line - b.line || a.column - b.column);
  const first = sorted[0];
  if (sorted.length === 1 && !more) return first;
  const prefix = `${first.fileName}:${first.line}:${first.column}: `;
  const text = first.message.startsWith(prefix)
    ? first.message.slice(prefix.length)
    : first.message;
  return new YamlScriptError(text, first, { errors: sorted, more, cause: first.cause });
}

/** How one task ended: the way to see a `continueOnError` task's failure (it is not printed). */
export interface YamlTaskOutcome {
  /** The task's `name`. */
  name: string;
  /** `failed` only for tasks with `continueOnError` (any other failure rejects the run). */
  status: "passed" | "failed";
  /** Why it failed. */
  error?: YamlTaskError;
}

/** Which flow item failed: the details of a {@link YamlTaskError}. */
export interface YamlTaskErrorDetails extends YamlScriptErrorLocation {
  /** The task's `name`. */
  taskName: string;
  /** 0-based index of the task in `tasks`. */
  taskIndex: number;
  /** 0-based index of the item in the task's `flow`. */
  itemIndex: number;
  /** The item's flow key (`aiTap`, `sleep`, ...). */
  flowKey: string;
  /** The results gathered before the failure (see `runYamlScript`). */
  result: Record<string, unknown>;
  /**
   * How each task before the failing one ended (those under `continueOnError` included), in
   * order. Default `[]`.
   */
  tasks?: readonly YamlTaskOutcome[];
}

/**
 * A flow item failed while the script ran. The message names the flow key, the task and the
 * item's number (1-based, "item 2 of 4"), after `file:line:column: ` of the item's flow key; the
 * original error is `cause`, and its message ends this one.
 */
export class YamlTaskError extends YamlScriptError {
  /** Always `"YamlTaskError"`, whatever a bundler renames the class to. */
  override readonly name: string = "YamlTaskError";
  /** Always `"SCRIPT_ITEM_FAILED"`. */
  override readonly code: SdkErrorCode = "SCRIPT_ITEM_FAILED";
  /** The task's `name`. */
  readonly taskName: string;
  /** 0-based index of the task. */
  readonly taskIndex: number;
  /** 0-based index of the item in the task's `flow`. */
  readonly itemIndex: number;
  /** The item's flow key. */
  readonly flowKey: string;
  /** Results gathered before the failure, keyed as in `runYamlScript`'s result. */
  readonly result: Record<string, unknown>;
  /** How each task before the failing one ended, in order (the failing one is this error). */
  readonly tasks: readonly YamlTaskOutcome[];

  /** Creates the error from the failing item and the original error (kept as `cause`). */
  constructor(message: string, details: YamlTaskErrorDetails, options: { cause: unknown }) {
    super(message, details, options);
    this.taskName = details.taskName;
    this.taskIndex = details.taskIndex;
    this.itemIndex = details.itemIndex;
    this.flowKey = details.flowKey;
    this.result = details.result;
    this.tasks = details.tasks ?? [];
  }
}
