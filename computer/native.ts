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
import { confirmX11Display } from "./display.ts";

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
  /** Ends the host process (and with it the X connection). Safe to call twice. */
  close(): Promise<void>;
}

/** How to get nut-js, named when it cannot load. */
export const INSTALL_NUT_JS: string =
  'npm install @nut-tree-fork/nut-js (Deno: map "@nut-tree-fork/nut-js" to ' +
  '"npm:@nut-tree-fork/nut-js@^4.2.6" in the import map, or `npm install --prefix <dir> ' +
  "@nut-tree-fork/nut-js` and set SDK_NUT_JS_DIR=<dir>); under Linux it needs libXtst " +
  "(apt-get install libxtst6)";

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
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60_000 }, (e, stdout) => {
      const last = String(stdout).trim().split("\n").at(-1) ?? "";
      try {
        const message = JSON.parse(last) as { ready?: boolean; from?: string; error?: string };
        resolve(message.ready ? { from: message.from } : { error: message.error });
      } catch {
        resolve({ error: e?.message ?? "the nut-js probe printed nothing" });
      }
    });
  });
}

/**
 * Starts the native input host for `display`.
 *
 * @throws {Error} when no X server answers at `display` (nut-js is then never touched), when
 *   nut-js is not installed or cannot load ({@link INSTALL_NUT_JS}), or when the host ends.
 */
export async function loadNativeInput(display: string | undefined): Promise<NativeInput> {
  await confirmX11Display(display);
  const { file, args } = hostCommand();
  const child = spawn(file, args, {
    env: { ...process.env, DISPLAY: display! },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => {
    // nut-js's dependencies print a deprecation warning; keep the end for error messages.
    stderr = (stderr + String(d)).slice(-4000);
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let ended: Error | undefined;
  let ready: ((message: { ready?: boolean; error?: string }) => void) | undefined;
  const readyMessage = new Promise<{ ready?: boolean; error?: string }>((r) => ready = r);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      ended = new Error(
        `Cannot control the desktop at DISPLAY=${display}: the nut-js process ended (${
          signal ?? `exit code ${code}`
        })${stderr.trim() ? `: ${stderr.trim().split("\n").slice(-3).join(" ")}` : ""}`,
      );
      for (const call of pending.values()) call.reject(ended);
      pending.clear();
      ready?.({ error: ended.message });
      resolve();
    });
  });
  child.once("error", (e) => ready?.({ error: e.message }));
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
    if (message.error !== undefined) call?.reject(new Error(message.error));
    else call?.resolve(message.result);
  });
  const first = await readyMessage;
  if (!first.ready) {
    child.kill("SIGKILL");
    await exited;
    throw new Error(
      `Cannot control the desktop: ${first.error ?? "the nut-js process did not start"}. ` +
        `Install it: ${INSTALL_NUT_JS}`,
    );
  }
  let nextId = 1;
  const call = <T>(op: string, ...callArgs: unknown[]): Promise<T> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.stdin!.write(`${JSON.stringify({ id, op, args: callArgs })}\n`);
    });
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
    close: async () => {
      if (!ended) child.stdin!.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
