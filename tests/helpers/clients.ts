/**
 * The third-party clients of the conformance tests (`webdriver`, `@devicefarmer/adbkit`), used as
 * if they were imported here: each runs in a child Deno process (tests/clients/rpc.js) with its
 * own import map and lockfile, so that neither is in the workspace's import map or `deno.lock`,
 * which `deno task demo` installs for every user (their driver packages carry install scripts).
 * An object of the child is a proxy whose methods return promises; its own data fields are there
 * at once (`client.sessionId`); Buffers, readable streams (`readableOf`) and errors (with their
 * `name` and `message`) cross as they are.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("../clients/", import.meta.url));

/**
 * An object that lives in the clients' process: any method call is sent there and resolves with
 * its result; data fields read at once.
 */
// deno-lint-ignore no-explicit-any
export type Remote = any;

/** A readable stream of `bytes`, made in the clients' process, for an argument (adbkit's push). */
export function readableOf(bytes: Uint8Array): { $readable: string } {
  return { $readable: Buffer.from(bytes).toString("base64") };
}

/** The running clients' process. */
export interface Clients {
  /** The `webdriver` package's default export (`WebDriver.newSession(...)`). */
  readonly webdriver: Remote;
  /** adbkit's `Adb` class (`Adb.createClient(...)`). */
  readonly adbkit: Remote;
  /** adbkit's `Adb.util` (`readAll(stream)`). */
  readonly adbUtil: Remote;
  /** Resolves once an emitter of the child emitted `event` (rejects on its `error`). */
  waitEvent(emitter: Remote, event: string): Promise<void>;
  /** Ends the process. */
  close(): Promise<void>;
}

/** Starts the clients' process and waits until it is ready. */
export async function startClients(): Promise<Clients> {
  const child: ChildProcess = spawn(
    Deno.execPath(),
    [
      "run",
      "--allow-all",
      "--no-config",
      "--import-map",
      `${DIR}import_map.json`,
      "--lock",
      `${DIR}deno.lock`,
      `${DIR}rpc.js`,
    ],
    { stdio: ["pipe", "pipe", "inherit"], env: { ...Deno.env.toObject(), NO_COLOR: "1" } },
  );
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  let nextId = 1;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => ready = resolve);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", (code) => {
    for (const { reject } of pending.values()) {
      reject(new Error(`the clients' process ended (code ${code})`));
    }
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const answer = JSON.parse(line) as {
      ready?: boolean;
      id: number;
      value?: unknown;
      error?: { name: string; message: string };
    };
    if (answer.ready) return ready();
    const call = pending.get(answer.id);
    pending.delete(answer.id);
    if (!call) return;
    if (answer.error) {
      const error = new Error(answer.error.message);
      error.name = answer.error.name;
      call.reject(error);
    } else {
      call.resolve(decode(answer.value));
    }
  });

  const call = (handle: number, method: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify({ id, handle, method, args: args.map(encode) })}\n`);
    });

  const HANDLE = Symbol("handle");
  const remote = (handle: number, props: Record<string, unknown>): Remote =>
    new Proxy(props, {
      get: (target, key) => {
        if (key === HANDLE) return handle;
        if (typeof key !== "string" || key === "then") return undefined;
        if (key in target) return target[key];
        return (...args: unknown[]) => call(handle, key, args);
      },
    });
  const decode = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(decode);
    const v = value as Record<string, unknown>;
    if (typeof v.$handle === "number") return remote(v.$handle, v.props as Record<string, unknown>);
    if (typeof v.$buffer === "string") return Buffer.from(v.$buffer, "base64");
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
  };
  const encode = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    const handle = (value as Record<symbol, unknown>)[HANDLE];
    if (typeof handle === "number") return { $handle: handle };
    if (value instanceof Uint8Array) return { $buffer: Buffer.from(value).toString("base64") };
    if (Array.isArray(value)) return value.map(encode);
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, encode(x)]));
  };

  await Promise.race([
    started,
    exited.then(() => {
      throw new Error("the clients' process (tests/clients/rpc.js) ended before it was ready");
    }),
  ]);
  return {
    webdriver: remote(1, {}),
    adbkit: remote(2, {}),
    adbUtil: remote(3, {}),
    waitEvent: (emitter, event) => call(emitter[HANDLE], "$waitEvent", [event]).then(() => {}),
    close: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}
