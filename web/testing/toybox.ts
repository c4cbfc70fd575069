/**
 * The toybox tools of the phone shell: the ones both Android's and HarmonyOS's shells have, to
 * the extent that the pipelines of automation tools need them (`dumpsys window | grep
 * mCurrentFocus`). Files are the device's in-memory files.
 *
 * @module
 */

import { resolvePath, runShell, type ShellCommand, ShellExit } from "./phone_shell.ts";
import { date } from "./_toybox_date.ts";

const decoder = new TextDecoder();

function lines(data: Uint8Array): string[] {
  const text = decoder.decode(data);
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all;
}

const grep: ShellCommand = (args, io, device) => {
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
      io.stderr(`grep: ${operands[0]}: No such file or directory\n`);
      return Promise.resolve(2);
    }
    source = file;
  }
  let regex: RegExp;
  try {
    regex = new RegExp(patterns.join("|"), flags.ignoreCase ? "gi" : "g");
  } catch {
    io.stderr(`grep: bad regex\n`);
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
      for (const match of line.matchAll(regex)) io.stdout(`${match[0]}\n`);
    } else io.stdout(`${line}\n`);
  }
  if (flags.count) io.stdout(`${matched}\n`);
  return Promise.resolve(matched > 0 ? 0 : 1);
};

const headOrTail = (tail: boolean): ShellCommand => (args, io) => {
  let count = 10;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-n") count = Number(args[++i]);
    else if (/^-\d+$/.test(args[i])) count = Number(args[i].slice(1));
  }
  const all = lines(io.stdin);
  for (const line of tail ? all.slice(Math.max(0, all.length - count)) : all.slice(0, count)) {
    io.stdout(`${line}\n`);
  }
  return Promise.resolve(0);
};

/**
 * The toybox tools, by name, for a platform's command table: `echo [-n]`, `true`, `false`,
 * `exit [N]`, `sleep SECONDS`, `id`, `whoami`, `wc [-l]`, `sh -c LINE`, `ls`, `cat`, `rm [-f]`,
 * `mkdir`, `chmod`, `touch`, `grep [-e PATTERN] [-Eivocq]`, `head`/`tail [-n N | -N]` and
 * `date [-u] [-I[RES]] [-d @SECONDS] [+FORMAT]` (strftime's conversions and toybox's `%N`,
 * `%3N`, `%:z`). Paths are resolved with {@link resolvePath}.
 */
export const TOYBOX_COMMANDS: Readonly<Record<string, ShellCommand>> = {
  date,
  grep,
  head: headOrTail(false),
  tail: headOrTail(true),
  echo: (args, io) => {
    const newline = args[0] !== "-n";
    io.stdout(`${(newline ? args : args.slice(1)).join(" ")}${newline ? "\n" : ""}`);
    return Promise.resolve(0);
  },
  true: () => Promise.resolve(0),
  false: () => Promise.resolve(1),
  exit: (args) => Promise.reject(new ShellExit(Number(args[0] ?? 0) & 0xff)),
  sleep: async (args, io) => {
    // Ends early when the host kills the shell.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise((resolve) => timer = setTimeout(resolve, Number(args[0] ?? 0) * 1000)),
      io.killed ?? new Promise(() => {}),
    ]);
    clearTimeout(timer);
    return 0;
  },
  id: (_args, io) => {
    io.stdout("uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n");
    return Promise.resolve(0);
  },
  whoami: (_args, io) => {
    io.stdout("shell\n");
    return Promise.resolve(0);
  },
  wc: (args, io) => {
    const count = lines(io.stdin).length;
    io.stdout(args.includes("-l") ? `${count}\n` : `${count} 0 ${io.stdin.length}\n`);
    return Promise.resolve(0);
  },
  sh: (args, io, device) => {
    if (args[0] !== "-c" || args[1] === undefined) {
      io.stderr(`${device.shellPath ?? "/system/bin/sh"}: only 'sh -c COMMAND' is simulated\n`);
      return Promise.resolve(2);
    }
    return runShell(args[1], device, { stdout: io.stdout, stderr: io.stderr });
  },
  ls: (args, io, { files }) => {
    const paths = args.filter((arg) => !arg.startsWith("-"));
    let status = 0;
    for (const path of paths.length > 0 ? paths : ["/"]) {
      const absolute = resolvePath(path);
      if (files.has(absolute)) {
        io.stdout(`${path}\n`);
        continue;
      }
      const prefix = absolute === "/" ? "/" : `${absolute}/`;
      const children = new Set<string>();
      for (const name of files.keys()) {
        if (name.startsWith(prefix)) children.add(name.slice(prefix.length).split("/")[0]);
      }
      if (children.size === 0 && !["/", "/sdcard", "/data/local/tmp"].includes(absolute)) {
        io.stderr(`ls: ${path}: No such file or directory\n`);
        status = 1;
      } else for (const child of [...children].sort()) io.stdout(`${child}\n`);
    }
    return Promise.resolve(status);
  },
  cat: (args, io, { files }) => {
    if (args.length === 0) io.stdout(io.stdin);
    for (const path of args) {
      const file = files.get(resolvePath(path));
      if (!file) {
        io.stderr(`cat: ${path}: No such file or directory\n`);
        return Promise.resolve(1);
      }
      io.stdout(file);
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
        io.stderr(`rm: ${path}: No such file or directory\n`);
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
