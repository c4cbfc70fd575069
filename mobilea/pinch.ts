/**
 * `Pinch` on MobileA: two-finger touches through the scrcpy server's control channel (adb's
 * `input` moves one pointer only). The server jar must be on the device; the action is in the
 * action space once a connection found it there.
 *
 * @module
 */

import type { Adb } from "@yume-chan/adb";
import type { DeviceAction, Size } from "@sdk/core";
import {
  holdOpen,
  MissingDependencyError,
  PINCH_DIRECTIONS,
  pinchAction,
  readEnumParam,
  readLocateParam,
  readPositiveNumberParam,
  SdkTypeError,
  shellQuote,
} from "@sdk/core";
import { withPrefix } from "./errors.ts";
import type { BridgeShell } from "./bridge_shell.ts";
import { DP_UNIT, type Screen } from "./screen.ts";
import { scrcpyJarHint, type ScrcpySession, startScrcpySession } from "./scrcpy.ts";
import { DEFAULT_PINCH_MS, pinchPath, runPinch } from "./scrcpy_pinch.ts";

/**
 * Why `Pinch` cannot run: what to push where (the scrcpy server jar at `path`, release
 * `version`).
 */
export function pinchUnavailable(server: { path: string; version: string }): string {
  return `aiPinch needs the scrcpy server on the device: adb's \`input\` command moves one ` +
    `pointer only, and two-finger touches go through scrcpy's control channel. To fix it, ` +
    `${scrcpyJarHint(server)}; until then Pinch is not in the MobileA action space`;
}

/** The scrcpy server jar of one device and its control-only session. Private to the package. */
export class PinchChannel {
  readonly #shell: BridgeShell;
  readonly #screen: Screen;
  readonly #path: string;
  readonly #version: string;
  #present: boolean | undefined;
  #session: Promise<ScrcpySession> | undefined;

  constructor(shell: BridgeShell, screen: Screen, server: { path: string; version: string }) {
    this.#shell = shell;
    this.#screen = screen;
    this.#path = server.path;
    this.#version = server.version;
  }

  /** Where the jar is looked for, and its release (for messages). */
  get server(): { path: string; version: string } {
    return { path: this.#path, version: this.#version };
  }

  /** Whether the last look found the jar (none yet: false). */
  get present(): boolean {
    return this.#present === true;
  }

  /** Looks for the jar over a new connection. */
  async check(adb: Adb): Promise<void> {
    this.#present = await this.#jarPresent(adb);
  }

  /** Whether the jar is on the device, connecting first. */
  async available(): Promise<boolean> {
    const adb = await this.#shell.connect();
    // Asked again while absent: the jar may have been pushed since.
    if (!this.#present) this.#present = await this.#jarPresent(adb);
    return this.#present;
  }

  /**
   * The control-only scrcpy session (no video), started on first use and kept until close().
   *
   * @throws {MissingDependencyError} (`scrcpy-server`) when the jar is not on the device; the
   * errors of the connection and of `startScrcpySession`, each naming the device.
   */
  session(): Promise<ScrcpySession> {
    this.#session ??= holdOpen((async () => {
      if (!(await this.available())) {
        throw new MissingDependencyError(pinchUnavailable(this.server), "scrcpy-server");
      }
      const info = await this.#screen.info(false);
      const session = await startScrcpySession(await this.#shell.connect(), {
        serverPath: this.#path,
        serverVersion: this.#version,
        video: false,
      }, { width: info.physicalWidth, height: info.physicalHeight });
      // A server that ends (the device went away) is started again on the next pinch.
      session.exited.then(() => this.#session = undefined);
      return session;
    })()).catch((error) => {
      this.#session = undefined;
      throw withPrefix(
        error,
        `Cannot pinch on Android device ${JSON.stringify(this.#shell.deviceId)}: `,
        "scrcpy-server",
      );
    });
    return this.#session;
  }

  /** Ends the session, if one runs. */
  async close(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    await session?.then((s) => s.close()).catch(() => {});
  }

  // One `ls` of the jar; an unreachable answer counts as absent (the next connection asks again).
  async #jarPresent(adb: Adb): Promise<boolean> {
    try {
      const command = `ls ${shellQuote(this.#path)}`;
      const shell = adb.subprocess.shellProtocol;
      if (shell?.isSupported) return (await shell.spawnWaitText(command)).exitCode === 0;
      const out = await adb.subprocess.noneProtocol.spawnWaitText(`${command} && echo present`);
      return out.includes("present");
    } catch {
      return false;
    }
  }
}

/**
 * The `Pinch` action: around `locate` (the screen center when left out), by `distance` dp (a
 * quarter of the shorter side when left out), over `duration` ms.
 *
 * @param size the device's logical size, as `size()` gives it.
 */
export function mobileAPinchAction(
  channel: PinchChannel,
  screen: Screen,
  size: () => Promise<Size>,
): DeviceAction {
  return pinchAction(async (param, context) => {
    context?.signal?.throwIfAborted();
    if (param.direction === undefined || param.direction === null) {
      throw new SdkTypeError("Cannot run Pinch: 'direction' ('in' or 'out') is required");
    }
    const direction = readEnumParam("Pinch", param, "direction", PINCH_DIRECTIONS, "out");
    const logical = await size();
    const center = readLocateParam("Pinch", param, false)?.center ??
      [logical.width / 2, logical.height / 2];
    const distance = readPositiveNumberParam("Pinch", param, "distance") ??
      Math.min(logical.width, logical.height) / 4;
    const ms = readPositiveNumberParam("Pinch", param, "duration") ?? DEFAULT_PINCH_MS;
    const info = await screen.info(false);
    const dpr = info.densityDpi / 160;
    const physical = { width: info.physicalWidth, height: info.physicalHeight };
    const path = pinchPath(
      [center[0] * dpr, center[1] * dpr],
      direction,
      distance * dpr,
      { ...physical, dpr },
    );
    await holdOpen(runPinch(await channel.session(), path, ms, physical, context?.signal));
  }, {
    unit: DP_UNIT,
    defaultDurationMs: DEFAULT_PINCH_MS,
  });
}
