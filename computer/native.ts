/**
 * The desktop's one transport port (DESIGN "Seams"): mouse, keyboard, clipboard and screen
 * capture over `@nut-tree-fork/nut-js`, an optional peer. nut-js runs in a child process per
 * device (`native_host.ts`, see there why and where it looks for nut-js), started only after an
 * X server answered at the display: nut-js crashes a process that has no display.
 *
 * @module
 */

import { execFile, spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import {
  adoptChild,
  childEnv,
  ConnectionError,
  holdOpen,
  MissingDependencyError,
  ToolError,
} from "@sdk/core";
import { confirmX11Display, x11ClientEnv } from "./display.ts";
import { lastMeaningfulLine } from "./tools.ts";

/** A mouse button. */
export type MouseButton = "left" | "right" | "middle";

/** A rectangle on the X screen, physical pixels. */
export interface ScreenRegion {
  /** Left edge. */
  x: number;
  /** Top edge. */
  y: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/** What the desktop device needs from the native input library. Points in physical pixels. */
export interface NativeInput {
  /** Size of the whole X screen. */
  screenSize(): Promise<{ width: number; height: number }>;
  /** `region` (the whole screen when left out) as an opaque PNG, base64. */
  grabPng(region?: ScreenRegion): Promise<string>;
  /** Moves the pointer. */
  move(x: number, y: number): Promise<void>;
  /** Presses or releases `button` where the pointer is. */
  button(button: MouseButton, down: boolean): Promise<void>;
  /** Clicks `button` where the pointer is (`count` 2: a double click). */
  click(button: MouseButton, count: 1 | 2): Promise<void>;
  /** Turns the wheel by whole clicks: `dy` > 0 reveals content below, `dx` > 0 to the right. */
  wheel(dx: number, dy: number): Promise<void>;
  /** Presses (`down`) or releases keys, by nut-js `Key` member name, in order. */
  keys(names: readonly string[], down: boolean): Promise<void>;
  /** Types printable ASCII with the library's own key mapping. */
  typeText(text: string): Promise<void>;
  /** Puts `text` on the clipboard. */
  setClipboard(text: string): Promise<void>;
  /** Whether every pixel of `region` (the whole screen when left out) is black. */
  isBlack(region?: ScreenRegion): Promise<boolean>;
  /** Ends the host process (and with it the X connection). Safe to call twice. */
  close(): Promise<void>;
}

/** How to get nut-js, named when it cannot load. */
export const INSTALL_NUT_JS: string =
  'npm install @nut-tree-fork/nut-js (Deno: map "@nut-tree-fork/nut-js" to ' +
  '"npm:@nut-tree-fork/nut-js@^4.2.6" in the import map, or `npm install --prefix <dir> ' +
  "@nut-tree-fork/nut-js` and set SDK_NUT_JS_DIR=<dir>); under Linux it needs libXtst " +
  "(apt-get install libxtst6)";

/**
 * What the nut-js host needs of the environment besides the base variables, by exact names: where
 * nut-js is (`SDK_NUT_JS_DIR`, `NODE_PATH`), Deno's cache (`DENO_DIR`), and its display.
 */
export const HOST_ENV: readonly string[] = ["SDK_NUT_JS_DIR", "DENO_DIR", "NODE_PATH"];

function hostCommand(...extra: string[]): { file: string; args: string[] } {
  const url = new URL(import.meta.url);
  const ext = url.pathname.endsWith(".ts") ? ".ts" : ".js";
  const host = new URL(`./native_host${ext}`, url);
  const deno = "Deno" in globalThis;
  return deno
    ? { file: process.execPath, args: ["run", "--allow-all", "--quiet", host.href, ...extra] }
    : { file: process.execPath, args: [decodeURIComponent(host.pathname), ...extra] };
}

/**
 * Whether the host can load nut-js here, without touching a display (`native_host --probe`).
 *
 * @returns where nut-js was loaded from, or the error that kept it from loading.
 */
export function probeNutJs(): Promise<{ from?: string; error?: string }> {
  const { file, args } = hostCommand("--probe");
  return holdOpen(
    new Promise((resolve) => {
      // Ended with this process, like the device's own host.
      adoptChild(execFile(file, args, { timeout: 60_000, env: childEnv(HOST_ENV) }, (e, stdout) => {
        const last = String(stdout).trim().split("\n").at(-1) ?? "";
        try {
          const message = JSON.parse(last) as { ready?: boolean; from?: string; error?: string };
          resolve(message.ready ? { from: message.from } : { error: message.error });
        } catch {
          resolve({ error: e?.message ?? "the nut-js probe printed nothing" });
        }
      }));
    }),
  );
}

/** Whether an X server still answers at `display`. */
async function xAnswers(display: string | undefined): Promise<boolean> {
  try {
    await confirmX11Display(display);
    return true;
  } catch {
    return false;
  }
}

/** Xlib's words when its server went away under the process. */
const X_GONE = /XIO: +fatal IO error|X connection to \S+ broken|Connection to X server lost/i;

/**
 * Why the host ended, as the error its pending and later calls reject with: a
 * `ConnectionError` (`lost`) when the X server went away, else a `ToolError`; both name the
 * exit code or signal and the host's last meaningful line of error output.
 */
async function hostEnded(
  display: string | undefined,
  code: number | null,
  signal: string | null,
  stderr: string,
): Promise<Error> {
  // Xlib's fatal error names the request that failed; the lines after it are its details.
  const xError = /X Error of failed request:.*/.exec(stderr)?.[0].replace(/\s+/g, " ");
  const said = xError ?? lastMeaningfulLine(stderr);
  const ended = `the nut-js process ended (${signal ?? `exit code ${code}`})${
    said ? `: ${said}` : ""
  }`;
  if (X_GONE.test(stderr) || !(await xAnswers(display))) {
    return new ConnectionError(
      `Cannot control the desktop: the X server at DISPLAY=${display} went away, and ${ended}. ` +
        "Create a new agent once a display runs there",
      { kind: "lost", endpoint: display ?? "" },
    );
  }
  return new ToolError(`Cannot control the desktop at DISPLAY=${display}: ${ended}`, {
    tool: "nut-js",
    status: code ?? undefined,
    output: said,
  });
}

/**
 * Starts the native input host for `display` (with `xauthority`, the display's X authority
 * file, else this process's `XAUTHORITY`).
 *
 * @throws {ConnectionError} when no X server answers at `display` (nut-js is then never
 *   touched), or it goes away; {MissingDependencyError} when nut-js is not installed or cannot
 *   load ({@link INSTALL_NUT_JS}); {ToolError} when the host ends or nut-js fails a call.
 */
export async function loadNativeInput(
  display: string | undefined,
  xauthority?: string,
): Promise<NativeInput> {
  await confirmX11Display(display);
  const { file, args } = hostCommand();
  const child = spawn(file, args, {
    env: x11ClientEnv(display!, xauthority, HOST_ENV),
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Killed with this process however it ends; its pipes keep the process alive only while a
  // call waits on them (holdOpen below).
  adoptChild(child);
  let stderr = "";
  child.stderr?.on("data", (d) => {
    // nut-js's dependencies print a deprecation warning; the end names a failure.
    stderr = (stderr + String(d)).slice(-4000);
  });
  child.stdin?.on("error", () => undefined);
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let ended: Error | undefined;
  let closing = false;
  type First = { ready?: boolean; error?: string; ended?: Error };
  let ready: ((message: First) => void) | undefined;
  const readyMessage = new Promise<First>((r) => ready = r);
  const finish = (error: Error) => {
    ended ??= error;
    for (const call of pending.values()) call.reject(ended);
    pending.clear();
    ready?.({ ended });
    ready = undefined;
  };
  const exited = new Promise<void>((resolve) => {
    child.once("exit", async (code, signal) => {
      if (closing) finish(new ToolError("the nut-js process was closed", { tool: "nut-js" }));
      else finish(await hostEnded(display, code, signal, stderr));
      resolve();
    });
    child.once("error", (e) => {
      finish(
        new ToolError(
          `Cannot control the desktop: the nut-js process did not start (${e.message})`,
          {
            tool: "nut-js",
            output: e.message,
          },
          { cause: e },
        ),
      );
      resolve();
    });
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let message: { id?: number; result?: unknown; error?: string; ready?: boolean };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.id === undefined) {
      ready?.(message);
      ready = undefined;
      return;
    }
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.error === undefined) call?.resolve(message.result);
    else if (call) failedCall(display, message.error).then(call.reject);
  });
  const first = await holdOpen(readyMessage);
  if (!first.ready) {
    closing = true;
    child.kill("SIGKILL");
    await holdOpen(exited);
    if (first.ended) throw first.ended;
    throw new MissingDependencyError(
      `Cannot control the desktop: ${first.error ?? "the nut-js process did not start"}. ` +
        `Install it: ${INSTALL_NUT_JS}`,
      "@nut-tree-fork/nut-js",
    );
  }
  let nextId = 1;
  const call = <T>(op: string, ...callArgs: unknown[]): Promise<T> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    return holdOpen(
      new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin!.write(`${JSON.stringify({ id, op, args: callArgs })}\n`);
      }),
    );
  };
  return {
    screenSize: () => call("size"),
    grabPng: (region) => call("grab", region),
    move: (x, y) => call("move", x, y),
    button: (button, down) => call("button", button, down),
    click: (button, count) => call("click", button, count),
    wheel: (dx, dy) => call("wheel", dx, dy),
    keys: (names, down) => call("keys", names, down),
    typeText: (text) => call("type", text),
    setClipboard: (text) => call("clipboard", text),
    isBlack: (region) => call("black", region),
    close: async () => {
      if (!ended) {
        closing = true;
        child.stdin!.end();
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await holdOpen(exited);
      clearTimeout(timer);
    },
  };
}

/** An error answer of the host: the X server gone (`ConnectionError`), else nut-js's own. */
async function failedCall(display: string | undefined, error: string): Promise<Error> {
  if (!(await xAnswers(display))) {
    return new ConnectionError(
      `Cannot control the desktop: the X server at DISPLAY=${display} went away (nut-js: ${error}). ` +
        "Create a new agent once a display runs there",
      { kind: "lost", endpoint: display ?? "" },
    );
  }
  return new ToolError(`Cannot control the desktop at DISPLAY=${display}: nut-js: ${error}`, {
    tool: "nut-js",
    output: error,
  });
}
