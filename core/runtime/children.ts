/**
 * The processes the SDK starts (Xvfb, xfreerdp, the nut-js host, ffmpeg, hdc) end with the
 * process that started them, however it ends, and never keep it alive by themselves:
 *
 * - {@link adoptChild} unrefs a child and its pipes, so a script that ends without `destroy()`
 *   exits; its device calls hold the process open meanwhile ({@link holdOpen});
 * - the process's end kills every adopted child still running: a normal end, `process.exit`,
 *   `Deno.exit`, an uncaught error or unhandled rejection, and SIGINT, SIGTERM or SIGHUP. On a
 *   signal no one else listens to, the SDK kills its children and exits with 128 + the signal's
 *   number, as the default action would; where the program (or Playwright) listens itself, the
 *   SDK leaves the exit to it, and kills the children when the process does exit.
 *
 * Only reached where child processes exist (Deno, Node); nothing here runs in a browser page.
 *
 * @module
 */

/** What the SDK needs of a spawned child (`node:child_process`'s `ChildProcess`). */
export interface AdoptableChild {
  /** Its process id; undefined when spawning failed. */
  readonly pid?: number;
  /** Its exit code once it exited, else `null`. */
  readonly exitCode: number | null;
  /** The signal that ended it, else `null`. */
  readonly signalCode: string | null;
  /** Lets the parent exit while it runs. */
  unref(): void;
  /** Calls `listener` once when it exits. */
  once(event: "exit", listener: () => void): unknown;
  /** Its pipes, when it has them (unref'd when they can be). */
  readonly stdin?: unknown;
  /** Its pipes, when it has them. */
  readonly stdout?: unknown;
  /** Its pipes, when it has them. */
  readonly stderr?: unknown;
}

/** Options of {@link adoptChild}. */
export interface AdoptChildOptions {
  /**
   * The child leads its own process group (spawned with `detached: true`): the whole group is
   * killed, so its own children (a session under Xvfb) end too. Default `false`.
   */
  processGroup?: boolean;
}

interface ProcessLike {
  readonly pid: number;
  kill(pid: number, signal?: string): boolean;
  exit(code?: number): never;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  listenerCount(event: string): number;
}

const SIGNALS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

const adopted = new Map<AdoptableChild, boolean>();

function processObject(): ProcessLike | undefined {
  return (globalThis as unknown as { process?: ProcessLike }).process;
}

function alive(child: AdoptableChild): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/** What {@link onProcessEnd} registered and is still due. */
const endCleanups = new Set<() => void>();

/** Ends the adopted children, then runs the cleanups due; synchronous, once per item. */
function endAll(): void {
  killAdopted();
  for (const cleanup of endCleanups) {
    try {
      cleanup();
    } catch {
      // A cleanup that fails leaves the others to run.
    }
  }
  endCleanups.clear();
}

/** Sends SIGTERM to every adopted child (or its group) still running; synchronous. */
function killAdopted(): void {
  const proc = processObject();
  for (const [child, group] of adopted) {
    if (!alive(child)) continue;
    try {
      proc?.kill(group ? -child.pid! : child.pid!, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  adopted.clear();
}

function onSignal(signal: string): void {
  const proc = processObject()!;
  // Someone else listens (the program, Playwright): it decides when the process ends, and the
  // exit hooks below end the children then.
  if (proc.listenerCount(signal) > 1) return;
  endAll();
  proc.exit(128 + SIGNALS[signal]);
}

const signalListeners = new Map<string, () => void>(
  Object.keys(SIGNALS).map((signal) => [signal, () => onSignal(signal)]),
);

let exitHooked = false;
let signalsHooked = false;

function hook(): void {
  const proc = processObject();
  if (!signalsHooked) {
    signalsHooked = true;
    for (const [signal, listener] of signalListeners) proc?.on(signal, listener);
  }
  if (exitHooked) return;
  exitHooked = true;
  proc?.on("exit", endAll);
  // Deno: Deno.exit() dispatches `unload` but not the process's `exit`; an uncaught error or
  // rejection ends the process with neither. The listeners leave the default action alone.
  const target = globalThis as unknown as {
    Deno?: unknown;
    addEventListener?: (type: string, listener: () => void) => void;
  };
  if (target.Deno && target.addEventListener) {
    for (const type of ["unload", "error", "unhandledrejection"]) {
      target.addEventListener(type, endAll);
    }
  }
}

/** Without children or cleanups due, the signals get their default actions back. */
function unhookSignals(): void {
  if (!signalsHooked || adopted.size > 0 || endCleanups.size > 0) return;
  signalsHooked = false;
  const proc = processObject();
  for (const [signal, listener] of signalListeners) proc?.off(signal, listener);
}

/**
 * Ties a child the SDK spawned to this process: it no longer keeps the process alive, and it is
 * killed (SIGTERM, or its whole group with `processGroup`) when the process ends for any reason
 * while it still runs. Call {@link holdOpen} around calls that wait on it.
 *
 * @param child the spawned child; a child that failed to spawn is ignored.
 * @param options see {@link AdoptChildOptions}.
 */
export function adoptChild(child: AdoptableChild, options: AdoptChildOptions = {}): void {
  if (child.pid === undefined) return;
  hook();
  adopted.set(child, options.processGroup ?? false);
  child.once("exit", () => {
    adopted.delete(child);
    unhookSignals();
  });
  child.unref();
  for (const pipe of [child.stdin, child.stdout, child.stderr]) {
    (pipe as { unref?: () => void } | null | undefined)?.unref?.();
  }
}

/**
 * Runs `cleanup` (synchronous) when the process ends, however the adopted children see it end
 * (see {@link adoptChild}): for what the SDK leaves on disk, such as a private folder. A SIGKILL
 * runs nothing.
 *
 * @param cleanup runs once, after the children are ended; what it throws is ignored.
 * @returns takes `cleanup` back (call it once the thing is cleaned up by itself).
 */
export function onProcessEnd(cleanup: () => void): () => void {
  hook();
  endCleanups.add(cleanup);
  return () => {
    endCleanups.delete(cleanup);
    unhookSignals();
  };
}

/** The pids of the adopted children still running (for tests and diagnostics). */
export function adoptedChildPids(): number[] {
  return [...adopted.keys()].filter(alive).map((child) => child.pid!);
}

let holds = 0;
let holdTimer: ReturnType<typeof setInterval> | undefined;

/**
 * Keeps the process alive until `work` settles: the SDK's own children and connections do not
 * (see {@link adoptChild}), so a call that waits on them holds the process open meanwhile.
 *
 * @param work the pending call.
 * @returns what `work` resolves to.
 * @throws what `work` rejects with.
 */
export async function holdOpen<T>(work: Promise<T>): Promise<T> {
  if (holds++ === 0) holdTimer = setInterval(() => {}, 1 << 30);
  try {
    return await work;
  } finally {
    if (--holds === 0) {
      clearInterval(holdTimer);
      holdTimer = undefined;
    }
  }
}

/**
 * What every child the SDK starts may see of this process's environment: where programs are, the
 * user and home, the locale, the temporary folder and the time zone.
 */
export const BASE_CHILD_ENV: readonly (string | RegExp)[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  /^LC_[A-Z]+$/,
  "TMPDIR",
  "TZ",
];

/**
 * What no pattern of {@link childEnv} passes: a name that holds a key, a password, a token, a
 * secret, a credential, auth or signing material anywhere (`ANDROID_KEYSTORE_PASS`,
 * `OHOS_SIGN_PWD`, `XDG_..._TOKEN`). A tool that needs such a variable names it exactly.
 */
const SECRET_LOOKING_NAME: RegExp = /KEY|PASS|PWD|TOKEN|SECRET|CRED|AUTH|SIGN/i;

/**
 * The environment of a child the SDK starts: only the variables `allow` names (besides
 * {@link BASE_CHILD_ENV}), so the SDK's model settings and keys (`SDK_MODEL_API_KEY`, ...) and
 * anything else of the program stay home, then `set` on top. A variable whose name looks secret
 * ({@link SECRET_LOOKING_NAME}) is never passed by a pattern, only by its exact name; the tools
 * that outlive a run (the adb server) and the desktop helpers are given exact names only.
 *
 * @param allow variable names, or patterns of names, the tool needs (e.g. `"DISPLAY"`,
 * `/^ANDROID_/`).
 * @param set variables to set for the child, e.g. `{ DISPLAY: ":99" }`.
 * @returns a new environment object for `spawn`'s `env`.
 */
export function childEnv(
  allow: readonly (string | RegExp)[] = [],
  set: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const source =
    (globalThis as unknown as { process?: { env: Record<string, string | undefined> } })
      .process?.env ?? {};
  const rules = [...BASE_CHILD_ENV, ...allow];
  const secret = SECRET_LOOKING_NAME;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const allowed = rules.some((rule) =>
      typeof rule === "string" ? rule === name : rule.test(name) && !secret.test(name)
    );
    if (allowed) env[name] = value;
  }
  return { ...env, ...set };
}
