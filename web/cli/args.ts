/**
 * The `sdk` command line's arguments: `sdk run <file|dir|glob>... [flags]`, `sdk --help`,
 * `sdk --version`. Flags are `--name value`, `--name=value`, a bare `--name` (true) or
 * `--no-name` (false) for booleans; `--` ends the flags.
 *
 * @module
 */

import type { WebPageAgentOptions } from "../agent/page_agent.ts";
import {
  AGENT_OPTION_KINDS,
  agentFlagNames,
  convertFlagValue,
  type FlagKind,
  optionOfFlag,
} from "./agent_flags.ts";

/** `sdk run`: run script files. */
export interface RunCommand {
  /** The command. */
  command: "run";
  /** Files, directories and glob patterns as given. */
  paths: string[];
  /** How many files run at once, each in its own browser context. Default 1. */
  concurrent: number;
  /** Keep running the other files after one fails. Default `false`: stop starting new ones. */
  continueOnError: boolean;
  /** Show the browser window. Default `false` (headless). */
  headed: boolean;
  /** Leave the browser open after the run until the process is interrupted (with `headed`). */
  keepWindow: boolean;
  /** A dotenv file read before the run; default `.env` in the working directory when present. */
  dotenv?: string;
  /** Where to write the JSON summary. */
  summary?: string;
  /** Agent options from flags; they win over a script's `agent:` section. */
  agentOptions: Partial<WebPageAgentOptions>;
}

/** What the command line asks for. */
export type CliCommand = RunCommand | { command: "help" } | { command: "version" };

/** A usage error: the message says what is wrong; the process exits with code 2. */
export class CliUsageError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}

/** The flags of `sdk run` other than agent options: the field each sets and its kind. */
const RUN_FLAGS: Record<string, FlagKind & { field: keyof RunCommand }> = {
  "concurrent": { type: "number", field: "concurrent" },
  "continue-on-error": { type: "boolean", field: "continueOnError" },
  "headed": { type: "boolean", field: "headed" },
  "keep-window": { type: "boolean", field: "keepWindow" },
  "dotenv": { type: "string", field: "dotenv" },
  "summary": { type: "string", field: "summary" },
};

/** The closest known flag to a mistyped one (edit distance at most 3), for the error message. */
function suggest(flag: string): string | undefined {
  let best: string | undefined, bestDistance = 4;
  for (const known of [...Object.keys(RUN_FLAGS), ...agentFlagNames()]) {
    const d = distance(flag, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

/**
 * Parses the arguments after the program name.
 *
 * @throws {CliUsageError} for an unknown command or flag (with a suggestion), a missing or
 *   malformed value, no path to run, or `--concurrent` below 1.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    return { command: "help" };
  }
  if (command === "--version" || command === "-v" || command === "version") {
    return { command: "version" };
  }
  if (command !== "run") {
    throw new CliUsageError(`unknown command "${command}": try "sdk run <file|dir|glob>..."`);
  }
  const run: RunCommand = {
    command: "run",
    paths: [],
    concurrent: 1,
    continueOnError: false,
    headed: false,
    keepWindow: false,
    agentOptions: {},
  };
  const options = run.agentOptions as Record<string, unknown>;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      run.paths.push(...rest.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      run.paths.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    let text: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    const negated = name.startsWith("no-") && !(name in RUN_FLAGS) && !optionOfFlag(name);
    if (negated) name = name.slice(3);
    const option = optionOfFlag(name);
    const kind = RUN_FLAGS[name] ?? (option && AGENT_OPTION_KINDS[option]);
    if (!kind) {
      const hint = suggest(name);
      throw new CliUsageError(
        `unknown flag --${name}${
          hint ? ` (did you mean --${hint}?)` : ""
        }; "sdk --help" lists them`,
      );
    }
    if (negated) {
      if (kind.type !== "boolean" || text !== undefined) {
        throw new CliUsageError(`--no-${name} is only for true/false flags, without a value`);
      }
      text = "false";
    } else if (text === undefined && kind.type !== "boolean") {
      text = rest[++i];
      if (text === undefined) throw new CliUsageError(`--${name} needs a value`);
    }
    let value: unknown;
    try {
      value = convertFlagValue(`--${name}`, kind, text);
    } catch (e) {
      throw new CliUsageError((e as Error).message);
    }
    if (option) options[option] = value;
    else (run as unknown as Record<string, unknown>)[RUN_FLAGS[name].field] = value;
  }
  if (run.paths.length === 0) {
    throw new CliUsageError(
      `"sdk run" needs at least one .yaml, .yml or .feature file, folder or glob`,
    );
  }
  if (!(Number.isInteger(run.concurrent) && run.concurrent >= 1)) {
    throw new CliUsageError(`--concurrent takes a whole number >= 1: got ${run.concurrent}`);
  }
  return run;
}

/** The text of `sdk --help`. */
export function helpText(): string {
  return `sdk: run natural-language UI automation scripts

Usage:
  sdk run <file|dir|glob>... [flags]   run .yaml, .yml and .feature files
  sdk --help | --version

Flags of "sdk run":
  --concurrent N          run N files at once, each in its own browser context (default 1)
  --continue-on-error     keep running the other files after one fails
  --headed                show the browser window
  --keep-window           leave the browser open after the run (with --headed), until Ctrl+C
  --dotenv FILE           read environment variables from FILE (default: .env when present)
  --summary FILE          write a JSON summary of the run to FILE

Agent options (spec 2.1), as kebab-case flags; they win over a script's "agent:" section:
${agentFlagNames().map((f) => `  --${f}`).join("\n")}

Booleans take --flag, --flag=false or --no-flag; JSON options take JSON text.
The model comes from the SDK_MODEL_* variables (or --model-config JSON).
Exit code: 0 when every file passed, 1 when any failed, 2 for a usage error.`;
}
