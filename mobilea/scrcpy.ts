/**
 * The scrcpy server on the device, through `@yume-chan/adb-scrcpy` (loaded on first use): starts
 * `CLASSPATH=<jar> app_process / com.genymobile.scrcpy.Server <version> key=value...` over the
 * adb connection, with the forward tunnel (`localabstract:scrcpy_<scid>`, which every adb server
 * and device serves), and hands over its video packets and its control channel. The jar is the
 * user's to push (see {@link DEFAULT_SCRCPY_SERVER_PATH}).
 *
 * @module
 */

import type { Adb } from "@yume-chan/adb";
import { SdkRangeError, ToolError } from "@sdk/core";

/** Where the scrcpy server jar is looked for on the device by default. */
export const DEFAULT_SCRCPY_SERVER_PATH = "/data/local/tmp/scrcpy-server.jar";
/**
 * The scrcpy server version asked for by default: the jar must be exactly this release (the
 * server refuses a client of another version).
 */
export const DEFAULT_SCRCPY_SERVER_VERSION = "3.3.3";

/**
 * How to put the jar on the device: where to download `server.version`, the `adb push` to
 * `server.path`, and the options that point elsewhere. For the messages of a missing jar.
 */
export function scrcpyJarHint(server: { path: string; version: string }): string {
  return `download scrcpy-server-v${server.version} from ` +
    `https://github.com/Genymobile/scrcpy/releases and push it once with ` +
    `\`adb push scrcpy-server-v${server.version} ${server.path}\` (or set scrcpyServerPath and ` +
    "scrcpyServerVersion)";
}

/** One video packet of the server. */
export interface ScrcpyVideoPacket {
  /** SPS/PPS rather than a frame: the stream (re)starts, a key frame follows. */
  configuration: boolean;
  /** Annex B data. */
  data: Uint8Array;
}

/** What to start. */
export interface ScrcpySessionOptions {
  /** The jar on the device. */
  serverPath: string;
  /** Its exact version. */
  serverVersion: string;
  /** Stream the screen. */
  video: boolean;
  /** Max video width or height, pixels (a multiple of 8); 0 for the screen's size. */
  maxSize?: number;
  /** H.264 bit rate, bits/s. */
  videoBitRate?: number;
}

/** One pointer of a touch event, in video pixels (physical pixels without video). */
export interface TouchEvent {
  action: "down" | "move" | "up";
  pointerId: number;
  x: number;
  y: number;
}

/** A running server. */
export interface ScrcpySession {
  /** The size touch positions refer to: the video's, or the screen's without video. */
  readonly touchSize: { width: number; height: number };
  /** Video packets, in order (undefined without video). */
  readonly video: AsyncIterable<ScrcpyVideoPacket> | undefined;
  /** Resolves when the server process ends. */
  readonly exited: Promise<void>;
  /** Injects one touch event through the control channel. */
  touch(event: TouchEvent): Promise<void>;
  /** Ends the server. */
  close(): Promise<void>;
}

// Android MotionEvent actions.
const MOTION_ACTIONS = { down: 0, up: 1, move: 2 } as const;

/**
 * Starts the server on the device.
 *
 * @param screen the screen's physical size, for touches without video.
 * @throws {SdkRangeError} naming the version when it is older than 2.1 (no `video=false`) or
 * `@yume-chan/adb-scrcpy` does not know it.
 * @throws {ToolError} (`scrcpy-server`) with the server's output when it exits before its
 * sockets connect (a missing jar, a version mismatch).
 */
export async function startScrcpySession(
  adb: Adb,
  options: ScrcpySessionOptions,
  screen: { width: number; height: number },
): Promise<ScrcpySession> {
  const lib = await import("@yume-chan/adb-scrcpy");
  const { ScrcpyInstanceId } = await import("@yume-chan/scrcpy");
  const className = `AdbScrcpyOptions${options.serverVersion.replace(/\./g, "_")}`;
  const OptionsClass = (lib as unknown as Record<string, unknown>)[className] as
    | typeof lib.AdbScrcpyOptions3_3_3
    | undefined;
  if (typeof OptionsClass !== "function" || !/^(2_[1-9]|3_)/.test(className.slice(16))) {
    throw new SdkRangeError(
      `scrcpy server version ${
        JSON.stringify(options.serverVersion)
      } is not supported: use a release from 2.1 on ` +
        `release that @yume-chan/adb-scrcpy knows (default ${DEFAULT_SCRCPY_SERVER_VERSION}) and ` +
        "set scrcpyServerVersion to it",
    );
  }
  const scrcpyOptions = new OptionsClass({
    video: options.video,
    audio: false,
    control: true,
    tunnelForward: true,
    scid: ScrcpyInstanceId.random(),
    maxSize: Math.floor((options.maxSize ?? 0) / 8) * 8,
    videoBitRate: options.videoBitRate,
    // The control channel alone carries no device name: keep it for device messages only.
    sendDeviceMeta: options.video,
    clipboardAutosync: false,
    cleanup: false,
    powerOn: false,
  }, { version: options.serverVersion });
  let client;
  try {
    client = await lib.AdbScrcpyClient.start(adb, options.serverPath, scrcpyOptions);
  } catch (error) {
    const output = error instanceof lib.AdbScrcpyExitedError
      ? error.output.join("\n").trim()
      : (error as Error).message;
    const said = output.slice(0, 500);
    throw new ToolError(
      `the scrcpy server did not start: ${said || "no output"}`,
      { tool: "scrcpy-server", output: said },
      { cause: error },
    );
  }
  // The server's log must be read, or the connection stalls.
  void drain(client.output.getReader());
  const controller = client.controller!;
  let touchSize = { ...screen };
  let video: AsyncIterable<ScrcpyVideoPacket> | undefined;
  if (options.video) {
    const stream = await client.videoStream!;
    if (stream.metadata.width && stream.metadata.height) {
      touchSize = { width: stream.metadata.width, height: stream.metadata.height };
    }
    const reader = stream.stream.getReader();
    video = (async function* () {
      try {
        while (true) {
          const { done, value } = await reader.read();
          if (done) return;
          yield { configuration: value.type === "configuration", data: value.data };
        }
      } finally {
        reader.releaseLock();
      }
    })();
  }
  return {
    get touchSize() {
      return touchSize;
    },
    video,
    exited: client.exited,
    async touch(event: TouchEvent): Promise<void> {
      await controller.injectTouch({
        action: MOTION_ACTIONS[event.action],
        pointerId: BigInt(event.pointerId),
        pointerX: Math.round(event.x),
        pointerY: Math.round(event.y),
        videoWidth: touchSize.width,
        videoHeight: touchSize.height,
        pressure: event.action === "up" ? 0 : 1,
        actionButton: 0,
        buttons: 0,
      });
    },
    async close(): Promise<void> {
      await client.close().catch(() => {});
    },
  };
}

async function drain(reader: { read(): Promise<{ done: boolean }> }): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // the server ended
  }
}
