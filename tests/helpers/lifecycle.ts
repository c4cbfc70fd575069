/**
 * The lifecycle harness (issue 24): runs a platform's child script, ends it one of the ways a
 * program ends, then checks that no process it started is still alive (by pid and start time,
 * read from /proc while it ran) and that its report parses.
 *
 * A child script takes its way of ending from `SDK_TEST_END_BY` and, for the ways it ends itself,
 * the moment from `SDK_TEST_END_AFTER_MS` (see {@link endItself}); it prints `ready` once its agent
 * acts, and `report <path>` once its report exists. It runs actions until it is ended.
 *
 * @module
 */

import { readdir, readFile } from "node:fs/promises";
import { streamTags } from "../../core/report/_merge_read.ts";

/** The ways a script ends, as issue 24 lists them. */
export type EndBy =
  | "end-without-destroy"
  | "sigint"
  | "sigterm"
  | "deno-exit"
  | "process-exit"
  | "uncaught-error";

/** Every way, for loops over them. */
export const END_WAYS: readonly EndBy[] = [
  "end-without-destroy",
  "sigint",
  "sigterm",
  "deno-exit",
  "process-exit",
  "uncaught-error",
];

/** A process seen while the script ran: pid, start time (clock ticks since boot) and name. */
export interface SeenProcess {
  pid: number;
  start: string;
  name: string;
}

/** What {@link runAndEnd} saw. */
export interface EndedRun {
  /** The script's exit code (`null` when a signal ended it). */
  code: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** Everything it printed on stdout and stderr. */
  output: string;
  /** Its descendants seen while it ran. */
  descendants: SeenProcess[];
  /** Descendants still alive a moment after it ended (same pid and start time). */
  survivors: SeenProcess[];
  /** The report it printed, if any. */
  reportFile: string | undefined;
}

async function stat(pid: number): Promise<{ ppid: number; start: string; name: string } | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const name = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    // fields[0] is the state: a zombie is gone for this purpose (its parent has not reaped it).
    if (fields[0] === "Z") return null;
    return { ppid: Number(fields[1]), start: fields[19], name };
  } catch {
    return null;
  }
}

/** Whether `p` still runs (the same pid with the same start time, not a zombie). */
export async function stillRunning(p: SeenProcess): Promise<boolean> {
  return (await stat(p.pid))?.start === p.start;
}

/** Every process whose chain of parents reaches `root`. */
export async function descendantsOf(root: number): Promise<SeenProcess[]> {
  const table = new Map<number, { ppid: number; start: string; name: string }>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const s = await stat(Number(entry));
    if (s) table.set(Number(entry), s);
  }
  const found: SeenProcess[] = [];
  for (const [pid, s] of table) {
    let parent = s.ppid;
    for (let hops = 0; parent > 1 && hops < 64; hops++) {
      if (parent === root) {
        found.push({ pid, start: s.start, name: s.name });
        break;
      }
      parent = table.get(parent)?.ppid ?? 0;
    }
  }
  return found;
}

/** Options of {@link runAndEnd}. */
export interface RunAndEndOptions {
  /** The script and its arguments, run with `deno run -A`. */
  script: string;
  /** Arguments after the script. */
  args?: string[];
  /** Environment added to the test's own. */
  env?: Record<string, string>;
  /** How to end it. */
  endBy: EndBy;
  /** For the ways the test ends it (signals): how long after `ready`, ms. */
  afterReadyMs: number;
  /** Gives up (SIGKILL) after this long, ms; the run then fails the test. Default 60 000. */
  timeoutMs?: number;
}

/**
 * Runs a child script and ends it as told; records its descendants every 50 ms while it runs.
 *
 * @throws {Error} when it runs past `timeoutMs` (it is killed), naming the way and its output.
 */
export async function runAndEnd(options: RunAndEndOptions): Promise<EndedRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", options.script, ...(options.args ?? [])],
    env: {
      ...options.env,
      SDK_TEST_END_BY: options.endBy,
      SDK_TEST_END_AFTER_MS: String(options.afterReadyMs),
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const seen = new Map<string, SeenProcess>();
  let running = true;
  const watcher = (async () => {
    while (running) {
      for (const p of await descendantsOf(child.pid)) seen.set(`${p.pid}/${p.start}`, p);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  let output = "";
  let signalled = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs ?? 60_000);
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const bytes of stream) {
      output += decoder.decode(bytes, { stream: true });
      if (!signalled && /^ready$/m.test(output)) {
        signalled = true;
        if (options.endBy === "sigint" || options.endBy === "sigterm") {
          setTimeout(() => {
            try {
              child.kill(options.endBy === "sigint" ? "SIGINT" : "SIGTERM");
            } catch {
              // It ended already.
            }
          }, options.afterReadyMs);
        }
      }
    }
  };
  const [status] = await Promise.all([child.status, read(child.stdout), read(child.stderr)]);
  clearTimeout(timer);
  running = false;
  await watcher;
  if (timedOut) {
    throw new Error(
      `the script did not end by ${options.endBy} within ${options.timeoutMs ?? 60_000} ms:\n` +
        output,
    );
  }
  // Children killed at the end are reaped by init a moment later.
  let survivors: SeenProcess[] = [];
  for (let i = 0; i < 40; i++) {
    survivors = [];
    for (const p of seen.values()) {
      const now = await stat(p.pid);
      if (now && now.start === p.start) survivors.push(p);
    }
    if (survivors.length === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    code: status.code,
    signal: status.signal,
    output,
    descendants: [...seen.values()],
    survivors,
    reportFile: /^report (.+)$/m.exec(output)?.[1],
  };
}

/**
 * Reads a report file the way the merging tool does: its meta tag and every execution tag parse
 * as JSON.
 *
 * @returns the number of executions.
 * @throws {Error} when the file has no meta tag or a tag does not parse.
 */
export async function parseReport(file: string): Promise<number> {
  let meta = 0;
  let executions = 0;
  for await (const tag of streamTags(file)) {
    if (tag.kind === "meta") meta++;
    if (tag.kind === "execution") {
      JSON.parse(tag.body);
      executions++;
    }
  }
  if (meta !== 1) throw new Error(`${file} has ${meta} meta tags`);
  return executions;
}

/**
 * For a child script: ends the process the way `SDK_TEST_END_BY` says, after
 * `SDK_TEST_END_AFTER_MS`, for the ways a script ends itself (`deno-exit`, `process-exit`,
 * `uncaught-error`); `end-without-destroy` returns `true` once the time is up, so the script stops
 * its loop and returns without `destroy()`. Signals come from the test.
 *
 * @returns whether the script should stop acting now.
 */
export function endItself(startedAt: number): boolean {
  const by = Deno.env.get("SDK_TEST_END_BY") as EndBy | undefined;
  const after = Number(Deno.env.get("SDK_TEST_END_AFTER_MS") ?? "0");
  if (performance.now() - startedAt < after) return false;
  if (by === "deno-exit") Deno.exit(3);
  if (by === "process-exit") {
    (globalThis as unknown as { process: { exit(code: number): never } }).process.exit(4);
  }
  if (by === "uncaught-error") {
    setTimeout(() => {
      throw new Error("the script's uncaught error");
    });
    return true;
  }
  return by === "end-without-destroy";
}
