/**
 * The `sdk` command line's arguments: `sdk run <file|dir|glob>... [flags]`,
 * `sdk playground <url> [flags]`, `sdk --help`, `sdk --version`. Flags are `--name value`,
 * `--name=value`, a bare `--name` (true) or `--no-name` (false) for booleans; `--` ends the flags.
 *
 * @module
 */

import { type McpCommand, mcpHelpText, parseMcpArgs } from "./mcp/command.ts";
import {
  DEVICE_RUN_FLAG_HELP,
  DEVICE_RUN_FLAGS,
  type DeviceRunFlags,
  type DevicesCommand,
  devicesHelpText,
  DISCOVERY_FLAGS,
} from "./device_flags.ts";
import { SdkTypeError } from "@sdk/core";
import { isSdkSecretVariable } from "@sdk/core/script";
import { DEFAULT_PLAYGROUND_PORT, PLAYGROUND_HOST_ENV, type WebPageAgentOptions } from "@sdk/web";
import {
  AGENT_OPTION_KINDS,
  agentFlagHelpLines,
  agentFlagNames,
  convertFlagValue,
  type FlagKind,
  optionOfFlag,
} from "./agent_flags.ts";

/** `sdk run`: run script files. */
export interface RunCommand extends DeviceRunFlags {
  /** The command. */
  command: "run";
  /** Files, directories and glob patterns as given. */
  paths: string[];
  /**
   * How many files run at once, each in its own browser context (with `--devices`: how many
   * devices work at once). Default 1 (with `--devices`: every device of the pool).
   */
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
  /**
   * The files are not yours (`--untrusted`): what they may not do is refused before anything
   * runs (docs/security.md, "Running scripts you did not write").
   */
  untrusted: boolean;
  /** With `untrusted`: the environment variables the files may read (`--env NAME`, repeated). */
  env: string[];
  /**
   * Where to write each script's run as an exported script (docs/yaml-and-cli.md, "Exported
   * scripts"): a `.yaml`/`.yml` file when one script runs, else a folder.
   */
  record?: string;
  /** Agent options from flags; they win over a script's `agent:` section. */
  agentOptions: Partial<WebPageAgentOptions>;
  /**
   * A batch file (`--config FILE`, or the one path given when it is one): the files to run and
   * how (docs/yaml-and-cli.md, "Batch files"); the flags given outrank its keys.
   */
  config?: string;
  /** Web files share one browser context (cookies, storage), one after another. Default `false`. */
  shareBrowserContext: boolean;
  /** How many more times a failed file runs before it counts as failed. Default 0. */
  retry: number;
  /** The extension bridge's port, for `bridgeMode` scripts. Default the bridge's (3766). */
  bridgePort?: number;
  /** The fields the command line set with a flag (a batch file's keys do not override them). */
  given: Set<keyof RunCommand>;
}

/** A command with help of its own: `sdk <topic> --help`. */
export type HelpTopic = "run" | "playground" | "mcp" | "devices";

/** What the command line asks for; `help` with a `topic` is the help of that command. */
export type CliCommand =
  | RunCommand
  | PlaygroundCommand
  | McpCommand
  | DevicesCommand
  | { command: "help"; topic?: HelpTopic }
  | { command: "version" };

/**
 * A usage error of the command line (an unknown flag or command, a missing value, no such file):
 * the message says what is wrong; the process exits with code 2. It is the command line's own
 * kind of {@link SdkTypeError}, so it is a `TypeError` with the code `INVALID_ARGUMENT`, like a
 * wrong option of the SDK's API.
 */
export class CliUsageError extends SdkTypeError {
  /** Always `"CliUsageError"`, whatever a bundler renames the class to. */
  override readonly name: string = "CliUsageError";
}

/** The flags of `sdk run` other than agent options: the field each sets and its kind. */
const RUN_FLAGS: Record<string, FlagKind & { field: keyof RunCommand }> = {
  "concurrent": { type: "number", field: "concurrent" },
  "continue-on-error": { type: "boolean", field: "continueOnError" },
  "headed": { type: "boolean", field: "headed" },
  "keep-window": { type: "boolean", field: "keepWindow" },
  "dotenv": { type: "string", field: "dotenv" },
  "summary": { type: "string", field: "summary" },
  "untrusted": { type: "boolean", field: "untrusted" },
  "env": { type: "string", field: "env" },
  "record": { type: "string", field: "record" },
  "config": { type: "string", field: "config" },
  "share-browser-context": { type: "boolean", field: "shareBrowserContext" },
  "retry": { type: "number", field: "retry" },
  "bridge-port": { type: "number", field: "bridgePort" },
  ...DEVICE_RUN_FLAGS,
};

/** `sdk playground <url>`: the playground on a page (docs/playground.md). */
export interface PlaygroundCommand {
  /** The command. */
  command: "playground";
  /** The page to open. */
  url: string;
  /** Port to listen on; 0 takes any free port. Default {@link DEFAULT_PLAYGROUND_PORT}. */
  port: number;
  /** Host to listen on; default: `SDK_PLAYGROUND_HOST`, else 127.0.0.1. */
  host?: string;
  /** Show the browser window. Default `false` (headless). */
  headed: boolean;
  /** A dotenv file read first; default `.env` in the working directory when present. */
  dotenv?: string;
  /** Agent options from flags. */
  agentOptions: Partial<WebPageAgentOptions>;
}

/** The flags of `sdk playground` other than agent options. */
const PLAYGROUND_FLAGS: Record<string, FlagKind & { field: keyof PlaygroundCommand }> = {
  "port": { type: "number", field: "port" },
  "host": { type: "string", field: "host" },
  "headed": { type: "boolean", field: "headed" },
  "dotenv": { type: "string", field: "dotenv" },
};

type CommandFlags = Record<string, FlagKind & { field: string }>;

/** The closest known flag to a mistyped one (edit distance at most 3), for the error message. */
function suggest(flag: string, flags: CommandFlags): string | undefined {
  let best: string | undefined, bestDistance = 4;
  for (const known of [...Object.keys(flags), ...agentFlagNames()]) {
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
 * Reads the flags of a command into `command` (its own flags, by field) and
 * `command.agentOptions` (agent option flags).
 *
 * @returns the positional arguments, in order.
 * @throws {CliUsageError} for an unknown flag (with a suggestion) or a missing or malformed value.
 */
function parseFlags(
  args: readonly string[],
  flags: CommandFlags,
  command: { agentOptions: Partial<WebPageAgentOptions>; given?: Set<string> },
): string[] {
  const positional: string[] = [];
  const options = command.agentOptions as Record<string, unknown>;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    let text: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    const negated = name.startsWith("no-") && !(name in flags) && !optionOfFlag(name);
    if (negated) name = name.slice(3);
    const option = optionOfFlag(name);
    const kind = flags[name] ?? (option && AGENT_OPTION_KINDS[option]);
    if (!kind) {
      const hint = suggest(name, flags);
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
      text = args[++i];
      if (text === undefined) throw new CliUsageError(`--${name} needs a value`);
    }
    let value: unknown;
    try {
      value = convertFlagValue(`--${name}`, kind, text);
    } catch (e) {
      throw new CliUsageError((e as Error).message);
    }
    const field = flags[name]?.field;
    if (field) command.given?.add(field);
    if (option) options[option] = value;
    else if (Array.isArray((command as Record<string, unknown>)[field])) {
      // A repeatable flag (`--env A --env B`).
      ((command as Record<string, unknown>)[field] as unknown[]).push(value);
    } else (command as Record<string, unknown>)[field] = value;
  }
  return positional;
}

const isHelp = (arg: string | undefined) =>
  arg === undefined || arg === "help" || arg === "--help" || arg === "-h";

/**
 * Parses the arguments after the program name.
 *
 * @throws {CliUsageError} for an unknown command or flag (with a suggestion), a missing or
 *   malformed value, no path to run, `--concurrent` below 1, or for `playground` a missing,
 *   extra or malformed URL or a port outside 0-65535.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  if (isHelp(command)) return { command: "help" };
  if (command === "--version" || command === "-v" || command === "version") {
    return { command: "version" };
  }
  if (command === "playground") return parsePlayground(rest);
  if (command === "mcp") {
    if (rest.some(isHelp)) return { command: "help", topic: "mcp" };
    return parseMcpArgs(rest, (message) => new CliUsageError(message));
  }
  if (command === "devices") return parseDevices(rest);
  if (command !== "run") {
    throw new CliUsageError(
      `unknown command "${command}": try "sdk run <file|dir|glob>...", "sdk playground <url>", ` +
        `"sdk devices" or "sdk mcp"`,
    );
  }
  if (flagsOf(rest).some((a) => a === "--help" || a === "-h")) {
    return { command: "help", topic: "run" };
  }
  const run: RunCommand = {
    command: "run",
    paths: [],
    concurrent: 1,
    continueOnError: false,
    headed: false,
    keepWindow: false,
    untrusted: false,
    env: [],
    wda: [],
    display: [],
    perDevice: false,
    spread: false,
    agentOptions: {},
    shareBrowserContext: false,
    retry: 0,
    given: new Set(),
  };
  run.paths = parseFlags(rest, RUN_FLAGS, run as RunCommand & { given: Set<string> });
  checkDeviceFlags(run);
  checkEnvFlags(run);
  if (run.paths.length === 0 && run.config === undefined) {
    throw new CliUsageError(
      `"sdk run" needs at least one .yaml, .yml or .feature file, folder or glob`,
    );
  }
  if (!(Number.isInteger(run.concurrent) && run.concurrent >= 1)) {
    throw new CliUsageError(`--concurrent takes a whole number >= 1: got ${run.concurrent}`);
  }
  if (!(Number.isInteger(run.retry) && run.retry >= 0)) {
    throw new CliUsageError(`--retry takes a whole number >= 0: got ${run.retry}`);
  }
  const port = run.bridgePort;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new CliUsageError(`--bridge-port takes a whole number 0-65535: got ${port}`);
  }
  return run;
}

/** `--per-device` and `--spread` go with `--devices`, and not together. */
function checkDeviceFlags(run: RunCommand): void {
  if (run.perDevice && run.spread) {
    throw new CliUsageError(`--per-device and --spread are two ways to run: give one of them`);
  }
  if ((run.perDevice || run.spread) && run.devices === undefined) {
    throw new CliUsageError(
      `--${run.perDevice ? "per-device" : "spread"} runs files on a pool of devices: give ` +
        `--devices all (or <platform>:all, or ids; "sdk devices" lists them)`,
    );
  }
}

/** `sdk devices [flags]`. */
function parseDevices(rest: readonly string[]): CliCommand {
  if (flagsOf(rest).some((a) => a === "--help" || a === "-h")) {
    return { command: "help", topic: "devices" };
  }
  const devices: DevicesCommand = {
    command: "devices",
    json: false,
    wda: [],
    display: [],
    agentOptions: {},
  };
  const extra = parseFlags(rest, {
    ...DISCOVERY_FLAGS,
    json: { type: "boolean", field: "json" },
  }, devices);
  if (extra.length) {
    throw new CliUsageError(`"sdk devices" takes flags only: got ${extra.join(" ")}`);
  }
  return devices;
}

/** The arguments before `--`: after it, `-h` is a path or a URL as typed. */
function flagsOf(rest: readonly string[]): readonly string[] {
  return rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
}

/** `--env NAME`: only with `--untrusted`, a variable's name, never one of the SDK's secrets. */
function checkEnvFlags(run: RunCommand): void {
  if (run.env.length > 0 && !run.untrusted) {
    throw new CliUsageError(
      `--env names the variables an --untrusted script may read; without --untrusted a script ` +
        `reads any variable (but the SDK's secrets)`,
    );
  }
  for (const name of run.env) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new CliUsageError(`--env takes a variable's name: got ${JSON.stringify(name)}`);
    }
    if (isSdkSecretVariable(name)) {
      throw new CliUsageError(
        `--env ${name}: the SDK's own secrets (the model's key and the like) are never readable ` +
          `from a script`,
      );
    }
  }
}

function parsePlayground(rest: readonly string[]): CliCommand {
  if (flagsOf(rest).some((a) => a === "--help" || a === "-h")) {
    return { command: "help", topic: "playground" };
  }
  const playground: PlaygroundCommand = {
    command: "playground",
    url: "",
    port: DEFAULT_PLAYGROUND_PORT,
    headed: false,
    agentOptions: {},
  };
  const urls = parseFlags(rest, PLAYGROUND_FLAGS, playground);
  if (urls.length !== 1) {
    throw new CliUsageError(
      `"sdk playground" takes one page address, e.g. "sdk playground https://example.com"` +
        (urls.length ? `: got ${urls.length} (${urls.join(" ")})` : ""),
    );
  }
  if (!/^(https?|file):/i.test(urls[0]) || !URL.canParse(urls[0])) {
    throw new CliUsageError(
      `"sdk playground" takes an absolute http(s) or file URL: got "${urls[0]}"` +
        (URL.canParse(`https://${urls[0]}`) ? ` (did you mean https://${urls[0]}?)` : ""),
    );
  }
  playground.url = urls[0];
  if (!(Number.isInteger(playground.port) && playground.port >= 0 && playground.port <= 65535)) {
    throw new CliUsageError(`--port takes a whole number 0-65535: got ${playground.port}`);
  }
  return playground;
}

/** The flags of `sdk run` other than agent options, as its help lists them. */
const RUN_FLAG_HELP =
  `  --concurrent N          run N files at once, each in its own browser context (default 1)
  --continue-on-error     keep running the other files after one fails
  --headed                show the browser window
  --keep-window           leave the browser open after the run (with --headed), until Ctrl+C
  --dotenv FILE           read environment variables from FILE (default: .env when present)
  --summary FILE          write a JSON summary of the run to FILE
  --untrusted             the files are not yours (a pull request's, a download): refuse, before
                          anything runs, shell, driver-request and javascript items, switches
                          that give the model more than the screen, the file's modelConfig, files
                          outside the working folder and variables not named with --env
  --env NAME              with --untrusted: a variable the files may read (repeat it)
  --record PATH           write each script's run as a script of instant actions with their
                          locators, which reruns without model calls: PATH is a .yaml file for
                          one script, else a folder (docs/yaml-and-cli.md, "Exported scripts")
  --config FILE           run the batch file FILE: the files it names, with its switches and
                          sections (docs/yaml-and-cli.md, "Batch files"); flags given outrank it.
                          A batch file given as the only path is read the same way
  --share-browser-context web files share one browser context (cookies, storage), in turn
  --retry N               run a failed file up to N more times before it counts as failed
  --bridge-port N         the extension bridge's port for web scripts with bridgeMode (default
                          3766); the pairing token comes from SDK_BRIDGE_TOKEN
${DEVICE_RUN_FLAG_HELP}
  --help, -h              this help`;

/** What the help of `sdk` and of `sdk run` say after the flags. */
function runHelpTail(): string {
  return `Agent options (spec 2.1), as kebab-case flags; they win over a script's "agent:" section:
${agentFlagHelpLines().join("\n")}

Booleans take --flag, --flag=false or --no-flag; JSON options take JSON text.
The model comes from the SDK_MODEL_* variables (or --model-config JSON). Every file and its
model settings are checked before Chromium starts: a file with an error fails at once.
Exit code: 0 when every file passed, 1 when any failed (an invalid script, YAML syntax
errors included, fails its file), 2 for a usage error.`;
}

/** The text of `sdk --help`, or of `sdk <topic> --help`. */
export function helpText(topic?: HelpTopic): string {
  if (topic === "playground") return playgroundHelpText();
  if (topic === "mcp") return mcpHelpText();
  if (topic === "devices") return devicesHelpText();
  if (topic === "run") {
    return `sdk run: run YAML scripts and Gherkin features in Chromium, one merged report

Usage:
  sdk run <file|dir|glob>... [flags]

Runs .yaml, .yml and .feature files (a folder is searched for them), each file in its own
browser context with its own agent and report, then prints a summary table and the merged
report's path (docs/yaml-and-cli.md).

Flags:
${RUN_FLAG_HELP}

${runHelpTail()}`;
  }
  return `sdk: run natural-language UI automation scripts

Usage:
  sdk run <file|dir|glob>... [flags]   run .yaml, .yml and .feature files (see --help of it)
  sdk playground <url> [flags]         try agent calls by hand on a live page (see --help of it)
  sdk mcp [--http] [--port N]          the platforms as MCP tools for AI assistants (docs/mcp.md)
  sdk devices [flags]                  list the devices for sdk run --devices (see --help of it)
  sdk --help | --version

Flags of "sdk run":
${RUN_FLAG_HELP}

${runHelpTail()}`;
}

function playgroundHelpText(): string {
  return `sdk playground: try agent calls by hand on a live page

Usage:
  sdk playground <url> [flags]

Opens <url> in Chromium and serves a local page that shows its live screen, runs aiAct,
aiTap, aiInput, aiQuery, aiAssert and aiLocate on it, and shows each result, its duration
and its report. Open the printed URL: its token is what lets a browser drive the page.
Ctrl+C stops it.

Flags:
  --port N                port to listen on; 0 for any free port (default ${DEFAULT_PLAYGROUND_PORT})
  --host HOST             host to listen on (default: $${PLAYGROUND_HOST_ENV}, else 127.0.0.1);
                          0.0.0.0 listens on every interface: trusted networks only
  --headed                show the browser window
  --dotenv FILE           read environment variables from FILE (default: .env when present)
  --<agent option>        every agent option flag of "sdk run" (sdk --help lists them)

The model comes from the SDK_MODEL_* variables (or --model-config JSON). Every file and its
model settings are checked before Chromium starts: a file with an error fails at once.
Exit code: 0 after Ctrl+C, 1 when it cannot start, 2 for a usage error.`;
}
