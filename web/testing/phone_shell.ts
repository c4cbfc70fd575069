/**
 * The phone shell of the device simulator kit: a small `sh` (quotes, backslashes, `;` `&&` `||`
 * `|`, redirections to `/dev/null`, files and `2>&1`, variable assignments before a command) over
 * a tiny in-memory file system. It runs the commands of the platform's table
 * ({@link ShellDevice.commands}: the platform's own and the toybox tools of `toybox.ts`), and the
 * user's overrides. Anything else answers like Android's `sh`, which HarmonyOS's answers the same
 * way: mksh's `/system/bin/sh: NAME: inaccessible or not found`, exit 127 (HarmonyOS's shell is
 * `/bin/sh`: {@link ShellDevice.shellPath}).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { VirtualPhone } from "./virtual_phone.ts";

/**
 * A phone's shell state beside the phone: its files and the platform's commands. A platform whose
 * commands need more state extends this type, and its commands get the extended device (`this`).
 * Such a device is not assignable to a plain `ShellDevice` (its commands take more), so what runs
 * on any platform's device is generic over it, as {@link runShell} is.
 */
export interface ShellDevice {
  /** The phone. */
  phone: VirtualPhone;
  /** Files, by absolute path ({@link resolvePath}). */
  files: Map<string, Uint8Array>;
  /** The platform's commands, by name (`/system/bin/NAME` runs `NAME` too). */
  commands: Readonly<Record<string, ShellCommand<this>>>;
  /** Commands added or replaced by the user, by name; `null` removes one of `commands`. */
  overrides?: Map<string, SimulatedShellCommand | null>;
  /** The shell's path, which its own messages start with. Default `/system/bin/sh` (Android). */
  shellPath?: string;
}

/** Where a command line writes. */
export interface ShellOutput {
  /** Writes to standard output; strings are written as UTF-8. */
  stdout(data: Uint8Array | string): void;
  /** Writes to standard error; strings are written as UTF-8. */
  stderr(data: Uint8Array | string): void;
  /** Resolves when the host closes the stream (kills the process); long-running commands end. */
  killed?: Promise<void>;
}

/** What a command of the platform's table gets besides its arguments and the device. */
export interface ShellCommandIo extends ShellOutput {
  /**
   * Standard input: the output of the command before it in a pipe, or a `<` file; empty
   * otherwise.
   */
  stdin: Uint8Array;
  /** Variables assigned before the command (`CLASSPATH=x app_process ...`), by name. */
  env: Record<string, string>;
}

/**
 * A command of a platform's shell: gets its arguments (quotes removed), its input and output,
 * and the device, and resolves its exit code (0 to 255). A rejection other than `exit` is a
 * failure of the simulator itself: the shell says it on stderr and the command exits 1.
 *
 * @typeParam D the device it runs on: {@link ShellDevice}, or a platform's extension of it.
 */
export type ShellCommand<D = ShellDevice> = (
  args: string[],
  io: ShellCommandIo,
  device: D,
) => Promise<number>;

/** What a user-supplied shell command gets besides its arguments. */
export interface SimulatedShellIo {
  /** Writes to standard output. */
  stdout(data: Uint8Array | string): void;
  /** Writes to standard error. */
  stderr(data: Uint8Array | string): void;
  /** Standard input (the output of the command before it in a pipe, or a `<` file). */
  stdin: Uint8Array;
  /** The virtual phone. */
  phone: VirtualPhone;
}

/**
 * A shell command supplied by the user (`AdbFrontOptions.shellCommands`): gets its arguments
 * (quotes removed) and returns its exit code.
 */
export type SimulatedShellCommand = (
  args: string[],
  io: SimulatedShellIo,
) => number | Promise<number>;

type Sink = (data: Uint8Array | string) => void;

const encoder = new TextEncoder();
const bytes = (data: Uint8Array | string): Uint8Array =>
  typeof data === "string" ? encoder.encode(data) : data;

// ---------------------------------------------------------------------------------------------
// Parsing

interface Redirect {
  fd: number;
  /** File path, or undefined for a duplication (`2>&1`). */
  target?: string;
  /** For duplications: the fd copied. */
  dup?: number;
  append: boolean;
}
interface SimpleCommand {
  argv: string[];
  redirects: Redirect[];
}
type Token = { word: string } | { op: string };

/**
 * Splits a command line into words and operators. Quotes and backslashes are removed as `sh`
 * does; `$` is kept literally (the shell expands no variables).
 *
 * @throws {SyntaxError} on an unterminated quote.
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const flush = () => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new SyntaxError("unterminated '");
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = "";
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1])) {
          j++;
        }
        text += line[j];
      }
      if (j >= line.length) throw new SyntaxError('unterminated "');
      word = (word ?? "") + text;
      i = j;
    } else if (c === "\\") {
      if (i + 1 < line.length) word = (word ?? "") + line[++i];
    } else if (c === " " || c === "\t" || c === "\n") {
      flush();
      if (c === "\n") tokens.push({ op: ";" });
    } else if (c === ";" || c === "|" || c === "&") {
      flush();
      const two = line.slice(i, i + 2);
      if (two === "&&" || two === "||") {
        tokens.push({ op: two });
        i++;
      } else if (c === "&" && line[i + 1] === ">") {
        tokens.push({ op: "&>" });
        i++;
      } else tokens.push({ op: c });
    } else if (c === ">" || c === "<") {
      // An fd number right before `>` belongs to the operator when it is a whole word.
      let fd = c === ">" ? 1 : 0;
      if (word !== undefined && /^\d$/.test(word)) {
        fd = Number(word);
        word = undefined;
      }
      flush();
      let op = c;
      if (line[i + 1] === ">") op += line[++i];
      if (line[i + 1] === "&") op += line[++i];
      tokens.push({ op: `${fd}${op}` });
    } else {
      word = (word ?? "") + c;
    }
  }
  flush();
  return tokens;
}

interface Pipeline {
  commands: SimpleCommand[];
  /** How it joins the previous pipeline: `;`, `&&` or `||`. */
  join: string;
}

function parse(tokens: Token[]): Pipeline[] {
  const pipelines: Pipeline[] = [];
  let pipeline: Pipeline = { commands: [], join: ";" };
  let command: SimpleCommand = { argv: [], redirects: [] };
  const endCommand = () => {
    if (command.argv.length > 0 || command.redirects.length > 0) pipeline.commands.push(command);
    command = { argv: [], redirects: [] };
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if ("word" in token) {
      command.argv.push(token.word);
      continue;
    }
    const { op } = token;
    if (op === "|") {
      endCommand();
    } else if (op === ";" || op === "&&" || op === "||" || op === "&") {
      endCommand();
      if (pipeline.commands.length > 0) pipelines.push(pipeline);
      else if (op !== ";" && op !== "&") throw new SyntaxError(`unexpected '${op}'`);
      pipeline = { commands: [], join: op === "&" ? ";" : op };
    } else {
      // Redirection: `N>`, `N>>`, `N>&`, `N<`, `&>`.
      const next = tokens[i + 1];
      if (!next || !("word" in next)) throw new SyntaxError(`no target after '${op}'`);
      i++;
      if (op === "&>") {
        command.redirects.push({ fd: 1, target: next.word, append: false });
        command.redirects.push({ fd: 2, dup: 1, append: false });
        continue;
      }
      const match = /^(\d)([<>])(>?)(&?)$/.exec(op)!;
      const fd = Number(match[1]);
      if (match[4]) {
        command.redirects.push({ fd, dup: Number(next.word), append: false });
      } else {
        command.redirects.push({ fd, target: next.word, append: match[3] === ">" });
      }
    }
  }
  endCommand();
  if (pipeline.commands.length > 0) pipelines.push(pipeline);
  return pipelines;
}

// ---------------------------------------------------------------------------------------------
// Running

/**
 * Runs a command line on a device and resolves its exit code (the last command's, as `sh` does).
 * Lists join with `;`, `&&` and `||`; `while LIST; do LIST; done` and `until` loop, until their
 * condition ends them or the host kills the shell ({@link ShellOutput.killed}).
 * A syntax error is said on stderr (exit 2); a command that fails inside the simulator is said on
 * stderr as `/system/bin/sh: simulator: MESSAGE` (exit 1) and the line goes on (the device's
 * {@link ShellDevice.shellPath} in place of `/system/bin/sh`). It never rejects
 * for the line's sake.
 *
 * @typeParam D the device: {@link ShellDevice}, or a platform's extension of it.
 * @param line the command line, as `sh -c` takes it.
 * @param device the device it runs on: its commands, overrides and files.
 * @param output where the output goes, as it is produced.
 */
export async function runShell<D extends ShellDevice>(
  line: string,
  device: D,
  output: ShellOutput,
): Promise<number> {
  const sh = device.shellPath ?? "/system/bin/sh";
  let items: Item[];
  try {
    items = parseItems(tokenize(line));
  } catch (error) {
    output.stderr(`${sh}: syntax error: ${(error as Error).message}\n`);
    return 2;
  }
  let killed = false;
  output.killed?.then(() => killed = true);
  try {
    return await runItems(items, device, output, () => killed);
  } catch (error) {
    if (error instanceof ShellExit) return error.code;
    throw error;
  }
}

/** A list item: a pipeline, or a `while` / `until` loop over two lists. */
type Item =
  | { kind: "pipeline"; pipeline: Pipeline; join: string }
  | { kind: "loop"; until: boolean; condition: Item[]; body: Item[]; join: string };

const CONTROL_OPS = new Set([";", "&&", "||", "&", "|"]);

/** Parses a list with `while LIST; do LIST; done` and `until ...` loops in it. */
function parseItems(tokens: Token[]): Item[] {
  const items: Item[] = [];
  const plain = (slice: Token[], join: string) => {
    let first = join;
    if (slice.length > 0 && "op" in slice[0] && slice[0].op !== "|") {
      first = slice[0].op === "&" ? ";" : slice[0].op;
      slice = slice.slice(1);
    }
    parse(slice).forEach((pipeline, i) =>
      items.push({ kind: "pipeline", pipeline, join: i === 0 ? first : pipeline.join })
    );
  };
  const isWord = (t: Token | undefined, word: string) =>
    t !== undefined && "word" in t && t.word === word;
  const atStart = (i: number) => {
    const previous = tokens[i - 1];
    return previous === undefined || ("op" in previous && CONTROL_OPS.has(previous.op));
  };
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (!(isWord(tokens[i], "while") || isWord(tokens[i], "until")) || !atStart(i)) continue;
    const before = tokens.slice(start, i);
    let join = ";";
    const last = before[before.length - 1];
    if (last && "op" in last) {
      if (last.op === "|") throw new SyntaxError("a loop in a pipe is not simulated");
      join = last.op === "&" ? ";" : last.op;
      before.pop();
    }
    if (before.length > 0) plain(before, ";");
    // The matching `do` and `done`, loops inside counted.
    let depth = 0;
    let doAt = -1;
    let doneAt = -1;
    for (let j = i + 1; j < tokens.length && doneAt < 0; j++) {
      if (!atStart(j)) continue;
      if (isWord(tokens[j], "while") || isWord(tokens[j], "until")) depth++;
      else if (isWord(tokens[j], "do") && depth === 0 && doAt < 0) doAt = j;
      else if (isWord(tokens[j], "done")) {
        if (depth === 0) doneAt = j;
        else depth--;
      }
    }
    if (doAt < 0 || doneAt < 0) {
      throw new SyntaxError(`'${(tokens[i] as { word: string }).word}' without do ... done`);
    }
    items.push({
      kind: "loop",
      until: isWord(tokens[i], "until"),
      condition: parseItems(tokens.slice(i + 1, doAt)),
      body: parseItems(tokens.slice(doAt + 1, doneAt)),
      join,
    });
    start = doneAt + 1;
    i = doneAt;
  }
  plain(tokens.slice(start), ";");
  return items;
}

async function runItems<D extends ShellDevice>(
  items: Item[],
  device: D,
  output: ShellOutput,
  killed: () => boolean,
): Promise<number> {
  const sh = device.shellPath ?? "/system/bin/sh";
  let status = 0;
  for (const item of items) {
    if (killed()) break;
    if (item.join === "&&" && status !== 0) continue;
    if (item.join === "||" && status === 0) continue;
    if (item.kind === "loop") {
      status = 0;
      // Loops run until their condition says otherwise, or the host kills the shell.
      while (!killed()) {
        const condition = await runItems(item.condition, device, output, killed);
        if ((condition === 0) === item.until || killed()) break;
        status = await runItems(item.body, device, output, killed);
      }
      continue;
    }
    try {
      status = await runPipeline(item.pipeline, device, output);
    } catch (error) {
      if (error instanceof ShellExit) throw error;
      // A failure of the simulator itself (say, the phone was closed): said on stderr, exit 1.
      output.stderr(`${sh}: simulator: ${(error as Error).message}\n`);
      status = 1;
    }
  }
  return status;
}

/** Thrown by `exit N`: ends the whole command line with exit code `code`. */
export class ShellExit extends Error {
  /** @param code the exit code of the command line. */
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

async function runPipeline<D extends ShellDevice>(
  pipeline: Pipeline,
  device: D,
  output: ShellOutput,
): Promise<number> {
  let stdin: Uint8Array = new Uint8Array(0);
  let status = 0;
  for (let i = 0; i < pipeline.commands.length; i++) {
    const last = i === pipeline.commands.length - 1;
    const captured: Uint8Array[] = [];
    const stdout: Sink = last ? output.stdout : (data) => captured.push(bytes(data));
    status = await runCommand(pipeline.commands[i], device, {
      stdout,
      stderr: output.stderr,
      killed: output.killed,
    }, stdin);
    stdin = Buffer.concat(captured);
  }
  return status;
}

async function runCommand<D extends ShellDevice>(
  command: SimpleCommand,
  device: D,
  output: ShellOutput,
  stdin: Uint8Array,
): Promise<number> {
  const sinks: Record<number, Sink> = { 1: output.stdout, 2: output.stderr };
  const pending: { path: string; chunks: Uint8Array[]; append: boolean }[] = [];
  for (const redirect of command.redirects) {
    if (redirect.dup !== undefined) {
      sinks[redirect.fd] = sinks[redirect.dup] ?? (() => {});
    } else if (redirect.fd === 0) {
      const file = device.files.get(resolvePath(redirect.target!));
      if (!file) {
        output.stderr(
          `${
            device.shellPath ?? "/system/bin/sh"
          }: ${redirect.target}: No such file or directory\n`,
        );
        return 1;
      }
      stdin = file;
    } else if (redirect.target === "/dev/null") {
      sinks[redirect.fd] = () => {};
    } else {
      const file = {
        path: resolvePath(redirect.target!),
        chunks: [] as Uint8Array[],
        append: redirect.append,
      };
      pending.push(file);
      sinks[redirect.fd] = (data) => file.chunks.push(bytes(data));
    }
  }
  let status: number;
  const argv = [...command.argv];
  const env: Record<string, string> = {};
  while (argv.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0])) {
    const assignment = argv.shift()!;
    const equals = assignment.indexOf("=");
    env[assignment.slice(0, equals)] = assignment.slice(equals + 1);
  }
  if (argv.length === 0) {
    status = 0;
  } else {
    const [name, ...args] = argv;
    const base = name.replace(/^\/(system\/)?bin\//, "");
    const override = device.overrides?.get(base);
    const program: ShellCommand<D> | undefined = override
      ? async (args, io, device) =>
        await override(args, {
          stdout: io.stdout,
          stderr: io.stderr,
          stdin: io.stdin,
          phone: device.phone,
        })
      : override === null
      ? undefined
      : device.commands[base];
    if (!program) {
      // mksh's words, Android's and HarmonyOS's shell.
      sinks[2](`${device.shellPath ?? "/system/bin/sh"}: ${name}: inaccessible or not found\n`);
      status = 127;
    } else {
      status = await program(
        args,
        { stdout: sinks[1], stderr: sinks[2], stdin, env, killed: output.killed },
        device,
      );
    }
  }
  for (const file of pending) {
    const before = file.append ? device.files.get(file.path) ?? new Uint8Array(0) : undefined;
    device.files.set(file.path, Buffer.concat([...(before ? [before] : []), ...file.chunks]));
  }
  return status;
}

/**
 * An absolute path as the device's files are keyed: a leading `/` added, `/storage/emulated/0`
 * as `/sdcard`, and no trailing slash (`"/"` stays).
 */
export function resolvePath(path: string): string {
  const absolute = path.startsWith("/") ? path : `/${path}`;
  return absolute.replace(/^\/storage\/emulated\/0(?=\/|$)/, "/sdcard").replace(/\/+$/, "") ||
    "/";
}
