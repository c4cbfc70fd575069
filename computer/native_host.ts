/**
 * The native input host: a child process that owns nut-js and its X connection for one device.
 * `native.ts` starts it with `DISPLAY` set and talks to it in JSON lines on stdin/stdout:
 * `{ "id": 1, "op": "move", "args": [x, y] }` -> `{ "id": 1, "result": ... }` or
 * `{ "id": 1, "error": "..." }`. The first line it writes is `{ "ready": true }` or
 * `{ "error": "..." }`.
 *
 * Why a process of its own: nut-js keeps one X connection per process and closes it at exit, and
 * Xlib ends the whole process when that server is gone (an agent-owned Xvfb stopped by
 * `destroy()`), so the connection must live and die in a process that ends before its display.
 * It also lets one program drive several displays, and keeps a native crash out of the caller.
 *
 * Exported as `@sdk/computer/native_host` only so that packaging keeps the file next to
 * `native.ts`, which starts it; importing it runs nothing.
 *
 * nut-js is looked for as `SDK_NUT_JS_MODULE` (a module specifier or URL), then by its name (a
 * Node project's node_modules, the import map of the Deno project it runs in), then in
 * `SDK_NUT_JS_DIR` (a folder where `npm install --prefix <dir> @nut-tree-fork/nut-js` put it).
 *
 * @module
 */

import process from "node:process";
import { createInterface } from "node:readline";
import { encodeOpaquePng, type RawScreenImage } from "./png.ts";

// A Function-made import is left alone by Deno's publish analysis and by bundlers: nut-js is an
// optional peer, resolved at run time from wherever the program runs.
const importModule = new Function("specifier", "return import(specifier)") as (
  specifier: string,
) => Promise<unknown>;

/**
 * nut-js and where it came from: `SDK_NUT_JS_MODULE`, the bare name, or `SDK_NUT_JS_DIR`; or why
 * it could not be loaded from any of them.
 */
async function loadNut(): Promise<{ nut: unknown; from: string } | { errors: string[] }> {
  const module = process.env.SDK_NUT_JS_MODULE;
  const errors: string[] = [];
  if (module) {
    try {
      return { nut: await importModule(module), from: module };
    } catch (e) {
      return { errors: [`SDK_NUT_JS_MODULE=${module}: ${(e as Error).message.split("\n")[0]}`] };
    }
  }
  try {
    return { nut: await importModule(NUT_JS), from: NUT_JS };
  } catch (e) {
    errors.push((e as Error).message.split("\n")[0]);
  }
  const dir = process.env.SDK_NUT_JS_DIR?.replace(/\/+$/, "");
  if (dir) {
    const { createRequire } = await import("node:module");
    const require = createRequire(`${dir}/`);
    try {
      const from = require.resolve(NUT_JS);
      // Called through Reflect: a literal require() call would be analyzed at publish time.
      return { nut: Reflect.apply(require, undefined, [from]), from };
    } catch (e) {
      errors.push(`SDK_NUT_JS_DIR=${dir}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  return { errors };
}

function write(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

const NUT_JS = "@nut-tree-fork/nut-js";

function isMainModule(): boolean {
  const meta = import.meta as { main?: boolean };
  if (meta.main !== undefined) return meta.main;
  // Node before import.meta.main: compare the entry script with this file.
  const entry = process.argv[1];
  return entry !== undefined && decodeURIComponent(new URL(import.meta.url).pathname) === entry;
}

/**
 * Runs the host: loads nut-js, writes `{ "ready": true }` (or `{ "error": ... }`), then answers
 * commands from stdin until it closes, and exits. With `--probe` it exits after loading.
 */
export async function runNativeHost(): Promise<void> {
  // deno-lint-ignore no-explicit-any
  let nut: any;
  const loaded = await loadNut();
  if ("errors" in loaded) {
    write({ error: `@nut-tree-fork/nut-js could not be loaded (${loaded.errors.join("; ")})` });
    process.exit(0);
  }
  nut = loaded.nut;
  if (nut.default?.screen && !nut.screen) nut = nut.default;
  // `--probe` (checkComputerEnvironment): loading touches no display, the first screen call would.
  if (process.argv.includes("--probe")) {
    write({ ready: true, from: loaded.from });
    process.exit(0);
  }
  // The SDK paces actions itself; nut-js's own 100 ms pauses would only slow every step.
  nut.keyboard.config.autoDelayMs = 0;
  nut.mouse.config.autoDelayMs = 0;
  const buttons: Record<string, unknown> = {
    left: nut.Button.LEFT,
    right: nut.Button.RIGHT,
    middle: nut.Button.MIDDLE,
  };

  /** The nut-js key codes of `names`, or the first name nut-js has no key for. */
  function keysOf(names: string[]): { keys: number[] } | { unknown: string } {
    const keys: number[] = [];
    for (const name of names) {
      const key = nut.Key[name];
      if (typeof key !== "number") return { unknown: name };
      keys.push(key);
    }
    return { keys };
  }

  function bytesToBase64(bytes: Uint8Array): string {
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(text);
  }

  /** A grabbed image as nut-js gives it. */
  interface Grabbed {
    width: number;
    height: number;
    data: Uint8Array;
    colorMode: unknown;
  }
  const grab = async (
    region?: { x: number; y: number; width: number; height: number },
  ): Promise<Grabbed> =>
    region
      ? await nut.screen.grabRegion(new nut.Region(region.x, region.y, region.width, region.height))
      : await nut.screen.grab();

  // deno-lint-ignore no-explicit-any
  const ops: Record<string, (...args: any[]) => Promise<unknown>> = {
    size: async () => ({ width: await nut.screen.width(), height: await nut.screen.height() }),
    grab: async (region?: { x: number; y: number; width: number; height: number }) => {
      const image = await grab(region);
      const raw: RawScreenImage = {
        width: image.width,
        height: image.height,
        data: image.data,
        byteWidth: image.data.length / image.height,
        order: image.colorMode === nut.ColorMode.RGB ? "rgb" : "bgr",
      };
      return bytesToBase64(await encodeOpaquePng(raw));
    },
    move: async (x: number, y: number) =>
      void await nut.mouse.setPosition(new nut.Point(Math.round(x), Math.round(y))),
    button: async (button: string, down: boolean) =>
      void (down
        ? await nut.mouse.pressButton(buttons[button])
        : await nut.mouse.releaseButton(buttons[button])),
    click: async (button: string, count: number) =>
      void (count === 2
        ? await nut.mouse.doubleClick(buttons[button])
        : await nut.mouse.click(buttons[button])),
    wheel: async (dx: number, dy: number) => {
      if (dy > 0) await nut.mouse.scrollDown(dy);
      if (dy < 0) await nut.mouse.scrollUp(-dy);
      if (dx > 0) await nut.mouse.scrollRight(dx);
      if (dx < 0) await nut.mouse.scrollLeft(-dx);
    },
    keys: async (names: string[], down: boolean) => {
      const found = keysOf(names);
      if ("unknown" in found) return { error: `nut-js has no key named ${found.unknown}` };
      if (down) await nut.keyboard.pressKey(...found.keys);
      else await nut.keyboard.releaseKey(...found.keys);
    },
    type: async (text: string) => void await nut.keyboard.type(text),
    clipboard: async (text: string) => void await nut.clipboard.setContent(text),
    // Every pixel's colour bytes zero (the 4th byte of each pixel is unused).
    black: async (region?: { x: number; y: number; width: number; height: number }) => {
      const image = await grab(region);
      const data = image.data;
      const row = data.length / image.height;
      for (let y = 0; y < image.height; y++) {
        for (let i = y * row, end = i + image.width * 4; i < end; i += 4) {
          if (data[i] !== 0 || data[i + 1] !== 0 || data[i + 2] !== 0) return false;
        }
      }
      return true;
    },
  };

  write({ ready: true });
  // One command at a time, in order: input events must reach the display in the order sent.
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === "") continue;
    const { id, op, args } = JSON.parse(line) as { id: number; op: string; args: unknown[] };
    const run = ops[op];
    if (!run) {
      write({ id, error: `unknown operation ${op}` });
      continue;
    }
    try {
      const result = await run(...args);
      // An operation refuses its arguments by returning { error } (see `keys`).
      if (result && typeof result === "object" && "error" in result) write({ id, ...result });
      else write({ id, result: result ?? null });
    } catch (e) {
      // nut-js's own failures.
      write({ id, error: (e as Error)?.message ?? String(e) });
    }
  }
  process.exit(0);
}

if (isMainModule()) await runNativeHost();
