/**
 * The Android shell of the adb front (private to `@sdk/web/testing`): a small `sh` (quotes,
 * backslashes, `;` `&&` `||` `|`, redirections to `/dev/null`, files and `2>&1`) and the device
 * commands an automation SDK runs (`input`, `screencap`, `wm`, `getprop`, `dumpsys`, `am`,
 * `monkey`, `pm`, `cmd`, `ime`, `settings`, and a few toybox tools), answered from the virtual
 * phone. Anything else answers like Android's `sh`: `/system/bin/sh: NAME: not found`, exit 127.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { BROWSER_PACKAGE, KEYCODE, LAUNCHER_PACKAGE, type VirtualPhone } from "./virtual_phone.ts";
import { type LocalSocketListener, runScrcpyServer, SCRCPY_MAIN } from "./_scrcpy_server.ts";

/** Device state the shell keeps beside the phone: properties, settings and a tiny file system. */
export interface ShellDevice {
  /** The phone. */
  phone: VirtualPhone;
  /** System properties (`getprop`). */
  properties: Map<string, string>;
  /** `settings` values, by `namespace/key`. */
  settings: Map<string, string>;
  /** Files, by absolute path. */
  files: Map<string, Uint8Array>;
  /** Commands added or replaced by the user; `null` removes a built-in one. */
  overrides?: Map<string, SimulatedShellCommand | null>;
  /** `localabstract:` sockets that processes listen on (the scrcpy server's), by name. */
  localSockets?: Map<string, LocalSocketListener>;
  /** In-band video resets of the running scrcpy servers. */
  videoResets?: Set<() => void>;
}

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

/** Where a command writes. */
export interface ShellOutput {
  /** Standard output. */
  stdout(data: Uint8Array | string): void;
  /** Standard error. */
  stderr(data: Uint8Array | string): void;
  /** Resolves when the host closes the stream (kills the process); long-running commands end. */
  killed?: Promise<void>;
}

type Sink = (data: Uint8Array | string) => void;
interface Io {
  out: Sink;
  err: Sink;
  stdin: Uint8Array;
  /** Variables assigned before the command (`CLASSPATH=x app_process ...`). */
  env?: Record<string, string>;
  /** Resolves when the host kills the process. */
  killed?: Promise<void>;
}
type Command = (args: string[], io: Io, device: ShellDevice) => Promise<number>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
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
 * Runs a command line and returns its exit code (the last command's, as `sh` does). Output goes
 * to `output` as it is produced.
 */
export async function runShell(
  line: string,
  device: ShellDevice,
  output: ShellOutput,
): Promise<number> {
  let pipelines: Pipeline[];
  try {
    pipelines = parse(tokenize(line));
  } catch (error) {
    output.stderr(`/system/bin/sh: syntax error: ${(error as Error).message}\n`);
    return 2;
  }
  let status = 0;
  for (const pipeline of pipelines) {
    if (pipeline.join === "&&" && status !== 0) continue;
    if (pipeline.join === "||" && status === 0) continue;
    try {
      status = await runPipeline(pipeline, device, output);
    } catch (error) {
      if (error instanceof ShellExit) return error.code;
      // A failure of the simulator itself (say, the phone was closed): said on stderr, exit 1.
      output.stderr(`/system/bin/sh: simulator: ${(error as Error).message}\n`);
      status = 1;
    }
  }
  return status;
}

class ShellExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

async function runPipeline(
  pipeline: Pipeline,
  device: ShellDevice,
  output: ShellOutput,
): Promise<number> {
  let stdin: Uint8Array = new Uint8Array(0);
  let status = 0;
  for (let i = 0; i < pipeline.commands.length; i++) {
    const last = i === pipeline.commands.length - 1;
    const captured: Uint8Array[] = [];
    const out: Sink = last ? output.stdout : (data) => captured.push(bytes(data));
    status = await runCommand(pipeline.commands[i], device, {
      out,
      err: output.stderr,
      stdin,
      killed: output.killed,
    });
    stdin = Buffer.concat(captured);
  }
  return status;
}

async function runCommand(command: SimpleCommand, device: ShellDevice, io: Io): Promise<number> {
  const sinks: Record<number, Sink> = { 1: io.out, 2: io.err };
  let stdin = io.stdin;
  const pending: { path: string; chunks: Uint8Array[]; append: boolean }[] = [];
  for (const redirect of command.redirects) {
    if (redirect.dup !== undefined) {
      sinks[redirect.fd] = sinks[redirect.dup] ?? (() => {});
    } else if (redirect.fd === 0) {
      const file = device.files.get(resolvePath(redirect.target!));
      if (!file) {
        io.err(`/system/bin/sh: ${redirect.target}: No such file or directory\n`);
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
    const base = name.replace(/^\/system\/bin\//, "");
    const override = device.overrides?.get(base);
    const program: Command | undefined = override
      ? async (args, io, device) =>
        await override(args, {
          stdout: io.out,
          stderr: io.err,
          stdin: io.stdin,
          phone: device.phone,
        })
      : override === null
      ? undefined
      : COMMANDS[base];
    if (!program) {
      sinks[2](`/system/bin/sh: ${name}: not found\n`);
      status = 127;
    } else {
      status = await program(
        args,
        { out: sinks[1], err: sinks[2], stdin, env, killed: io.killed },
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

/** An absolute path, with `/storage/emulated/0` as `/sdcard` and no trailing slash. */
export function resolvePath(path: string): string {
  const absolute = path.startsWith("/") ? path : `/${path}`;
  return absolute.replace(/^\/storage\/emulated\/0(?=\/|$)/, "/sdcard").replace(/\/+$/, "") ||
    "/";
}

// ---------------------------------------------------------------------------------------------
// Commands

const KEYCODE_NAMES: ReadonlyMap<string, number> = new Map<string, number>([
  ...Object.entries(KEYCODE),
  ["APP_SWITCH", 187],
  ...Array.from({ length: 10 }, (_, i) => [String(i), 7 + i] as [string, number]),
  ...Array.from(
    { length: 26 },
    (_, i) => [String.fromCharCode(65 + i), 29 + i] as [string, number],
  ),
]);

function parseKeyCode(name: string): number | undefined {
  if (/^\d+$/.test(name)) return Number(name);
  return KEYCODE_NAMES.get(name.toUpperCase().replace(/^KEYCODE_/, ""));
}

const INPUT_SOURCES = new Set([
  "keyboard",
  "mouse",
  "joystick",
  "touchnavigation",
  "touchpad",
  "trackball",
  "dpad",
  "stylus",
  "gamepad",
  "touchscreen",
  "rotaryencoder",
]);

const INPUT_USAGE = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\n" +
  "The commands and default sources are:\n" +
  "      text <string> (Default: touchscreen)\n" +
  "      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n" +
  "      tap <x> <y> (Default: touchscreen)\n" +
  "      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n" +
  "      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n" +
  "      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)\n";

function numbers(args: string[], count: number): number[] | undefined {
  if (args.length < count) return undefined;
  const values = args.slice(0, count).map(Number);
  return values.every(Number.isFinite) ? values : undefined;
}

const input: Command = async (args, io, { phone }) => {
  args = [...args];
  if (args.length > 0 && INPUT_SOURCES.has(args[0])) args.shift();
  if (args[0] === "-d") {
    const display = args[1];
    args.splice(0, 2);
    if (display !== "0" && display !== "-1") {
      io.err(`Error: display ${display} does not exist (the simulator has display 0 only)\n`);
      return 1;
    }
  }
  const [verb, ...rest] = args;
  const invalid = () => {
    io.err(`Error: Invalid arguments for command: ${verb}\n${INPUT_USAGE}`);
    return 1;
  };
  switch (verb) {
    case "tap": {
      const point = numbers(rest, 2);
      if (!point) return invalid();
      await phone.tap(point[0], point[1]);
      return 0;
    }
    case "swipe":
    case "draganddrop": {
      const line = numbers(rest, 4);
      if (!line) return invalid();
      const duration = rest[4] === undefined ? (verb === "swipe" ? 300 : 1000) : Number(rest[4]);
      if (!Number.isFinite(duration) || duration < 0) return invalid();
      const [x1, y1, x2, y2] = line;
      if (x1 === x2 && y1 === y2) await phone.longPress(x1, y1, duration);
      else await phone.swipe(x1, y1, x2, y2, duration);
      return 0;
    }
    case "text": {
      if (rest.length === 0) return invalid();
      // Only the first argument is typed; `%s` stands for a space (Android's InputShellCommand).
      const text = rest[0].replaceAll("%s", " ");
      // The virtual keyboard's key map has no events for non-ASCII characters: Android's `input
      // text` fails on them without typing anything.
      if (/[^\x20-\x7e\t\n]/.test(text)) {
        io.err(
          "Exception occurred while executing 'text':\n" +
            "java.lang.NullPointerException: Attempt to get length of null array\n" +
            "\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java)\n",
        );
        return 255;
      }
      await phone.inputText(text);
      return 0;
    }
    case "motionevent": {
      const action = rest[0]?.toLowerCase();
      const point = numbers(rest.slice(1), 2);
      if (!point || !["down", "move", "up", "cancel"].includes(action)) return invalid();
      await phone.touch(action as "down" | "move" | "up" | "cancel", point[0], point[1]);
      return 0;
    }
    case "keyevent":
    case "press": {
      const codes = rest.filter((arg) => !arg.startsWith("--"));
      if (verb === "press") codes.push("DPAD_CENTER");
      if (codes.length === 0) return invalid();
      for (const name of codes) {
        const code = name === "DPAD_CENTER" ? 23 : parseKeyCode(name);
        if (code === undefined) {
          io.err(`Error: Unknown keycode: ${name}\n`);
          return 1;
        }
        await phone.keyEvent(code);
      }
      return 0;
    }
    default:
      io.err(verb === undefined ? INPUT_USAGE : `Error: Unknown command: ${verb}\n${INPUT_USAGE}`);
      return 1;
  }
};

/** The screen as RGBA pixels, 4 bytes a pixel, rows top to bottom (physical pixels). */
export async function screenPixels(
  phone: VirtualPhone,
): Promise<{ width: number; height: number; rgba: Uint8Array }> {
  const decoded = PNG.sync.read(Buffer.from(await phone.screenshot()));
  return { width: decoded.width, height: decoded.height, rgba: decoded.data };
}

const screencap: Command = async (args, io, { phone, files }) => {
  let png = false;
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-p") png = true;
    else if (arg === "-d") {
      const display = args[++i];
      if (display !== "0") {
        io.err(`Display Id '${display}' is not valid.\n`);
        return 1;
      }
    } else if (arg === "-h") {
      io.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n");
      return 0;
    } else if (arg.startsWith("-")) {
      io.err(`usage: screencap [-hp] [-d display-id] [FILENAME]\n`);
      return 1;
    } else file = arg;
  }
  if (file?.endsWith(".png")) png = true;
  let data: Uint8Array;
  if (png) data = await phone.screenshot();
  else {
    // Raw: width, height, pixel format (1 = RGBA_8888), data space (0 = unknown), then pixels.
    const { width, height, rgba } = await screenPixels(phone);
    const header = Buffer.alloc(16);
    header.writeUInt32LE(width, 0);
    header.writeUInt32LE(height, 4);
    header.writeUInt32LE(1, 8);
    header.writeUInt32LE(0, 12);
    data = Buffer.concat([header, rgba]);
  }
  if (file) files.set(resolvePath(file), data);
  else io.out(data);
  return 0;
};

const wm: Command = (args, io, { phone }) => {
  const [verb, ...rest] = args;
  if (verb === "size" && rest.length === 0) {
    io.out(`Physical size: ${phone.width}x${phone.height}\n`);
    return Promise.resolve(0);
  }
  if (verb === "density" && rest.length === 0) {
    io.out(`Physical density: ${phone.densityDpi}\n`);
    return Promise.resolve(0);
  }
  if (verb === "size" || verb === "density") {
    io.err(`The simulator cannot override the display ${verb}.\n`);
    return Promise.resolve(1);
  }
  io.err(`Unknown command: ${verb ?? ""}\n`);
  return Promise.resolve(verb === undefined ? 0 : 255);
};

const getprop: Command = (args, io, { properties }) => {
  if (args.length === 0) {
    for (const [key, value] of [...properties].sort(([a], [b]) => a.localeCompare(b))) {
      io.out(`[${key}]: [${value}]\n`);
    }
  } else {
    io.out(`${properties.get(args[0]) ?? args[1] ?? ""}\n`);
  }
  return Promise.resolve(0);
};

/** `package/.Activity` when the activity is inside the package, else `package/full.Name`. */
function shortComponent(packageName: string, activity: string): string {
  return activity.startsWith(`${packageName}.`)
    ? `${packageName}/${activity.slice(packageName.length)}`
    : `${packageName}/${activity}`;
}

const dumpsys: Command = async (args, io, device) => {
  const { phone } = device;
  const { packageName, activity } = phone.foregroundApp();
  const component = shortComponent(packageName, activity);
  const full = `${packageName}/${activity}`;
  const task = 10 + Math.max(0, phone.packages().indexOf(packageName));
  const record = `ActivityRecord{5e1f2a7 u0 ${component} t${task}}`;
  const size = `${phone.width}x${phone.height}`;
  switch (args[0]) {
    case "window": {
      io.out(
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n" +
          `  Display: mDisplayId=0 rootTasks=1\n` +
          `    init=${size} ${phone.densityDpi}dpi cur=${size} app=${size} rng=${phone.width}x${phone.width}-${phone.height}x${phone.height}\n` +
          `    mDisplayRotation=ROTATION_0 mRotation=0\n` +
          `  mFocusedApp=${record}\n\n` +
          "WINDOW MANAGER WINDOWS (dumpsys window windows)\n" +
          `  Window #0 Window{8c1d3e2 u0 ${full}}:\n` +
          `    mDisplayId=0 rootTaskId=${task} mSession=Session{7f3a 1234:u0a10123} mClient=android.os.BinderProxy@1\n` +
          `  mCurrentFocus=Window{8c1d3e2 u0 ${full}}\n` +
          `  mFocusedApp=${record}\n`,
      );
      return 0;
    }
    case "activity": {
      if (args[1] && !["activities", "a", "top", "recents", "r"].includes(args[1])) {
        io.out(`No services match: ${args[1]}\n`);
        return 0;
      }
      let text = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n" +
        "Display #0 (activities from top to bottom):\n";
      for (const name of [packageName, ...phone.runningApps().filter((p) => p !== packageName)]) {
        text += `  * Task{${task} #${task} type=standard A=10123:${name} U=0 visible=${
          name === packageName
        }}\n`;
      }
      text += `    mResumedActivity: ${record}\n` +
        `  ResumedActivity: ${record}\n` +
        `  topResumedActivity=${record}\n`;
      io.out(text);
      return 0;
    }
    case "input_method": {
      const shown = await phone.keyboardShown();
      io.out(
        "Current Input Method Manager state:\n" +
          `  mCurMethodId=${device.settings.get("secure/default_input_method") ?? LATIN_IME}\n` +
          `  mInputShown=${shown}\n` +
          `  mServedInputConnection=${shown ? "active" : "null"}\n`,
      );
      return 0;
    }
    case "input": {
      io.out(
        "INPUT MANAGER (dumpsys input)\n\nInput Reader State:\n" +
          "  Device 3: virtual_touchscreen\n" +
          `    Viewport INTERNAL: displayId=0, orientation=0, deviceSize=[${phone.width}, ${phone.height}]\n` +
          "    Touch Input Mapper (mode - DIRECT):\n      SurfaceOrientation: 0\n",
      );
      return 0;
    }
    case "display": {
      io.out(
        "DISPLAY MANAGER (dumpsys display)\n" +
          `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0", ${phone.width} x ${phone.height}, ` +
          `density ${phone.densityDpi}, FLAG_DEFAULT_DISPLAY}\n` +
          "  mCurrentOrientation=0\n" +
          `  mBaseDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, real ${phone.width} x ${phone.height}, ` +
          `rotation 0, density ${phone.densityDpi}}\n`,
      );
      return 0;
    }
    case undefined:
      io.out(
        "Currently running services:\n  activity\n  display\n  input\n  input_method\n" +
          "  window\n",
      );
      return 0;
    default:
      io.err(`Can't find service: ${args[0]}\n`);
      return 0;
  }
};

const LATIN_IME = "com.android.inputmethod.latin/.LatinIME";

/** Splits `pkg/.Activity` or `pkg/full.Activity` into a package and a fully qualified name. */
function parseComponent(text: string): { packageName: string; activity?: string } {
  const slash = text.indexOf("/");
  if (slash < 0) return { packageName: text };
  const packageName = text.slice(0, slash);
  const name = text.slice(slash + 1);
  return { packageName, activity: name.startsWith(".") ? packageName + name : name };
}

function activityOf(device: ShellDevice, packageName: string): string | undefined {
  return device.phone.activityOf(packageName);
}

// Options of `am start` that take a value, and how many.
const AM_VALUE_OPTIONS: Readonly<Record<string, number>> = {
  "-a": 1,
  "-d": 1,
  "-t": 1,
  "-c": 1,
  "-n": 1,
  "-f": 1,
  "-p": 1,
  "-e": 2,
  "--es": 2,
  "--ei": 2,
  "--ez": 2,
  "--el": 2,
  "--ef": 2,
  "--eu": 2,
  "--esa": 2,
  "--user": 1,
  "--display": 1,
  "--windowingMode": 1,
  "--activityType": 1,
  "-R": 1,
  "-P": 1,
  "--start-profiler": 1,
  "--sampling": 1,
  "--receiver-permission": 1,
};

interface Intent {
  action?: string;
  data?: string;
  component?: string;
  packageName?: string;
  extras: Map<string, string>;
  flags: Set<string>;
}

function parseIntent(args: string[]): Intent {
  const intent: Intent = { extras: new Map(), flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const takes = AM_VALUE_OPTIONS[arg];
    if (takes === undefined) {
      if (arg.startsWith("-")) intent.flags.add(arg);
      else if (arg.includes("/")) intent.component = arg;
      else if (arg.includes(":")) intent.data = arg;
      else intent.packageName = arg;
      continue;
    }
    const values = args.slice(i + 1, i + 1 + takes);
    i += takes;
    if (arg === "-a") intent.action = values[0];
    else if (arg === "-d") intent.data = values[0];
    else if (arg === "-n") intent.component = values[0];
    else if (arg === "-p") intent.packageName = values[0];
    else if (takes === 2 && values.length === 2) intent.extras.set(values[0], values[1]);
  }
  return intent;
}

const am: Command = async (args, io, device) => {
  const { phone } = device;
  const [verb, ...rest] = args;
  switch (verb) {
    case "start":
    case "start-activity": {
      const intent = parseIntent(rest);
      const describe = [
        intent.action ? `act=${intent.action}` : "",
        intent.data ? `dat=${intent.data}` : "",
        intent.component ? `cmp=${intent.component}` : "",
        !intent.component && intent.packageName ? `pkg=${intent.packageName}` : "",
      ].filter(Boolean).join(" ");
      io.out(`Starting: Intent { ${describe} }\n`);
      const started = performance.now();
      let launched: string | undefined;
      if (intent.component || intent.packageName) {
        const { packageName, activity } = parseComponent(
          intent.component ?? intent.packageName!,
        );
        const known = activityOf(device, packageName);
        const activities = device.phone.activitiesOf(packageName);
        if (
          !known ||
          (activity && !activities.includes(activity) && packageName !== BROWSER_PACKAGE)
        ) {
          io.err(
            `Error type 3\nError: Activity class {${packageName}/${
              activity ?? "?"
            }} does not exist.\n`,
          );
          return 1;
        }
        if (intent.flags.has("-S")) await phone.stopApp(packageName);
        if (packageName === BROWSER_PACKAGE && intent.data) await phone.openUrl(intent.data);
        else if (packageName === LAUNCHER_PACKAGE) await phone.keyEvent(KEYCODE.HOME);
        else await phone.launchApp(packageName, activity);
        launched = shortComponent(packageName, activity ?? known);
      } else if (intent.data && /^https?:/i.test(intent.data)) {
        await phone.openUrl(intent.data);
        launched = shortComponent(
          BROWSER_PACKAGE,
          activityOf(device, BROWSER_PACKAGE) ?? `${BROWSER_PACKAGE}.Main`,
        );
      } else {
        io.err(`Error: Activity not started, unable to resolve Intent { ${describe} }\n`);
        return 1;
      }
      if (intent.flags.has("-W")) {
        const ms = Math.round(performance.now() - started);
        io.out(
          `Status: ok\nLaunchState: COLD\nActivity: ${launched}\nTotalTime: ${ms}\n` +
            `WaitTime: ${ms}\nComplete\n`,
        );
      }
      return 0;
    }
    case "force-stop":
    case "kill": {
      const name = rest.filter((arg) => !arg.startsWith("-")).pop();
      if (!name) {
        io.err(`Error: no package specified\n`);
        return 1;
      }
      await phone.stopApp(name);
      return 0;
    }
    case "broadcast": {
      const intent = parseIntent(rest);
      io.out(`Broadcasting: Intent { act=${intent.action ?? ""} flg=0x400000 }\n`);
      io.out("Broadcast completed: result=0\n");
      return 0;
    }
    default:
      io.err(`Unknown command: ${verb ?? ""}\n`);
      return 255;
  }
};

const monkey: Command = async (args, io, device) => {
  let packageName: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-p") packageName = args[++i];
  }
  for (const arg of args) io.out(`  bash arg: ${arg}\n`);
  if (!packageName || !activityOf(device, packageName)) {
    io.out("args: " + JSON.stringify(args) + "\n");
    io.err("** No activities found to run, monkey aborted.\n");
    return 252;
  }
  const started = performance.now();
  await device.phone.launchApp(packageName);
  const ms = Math.round(performance.now() - started);
  io.out(
    `Events injected: 1\n## Network stats: elapsed time=${ms}ms (0ms mobile, 0ms wifi, ` +
      `${ms}ms not connected)\n`,
  );
  return 0;
};

const pm: Command = (args, io, device) => {
  const [verb, ...rest] = args;
  const packages = device.phone.packages();
  if (verb === "list" && rest[0] === "packages") {
    const options = rest.slice(1).filter((arg) => arg.startsWith("-"));
    const filter = rest.slice(1).find((arg) => !arg.startsWith("-"));
    const system = new Set([LAUNCHER_PACKAGE, BROWSER_PACKAGE]);
    for (const name of packages) {
      if (options.includes("-3") && system.has(name)) continue;
      if (options.includes("-s") && !system.has(name)) continue;
      if (filter && !name.includes(filter)) continue;
      const path = options.includes("-f") ? `/data/app/${name}-1/base.apk=` : "";
      io.out(`package:${path}${name}\n`);
    }
    return Promise.resolve(0);
  }
  if (verb === "path") {
    if (!packages.includes(rest[0])) return Promise.resolve(1);
    io.out(`package:/data/app/${rest[0]}-1/base.apk\n`);
    return Promise.resolve(0);
  }
  if (verb === "clear") {
    return device.phone.stopApp(rest[0]).then(() => {
      io.out("Success\n");
      return 0;
    });
  }
  io.err(`Unknown command: ${verb ?? ""}\n`);
  return Promise.resolve(verb === undefined ? 0 : 255);
};

const cmd: Command = (args, io, device) => {
  const [service, ...rest] = args;
  if (service === "package") return pm(rest, io, device);
  if (service === "window") return wm(rest, io, device);
  if (service === "activity") return am(rest, io, device);
  if (service === "input") return input(rest, io, device);
  io.err(`cmd: Can't find service: ${service ?? ""}\n`);
  return Promise.resolve(20);
};

const ime: Command = (args, io, device) => {
  const [verb, ...rest] = args;
  const id = rest.find((arg) => !arg.startsWith("-"));
  switch (verb) {
    case "list":
      io.out(rest.includes("-s") ? `${LATIN_IME}\n` : `${LATIN_IME}:\n  mId=${LATIN_IME}\n`);
      return Promise.resolve(0);
    case "enable":
    case "disable":
      io.out(`Input method ${id}: ${verb === "enable" ? "already enabled" : "now disabled"}\n`);
      return Promise.resolve(0);
    case "set":
      if (id !== LATIN_IME) {
        io.err(`Unknown input method ${id} cannot be selected for user #0\n`);
        return Promise.resolve(255);
      }
      device.settings.set("secure/default_input_method", id);
      io.out(`Input method ${id} selected for user #0\n`);
      return Promise.resolve(0);
    case "reset":
      device.settings.set("secure/default_input_method", LATIN_IME);
      io.out(`Reset current and enabled IMEs for user #0\n  Selected: ${LATIN_IME}\n`);
      return Promise.resolve(0);
    default:
      io.err("ime <command>:\n  list [-a] [-s]\n  enable ID\n  disable ID\n  set ID\n  reset\n");
      return Promise.resolve(verb === undefined ? 0 : 255);
  }
};

const settings: Command = (args, io, device) => {
  const rest = args.filter((arg, i) => !(arg === "--user" || args[i - 1] === "--user"));
  const [verb, namespace, key, value] = rest;
  if (!["system", "secure", "global"].includes(namespace ?? "")) {
    io.err("Invalid namespace\n");
    return Promise.resolve(255);
  }
  if (verb === "get") {
    io.out(`${device.settings.get(`${namespace}/${key}`) ?? "null"}\n`);
  } else if (verb === "put") {
    device.settings.set(`${namespace}/${key}`, value ?? "");
  } else if (verb === "delete") {
    io.out(`Deleted ${device.settings.delete(`${namespace}/${key}`) ? 1 : 0} rows\n`);
  } else if (verb === "list") {
    for (const [k, v] of device.settings) {
      if (k.startsWith(`${namespace}/`)) io.out(`${k.slice(namespace.length + 1)}=${v}\n`);
    }
  } else {
    io.err(`Invalid command: ${verb}\n`);
    return Promise.resolve(255);
  }
  return Promise.resolve(0);
};

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

const date: Command = (args, io) => {
  const now = new Date();
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
  ];
  const offset = -now.getTimezoneOffset();
  const zone = `${offset >= 0 ? "+" : "-"}${pad(Math.floor(Math.abs(offset) / 60))}${
    pad(Math.abs(offset) % 60)
  }`;
  const values: Record<string, string> = {
    Y: String(now.getFullYear()),
    m: pad(now.getMonth() + 1),
    d: pad(now.getDate()),
    e: String(now.getDate()).padStart(2, " "),
    H: pad(now.getHours()),
    M: pad(now.getMinutes()),
    S: pad(now.getSeconds()),
    s: String(Math.floor(now.getTime() / 1000)),
    a: days[now.getDay()],
    b: months[now.getMonth()],
    z: zone,
    Z: offset === 0 ? "UTC" : `GMT${zone}`,
    N: pad(now.getMilliseconds() * 1e6, 9),
    "%": "%",
  };
  const format = args.find((arg) => arg.startsWith("+"))?.slice(1) ?? "%a %b %e %H:%M:%S %Z %Y";
  io.out(`${format.replace(/%(.)/g, (all, c: string) => values[c] ?? all)}\n`);
  return Promise.resolve(0);
};

function lines(data: Uint8Array): string[] {
  const text = decoder.decode(data);
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all;
}

const grep: Command = (args, io, device) => {
  const patterns: string[] = [];
  let flags = { invert: false, ignoreCase: false, only: false, count: false, quiet: false };
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-e") patterns.push(args[++i]);
    else if (/^-[EFivocq]+$/.test(arg)) {
      flags = {
        invert: flags.invert || arg.includes("v"),
        ignoreCase: flags.ignoreCase || arg.includes("i"),
        only: flags.only || arg.includes("o"),
        count: flags.count || arg.includes("c"),
        quiet: flags.quiet || arg.includes("q"),
      };
    } else operands.push(arg);
  }
  if (patterns.length === 0 && operands.length > 0) patterns.push(operands.shift()!);
  let source = io.stdin;
  if (operands[0]) {
    const file = device.files.get(resolvePath(operands[0]));
    if (!file) {
      io.err(`grep: ${operands[0]}: No such file or directory\n`);
      return Promise.resolve(2);
    }
    source = file;
  }
  let regex: RegExp;
  try {
    regex = new RegExp(patterns.join("|"), flags.ignoreCase ? "gi" : "g");
  } catch {
    io.err(`grep: bad regex\n`);
    return Promise.resolve(2);
  }
  let matched = 0;
  for (const line of lines(source)) {
    regex.lastIndex = 0;
    const hit = regex.test(line) !== flags.invert;
    if (!hit) continue;
    matched++;
    if (flags.quiet || flags.count) continue;
    if (flags.only && !flags.invert) {
      regex.lastIndex = 0;
      for (const match of line.matchAll(regex)) io.out(`${match[0]}\n`);
    } else io.out(`${line}\n`);
  }
  if (flags.count) io.out(`${matched}\n`);
  return Promise.resolve(matched > 0 ? 0 : 1);
};

const headOrTail = (tail: boolean): Command => (args, io) => {
  let count = 10;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-n") count = Number(args[++i]);
    else if (/^-\d+$/.test(args[i])) count = Number(args[i].slice(1));
  }
  const all = lines(io.stdin);
  for (const line of tail ? all.slice(Math.max(0, all.length - count)) : all.slice(0, count)) {
    io.out(`${line}\n`);
  }
  return Promise.resolve(0);
};

/** The yadb helper's main class (a dex pushed to /data/local/tmp/yadb and run by app_process). */
const YADB_MAIN = "com.ysbing.yadb.Main";

/**
 * `app_process -Djava.class.path=<dex> <dir> <class> ...` (or `CLASSPATH=<dex> app_process ...`):
 * only the yadb helper runs, once its file was pushed to the class path. Its options:
 * `-keyboard TEXT` commits any Unicode text through an input method (`~CLEAR~` clears the
 * focused field), `-screenshot PATH` writes a PNG, `-touch X Y MS` long-presses,
 * `-writeClipboard TEXT` and `-readClipboard`. The scrcpy server (`com.genymobile.scrcpy.Server`)
 * runs as `_scrcpy_server.ts` simulates it, once a file was pushed to its class path, until the
 * host kills it. Other classes fail with `ClassNotFoundException`.
 */
const appProcess: Command = async (args, io, device) => {
  const classPath = args.find((arg) => arg.startsWith("-Djava.class.path="))
    ?.slice("-Djava.class.path=".length) ?? io.env?.CLASSPATH;
  const rest = args.filter((arg) => !arg.startsWith("-D"));
  const mainClass = rest[1];
  if (!classPath || !mainClass) {
    io.err("Usage: app_process [java-options] cmd-dir start-class-name [options]\n");
    return 1;
  }
  const known = mainClass === YADB_MAIN || mainClass === SCRCPY_MAIN;
  if (!known || !device.files.has(resolvePath(classPath))) {
    io.err(
      `Exception in thread "main" java.lang.ClassNotFoundException: ${mainClass}\n` +
        (known ? "" : `(the simulator runs only the yadb helper and the scrcpy server)\n`),
    );
    return 1;
  }
  if (mainClass === SCRCPY_MAIN) {
    device.localSockets ??= new Map();
    device.videoResets ??= new Set();
    return await runScrcpyServer(rest.slice(2), {
      phone: device.phone,
      localSockets: device.localSockets,
      videoResets: device.videoResets,
      out: (text) => io.out(text),
      err: (text) => io.err(text),
      killed: io.killed ?? new Promise(() => {}),
    });
  }
  const [option, ...values] = rest.slice(2);
  const { phone } = device;
  if (option === "-keyboard" && values[0] !== undefined) {
    if (values[0] === "~CLEAR~") await phone.clearText();
    else await phone.commitText(values[0]);
    return 0;
  }
  if (option === "-screenshot" && values[0] !== undefined) {
    device.files.set(resolvePath(values[0]), await phone.screenshot());
    return 0;
  }
  if (option === "-touch") {
    const point = numbers(values, 3);
    if (!point) return invalidYadb(io, option);
    await phone.longPress(point[0], point[1], point[2]);
    return 0;
  }
  if (option === "-writeClipboard" && values[0] !== undefined) {
    device.settings.set("clipboard", values[0]);
    return 0;
  }
  if (option === "-readClipboard") {
    io.out(`${device.settings.get("clipboard") ?? ""}\n`);
    return 0;
  }
  return invalidYadb(io, option);
};

function invalidYadb(io: Io, option: string | undefined): number {
  io.err(
    `yadb: the simulator supports -keyboard TEXT, -screenshot PATH, -touch X Y MS, ` +
      `-writeClipboard TEXT and -readClipboard, not ${option ?? "no option"} as given\n`,
  );
  return 1;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  input,
  app_process: appProcess,
  screencap,
  wm,
  getprop,
  dumpsys,
  am,
  monkey,
  pm,
  cmd,
  ime,
  settings,
  date,
  grep,
  head: headOrTail(false),
  tail: headOrTail(true),
  echo: (args, io) => {
    const newline = args[0] !== "-n";
    io.out(`${(newline ? args : args.slice(1)).join(" ")}${newline ? "\n" : ""}`);
    return Promise.resolve(0);
  },
  true: () => Promise.resolve(0),
  false: () => Promise.resolve(1),
  exit: (args) => Promise.reject(new ShellExit(Number(args[0] ?? 0) & 0xff)),
  sleep: async (args) => {
    await new Promise((resolve) => setTimeout(resolve, Number(args[0] ?? 0) * 1000));
    return 0;
  },
  id: (_args, io) => {
    io.out("uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n");
    return Promise.resolve(0);
  },
  whoami: (_args, io) => {
    io.out("shell\n");
    return Promise.resolve(0);
  },
  wc: (args, io) => {
    const count = lines(io.stdin).length;
    io.out(args.includes("-l") ? `${count}\n` : `${count} 0 ${io.stdin.length}\n`);
    return Promise.resolve(0);
  },
  sh: (args, io, device) => {
    if (args[0] !== "-c" || args[1] === undefined) {
      io.err("/system/bin/sh: only 'sh -c COMMAND' is simulated\n");
      return Promise.resolve(2);
    }
    return runShell(args[1], device, { stdout: io.out, stderr: io.err });
  },
  ls: (args, io, { files }) => {
    const paths = args.filter((arg) => !arg.startsWith("-"));
    let status = 0;
    for (const path of paths.length > 0 ? paths : ["/"]) {
      const absolute = resolvePath(path);
      if (files.has(absolute)) {
        io.out(`${path}\n`);
        continue;
      }
      const prefix = absolute === "/" ? "/" : `${absolute}/`;
      const children = new Set<string>();
      for (const name of files.keys()) {
        if (name.startsWith(prefix)) children.add(name.slice(prefix.length).split("/")[0]);
      }
      if (children.size === 0 && !["/", "/sdcard", "/data/local/tmp"].includes(absolute)) {
        io.err(`ls: ${path}: No such file or directory\n`);
        status = 1;
      } else for (const child of [...children].sort()) io.out(`${child}\n`);
    }
    return Promise.resolve(status);
  },
  cat: (args, io, { files }) => {
    if (args.length === 0) io.out(io.stdin);
    for (const path of args) {
      const file = files.get(resolvePath(path));
      if (!file) {
        io.err(`cat: ${path}: No such file or directory\n`);
        return Promise.resolve(1);
      }
      io.out(file);
    }
    return Promise.resolve(0);
  },
  rm: (args, io, { files }) => {
    const force = args.some((arg) => /^-\w*f/.test(arg));
    for (const path of args.filter((arg) => !arg.startsWith("-"))) {
      const absolute = resolvePath(path);
      let found = files.delete(absolute);
      for (const name of [...files.keys()]) {
        if (name.startsWith(`${absolute}/`)) found = files.delete(name) || found;
      }
      if (!found && !force) {
        io.err(`rm: ${path}: No such file or directory\n`);
        return Promise.resolve(1);
      }
    }
    return Promise.resolve(0);
  },
  mkdir: () => Promise.resolve(0),
  chmod: () => Promise.resolve(0),
  touch: (args, _io, { files }) => {
    for (const path of args.filter((arg) => !arg.startsWith("-"))) {
      const absolute = resolvePath(path);
      if (!files.has(absolute)) files.set(absolute, new Uint8Array(0));
    }
    return Promise.resolve(0);
  },
};

/** Names of the commands the simulated shell knows. */
export const SHELL_COMMANDS: readonly string[] = Object.keys(COMMANDS);
