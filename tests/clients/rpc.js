/**
 * The third-party clients the conformance tests drive the simulator fronts with (`webdriver`,
 * `@devicefarmer/adbkit`), served to a test over JSON lines on stdin/stdout. They are test-only
 * dependencies with driver packages that carry install scripts, so they live in this folder's own
 * import map and lockfile (`import_map.json`, `deno.lock`), not in the workspace's import map and
 * lockfile that `deno task demo` installs: `tests/helpers/clients.ts` starts this module without
 * the workspace's config (`deno run --no-config --import-map ... --lock ...`), the packages from
 * Deno's global cache. It is JavaScript so that the type check of the workspace (its .ts files) leaves it
 * alone (it cannot resolve these packages, by design).
 *
 * Each request is `{ id, handle, method, args }`: call `method` on the object of `handle` (1:
 * webdriver's default export, 2: adbkit's `Adb`, 3: `Adb.util`). Arguments and results are JSON, with `{ $buffer }`
 * (base64 bytes), `{ $readable }` (base64 bytes as a readable stream, an argument only) and
 * `{ $handle, props }` (an object kept here: a client, a device, a stream; `props` its own data
 * fields). The method `$waitEvent` waits for an emitter's event (`args[0]`), rejecting on `error`.
 * Each answer is `{ id, value }` or `{ id, error: { name, message } }`.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import process from "node:process";
import WebDriver from "webdriver";
import adbkit from "@devicefarmer/adbkit";

// adbkit is CommonJS: its default import is module.exports, whose default is the Adb class.
const Adb = adbkit.default;
const handles = new Map([[1, WebDriver], [2, Adb], [3, Adb.util]]);
let nextHandle = 4;

function isPlainData(value) {
  if (value === null || typeof value !== "object") return typeof value !== "function";
  if (Array.isArray(value)) return value.every(isPlainData);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every(isPlainData);
}

function encode(value) {
  if (value instanceof Uint8Array) return { $buffer: Buffer.from(value).toString("base64") };
  if (value === undefined || isPlainData(value)) return value;
  if (Array.isArray(value)) return value.map(encode);
  const handle = nextHandle++;
  handles.set(handle, value);
  // An emitter may end before the test asks to wait for it: its end and error are kept.
  if (typeof value.once === "function") {
    const seen = { events: new Set(), error: undefined };
    fired.set(value, seen);
    for (const event of ["end", "finish", "close"]) value.once(event, () => seen.events.add(event));
    value.once("error", (error) => seen.error = error);
  }
  const props = {};
  for (const [key, field] of Object.entries(value)) {
    if (isPlainData(field)) props[key] = field;
  }
  return { $handle: handle, props };
}

function decode(value) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decode);
  const v = value;
  if (typeof v.$handle === "number") return handles.get(v.$handle);
  if (typeof v.$buffer === "string") return Buffer.from(v.$buffer, "base64");
  if (typeof v.$readable === "string") return Readable.from([Buffer.from(v.$readable, "base64")]);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
}

/** What each emitter handed out has emitted so far. */
const fired = new WeakMap();

function waitEvent(emitter, event) {
  const seen = fired.get(emitter);
  if (seen?.error) return Promise.reject(seen.error);
  if (seen?.events.has(event)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    emitter.once(event, () => resolve());
    emitter.once("error", (error) => reject(error));
  });
}

async function handle(line) {
  const { id, handle, method, args } = JSON.parse(line);
  try {
    const target = handles.get(handle);
    if (target === undefined) throw new Error(`no object ${handle}`);
    const decoded = args.map(decode);
    const value = method === "$waitEvent"
      ? await waitEvent(target, decoded[0])
      : await target[method].apply(target, decoded);
    // A BigInt field (adbkit's stat times) crosses as a number.
    return JSON.stringify(
      { id, value: encode(value) },
      (_, v) => typeof v === "bigint" ? Number(v) : v,
    );
  } catch (e) {
    return JSON.stringify({ id, error: { name: e?.name, message: e?.message ?? String(e) } });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  handle(line).then((answer) => process.stdout.write(`${answer}\n`));
});
lines.on("close", () => process.exit(0));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
