/**
 * One Android device's connection through the bridge (the adb server), and the commands every
 * other part of `MobileADevice` runs in its shell. Failures name the device and the command, and
 * a connection that broke is dropped so that the next command reconnects (or says the device is
 * not connected). A command that exits non-zero is a `ToolError`; a device that went away
 * (its connection broke, or it is no longer listed) a `ConnectionError` of kind `lost`; a
 * command without an answer in time one of kind `timeout`.
 *
 * @module
 */

import type { Adb } from "@yume-chan/adb";
import {
  DeviceNotFoundError,
  holdOpen,
  InvalidStateError,
  isSdkError,
  SdkRangeError,
  SdkTypeError,
} from "@sdk/core";
import type { Bridge } from "./bridge.ts";
import { connectionError, shellFailure } from "./errors.ts";

/** Default time limit of one shell command, ms. */
export const DEFAULT_SHELL_TIMEOUT_MS = 20_000;

/** What a shell command printed and its exit code. */
export interface ShellResult {
  /** Standard output. */
  stdout: string;
  /** Standard error (empty on devices without the shell protocol, where it is mixed in stdout). */
  stderr: string;
  /** Exit code (0 on devices without the shell protocol). */
  exitCode: number;
}

/** Options of `MobileADevice.runBridgeShell` (device.ts). */
export interface RunBridgeShellOptions {
  /** Time limit, ms (> 0). Default 20000. */
  timeout?: number;
}

/** The connection to one device and its shell. Private to the package. */
export class BridgeShell {
  /** The adb serial of the device. */
  readonly deviceId: string;
  readonly #bridge: Bridge;
  readonly #onConnect: (adb: Adb) => Promise<void>;
  #adb: Promise<Adb> | undefined;
  #destroyed = false;
  #everConnected = false;

  /** `onConnect` runs on every new connection before any command uses it. */
  constructor(bridge: Bridge, deviceId: string, onConnect: (adb: Adb) => Promise<void>) {
    this.#bridge = bridge;
    this.deviceId = deviceId;
    this.#onConnect = onConnect;
  }

  /** Whether {@link BridgeShell.close} was called: every command is refused from then on. */
  get destroyed(): boolean {
    return this.#destroyed;
  }

  /**
   * The device's `Adb`, connecting on first use (and again after a connection broke).
   *
   * @throws {ConnectionError} (`lost`) after {@link BridgeShell.close}, or when the device was
   * connected before and is no longer listed.
   * @throws {DeviceNotFoundError} when the device was never connected.
   */
  connect(): Promise<Adb> {
    if (this.#destroyed) {
      return Promise.reject(
        new InvalidStateError(
          `MobileADevice ${JSON.stringify(this.deviceId)} was destroyed; create a new device`,
        ),
      );
    }
    this.#adb ??= holdOpen(
      this.#bridge.open(this.deviceId).then(async (adb) => {
        await this.#onConnect(adb);
        this.#everConnected = true;
        return adb;
      }),
    ).catch((error) => {
      this.#adb = undefined;
      if (this.#everConnected && error instanceof DeviceNotFoundError) {
        throw connectionError(
          `Android device ${JSON.stringify(this.deviceId)} is gone: ${error.message}`,
          "lost",
          this.deviceId,
          error,
        );
      }
      throw error;
    });
    return this.#adb;
  }

  /** One command with the shell protocol (stdout, stderr, exit code apart) where the device has it. */
  async shell(command: string, timeoutMs = DEFAULT_SHELL_TIMEOUT_MS): Promise<ShellResult> {
    const adb = await this.connect();
    const run = async (): Promise<ShellResult> => {
      const shell = adb.subprocess.shellProtocol;
      if (shell?.isSupported) return await shell.spawnWaitText(command);
      const stdout = await adb.subprocess.noneProtocol.spawnWaitText(command);
      return { stdout, stderr: "", exitCode: 0 };
    };
    return await this.#guard(command, run(), timeoutMs);
  }

  /**
   * A command whose non-zero exit code is an error; resolves its stdout.
   *
   * @throws {ToolError} with the exit code and what the command printed when it fails.
   */
  async shellOk(command: string): Promise<string> {
    const result = await this.shell(command);
    if (result.exitCode !== 0) {
      throw shellFailure(command, result.exitCode, result.stdout, result.stderr);
    }
    return result.stdout;
  }

  /** Raw bytes of `exec:command` (no terminal conversion). */
  async exec(command: string): Promise<Uint8Array> {
    const adb = await this.connect();
    return await this.#guard(command, adb.subprocess.noneProtocol.spawnWait(command));
  }

  /**
   * Refuses every later command at once, waits for `drain` (what still runs over the connection
   * closes there), then closes the connection. Idempotent.
   */
  async close(drain: () => Promise<void>): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await drain();
    const adb = this.#adb;
    this.#adb = undefined;
    if (adb) await adb.then((a) => a.close()).catch(() => {});
  }

  // Names the device and command in failures, and drops a connection that broke (a device that
  // went away) so that the next command reconnects or says the device is not connected. The
  // process is held open meanwhile: the connection's sockets do not keep it alive.
  async #guard<T>(
    command: string,
    work: Promise<T>,
    timeoutMs = DEFAULT_SHELL_TIMEOUT_MS,
  ): Promise<T> {
    const failed = (what: string, kind: "lost" | "timeout", cause?: unknown) =>
      connectionError(
        `Android device ${JSON.stringify(this.deviceId)}: \`${command}\` failed: ${what} ` +
          "(is the device still connected? check `adb devices`)",
        kind,
        this.deviceId,
        cause,
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(failed(`no answer within ${timeoutMs} ms`, "timeout")),
        timeoutMs,
      );
    });
    try {
      return await holdOpen(Promise.race([work, late]));
    } catch (error) {
      const adb = this.#adb;
      this.#adb = undefined;
      adb?.then((a) => a.close()).catch(() => {});
      work.catch(() => {});
      if (isSdkError(error)) throw error;
      throw failed((error as Error)?.message ?? String(error), "lost", error);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Runs a user's `command` in the device's shell (what `runBridgeShell` and `RunBridgeShell` do),
 * after checking it and the time limit.
 *
 * @throws {SdkTypeError} for an empty command.
 * @throws {SdkRangeError} for a `timeout` that is not a finite number > 0.
 */
export async function runBridgeShell(
  shell: BridgeShell,
  command: string,
  options: RunBridgeShellOptions,
): Promise<ShellResult> {
  if (typeof command !== "string" || command.trim() === "") {
    throw new SdkTypeError(
      `runBridgeShell needs a non-empty command: current value is ${JSON.stringify(command)}`,
    );
  }
  const timeout = options.timeout ?? DEFAULT_SHELL_TIMEOUT_MS;
  if (!(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
    throw new SdkRangeError(
      `runBridgeShell: 'timeout' must be a finite number of ms > 0: current value is ${
        JSON.stringify(options.timeout)
      }`,
    );
  }
  return await shell.shell(command, timeout);
}
