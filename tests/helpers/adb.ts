/**
 * The real adb for the device-simulator tests: a private adb server per test file (`adb -P <free
 * port>`, so files running in parallel, and a user's own adb server, never meet), commands run
 * against it, and `ensureAdb()` for the suite's setup, which installs Debian's adb when missing.
 *
 * @module
 */

import { execFile } from "node:child_process";
import process from "node:process";
import type { Buffer } from "node:buffer";
import { freePort } from "./free_port.ts";

/** One finished adb command. */
export interface AdbRun {
  /** Exit code (-1 when adb could not run or timed out). */
  code: number;
  /** Standard output as bytes (`exec-out screencap -p` is binary). */
  stdout: Buffer;
  /** Standard output as text. */
  text: string;
  /** Standard error as text. */
  stderr: string;
  /** Wall time of the command, ms. */
  ms: number;
}

/** A private adb server on its own port. */
export interface PrivateAdbServer {
  /** The server's port (`adb -P <port>`, the SDK's `remoteBridgePort`). */
  port: number;
  /** Runs `adb -P <port> ...args`; `input` goes to its standard input. Never rejects. */
  run(args: readonly string[], input?: string): Promise<AdbRun>;
  /** `adb connect serial`, then waits (up to 10 s) until `adb devices` lists it as a device. */
  connect(serial: string): Promise<void>;
  /** `adb kill-server`. */
  close(): Promise<void>;
}

const ADB_MISSING = "adb not found on PATH; install Debian's adb (apt-get install adb), as " +
  ".ci/run and tests/setup.ts do, or Android platform-tools";

/** Runs `adb args` and never rejects: failures come back as a non-zero `code`. */
function runAdb(args: readonly string[], input?: string): Promise<AdbRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = execFile(
      "adb",
      [...args],
      { encoding: "buffer", maxBuffer: 64 * 1024 * 1024, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({
          code,
          stdout,
          text: stdout.toString(),
          stderr: stderr.toString() || (error && code === -1 ? error.message : ""),
          ms: performance.now() - started,
        });
      },
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

/**
 * Starts a private adb server on a free port.
 *
 * @throws {Error} saying how to install adb when it is not on `PATH`, or with adb's message when
 *   the server does not start.
 */
export async function startPrivateAdbServer(): Promise<PrivateAdbServer> {
  const version = await runAdb(["version"]);
  if (version.code !== 0) throw new Error(`${ADB_MISSING} (${version.stderr.trim()})`);
  const port = await freePort();
  const run = (args: readonly string[], input?: string) =>
    runAdb(["-P", String(port), ...args], input);
  const start = await run(["start-server"]);
  if (start.code !== 0) throw new Error(`adb -P ${port} start-server failed: ${start.stderr}`);
  return {
    port,
    run,
    async connect(serial) {
      const connected = await run(["connect", serial]);
      if (!/connected to/.test(connected.text)) {
        throw new Error(`adb connect ${serial}: ${connected.text}${connected.stderr}`);
      }
      const deadline = Date.now() + 10_000;
      while (!(await run(["devices"])).text.includes(`${serial}\tdevice`)) {
        if (Date.now() > deadline) throw new Error(`adb does not list ${serial} as a device`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      await run(["kill-server"]);
    },
  };
}

/**
 * Makes sure `adb` is on `PATH` for the suite: when it is not, and Debian's `apt-get` can run as
 * root, installs the `adb` package. Prints what it found or did.
 *
 * @throws {Error} saying how to install adb when it is missing and cannot be installed here.
 */
export async function ensureAdb(): Promise<void> {
  if ((await runAdb(["version"])).code === 0) {
    console.log("adb for the tests: on PATH");
    return;
  }
  const root = process.getuid?.() === 0;
  if (!root) throw new Error(ADB_MISSING);
  console.log("No adb found; installing Debian's adb package with apt-get ...");
  for (
    const args of [["update", "-q"], ["install", "-y", "-q", "--no-install-recommends", "adb"]]
  ) {
    const out = await new Promise<number>((resolve) =>
      execFile(
        "apt-get",
        args,
        { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } },
        (e) => resolve(e ? 1 : 0),
      )
    );
    if (out !== 0) throw new Error(`apt-get ${args.join(" ")} failed. ${ADB_MISSING}`);
  }
  if ((await runAdb(["version"])).code !== 0) throw new Error(ADB_MISSING);
}
