/**
 * The scrcpy server of the device simulator (private to `@sdk/mobilea/testing`), for
 * `CLASSPATH=<jar> app_process / com.genymobile.scrcpy.Server <version> key=value...` once a file
 * was pushed to the jar's path. No Java runs: this speaks the protocol of scrcpy
 * {@link SIMULATED_SCRCPY_VERSION} on the device's `localabstract:scrcpy_<scid>` socket, with the
 * forward tunnel (`tunnel_forward=true`; the client connects through adb's `localabstract:`
 * service):
 *
 * - the sockets are accepted in the order video, audio, control; the first gets the dummy byte
 *   (`send_dummy_byte`), then the device meta (64 bytes of device name, `send_device_meta`);
 * - video: codec meta (`h264` as u32, width, height: `send_codec_meta`), then packets, each with
 *   a 12-byte header (`send_frame_meta`: u64 pts with bit 63 for config and bit 62 for key
 *   frames, u32 size); the screen is encoded by ffmpeg (see `_scrcpy_encoder.ts`), scaled to
 *   `max_size` as the real server does (limit, then multiples of 8);
 * - audio: disabled (codec id 0), as a device that cannot capture it says;
 * - an in-band video reset (RESET_VIDEO, or `AdbFront.resetScrcpyVideo()` as a display change
 *   would cause one) restarts the encoder: a new config packet and key frame mid-stream;
 * - control: messages of version 3.x; touch events drive the phone's fingers
 *   (`VirtualPhone.multiTouch`), key codes and back go to the phone, RESET_VIDEO restarts the
 *   encoder (a new config packet and key frame). Touch positions are in video pixels and carry
 *   the video size; a size that is not the current one is ignored, as the real server ignores it.
 *
 * The server ends when the host kills the process (closes the shell stream) or closes a socket.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { StreamBytes } from "./_adb_sync.ts";
import { startScreenEncoder } from "./_scrcpy_encoder.ts";
import type { VirtualPhone } from "@sdk/web/testing";

/** The scrcpy server version the simulator speaks; the client must ask for exactly this one. */
const SIMULATED_SCRCPY_VERSION = "3.3.3";

/** The main class of the scrcpy server. */
export const SCRCPY_MAIN = "com.genymobile.scrcpy.Server";

/** A connection to a device-side socket, as the adb front hands it over. */
export interface LocalSocketConnection {
  /** Writes to the host, in order; resolves once written. */
  write(data: Uint8Array): Promise<void>;
  /** What the host writes. */
  input: StreamBytes;
  /** Resolves when either side closed the connection. */
  closed: Promise<void>;
  /** Closes the connection. */
  close(): void;
}

/** Accepts connections to a `localabstract:` socket name. */
export type LocalSocketListener = (connection: LocalSocketConnection) => void;

/** What the server needs from the simulated device. */
export interface ScrcpyHost {
  phone: VirtualPhone;
  /** Listening `localabstract:` sockets, by name. */
  localSockets: Map<string, LocalSocketListener>;
  /** Where a running server with video registers its in-band video reset (for tests). */
  videoResets: Set<() => void>;
  /** Writes to the process's stdout and stderr. */
  out(text: string): void;
  err(text: string): void;
  /** Resolves when the host kills the process. */
  killed: Promise<void>;
}

const ANDROID_MOTION_DOWN = 0;
const ANDROID_MOTION_UP = 1;
const ANDROID_MOTION_MOVE = 2;
const ANDROID_MOTION_CANCEL = 3;
const CODEC_H264 = 0x68323634; // "h264"
const PACKET_FLAG_CONFIG = 1n << 63n;
const PACKET_FLAG_KEY_FRAME = 1n << 62n;

/** Runs the simulated server with the arguments after the class name; returns its exit code. */
export async function runScrcpyServer(args: string[], host: ScrcpyHost): Promise<number> {
  const [version, ...pairs] = args;
  if (version !== SIMULATED_SCRCPY_VERSION) {
    host.err(
      `[server] ERROR: The server version (${SIMULATED_SCRCPY_VERSION}) does not match the ` +
        `client (${version ?? "none"})\n`,
    );
    return 1;
  }
  const options = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0) {
      host.err(`[server] ERROR: Invalid key=value pair: "${pair}"\n`);
      return 1;
    }
    options.set(pair.slice(0, equals), pair.slice(equals + 1));
  }
  const flag = (key: string, fallback: boolean) =>
    options.has(key) ? options.get(key) === "true" : fallback;
  const int = (key: string, fallback: number) => Number(options.get(key) ?? fallback);
  if (!flag("tunnel_forward", false)) {
    host.err(
      "[server] ERROR: the simulator serves the forward tunnel only (tunnel_forward=true): " +
        "the adb front does not open reverse connections\n",
    );
    return 1;
  }
  const codec = options.get("video_codec") ?? "h264";
  if (codec !== "h264") {
    host.err(`[server] ERROR: the simulator encodes h264 only, not ${codec}\n`);
    return 1;
  }
  const video = flag("video", true);
  const audio = flag("audio", true);
  const control = flag("control", true);
  const maxSize = int("max_size", 0);
  if (!Number.isInteger(maxSize) || maxSize < 0 || maxSize % 8 !== 0) {
    host.err(`[server] ERROR: max_size must be a multiple of 8: ${options.get("max_size")}\n`);
    return 1;
  }
  const scid = options.has("scid") ? parseInt(options.get("scid")!, 16) : -1;
  const socketName = scid < 0 ? "scrcpy" : `scrcpy_${scid.toString(16).padStart(8, "0")}`;
  const { phone } = host;
  const videoSize = limitSize(phone.width, phone.height, maxSize);
  host.out(`[server] INFO: Device: [${phone.manufacturer}] ${phone.model} (Android 14)\n`);

  // Accept the sockets in the order the real server does.
  const wanted = [video && "video", audio && "audio", control && "control"].filter(Boolean);
  const accepted: LocalSocketConnection[] = [];
  let acceptNext: (() => void) | undefined;
  const dummyByte = flag("send_dummy_byte", true);
  host.localSockets.set(socketName, (connection) => {
    if (accepted.length >= wanted.length) return connection.close();
    accepted.push(connection);
    // Right after the first accept, so that the client knows the tunnel truly reached the server.
    if (accepted.length === 1 && dummyByte) void connection.write(Uint8Array.of(0));
    acceptNext?.();
  });
  const killed = host.killed.then(() => "killed" as const);
  try {
    while (accepted.length < wanted.length) {
      const next = new Promise<"next">((resolve) => acceptNext = () => resolve("next"));
      if (await Promise.race([next, killed]) === "killed") return 0;
    }
  } finally {
    host.localSockets.delete(socketName);
  }
  const sockets = Object.fromEntries(wanted.map((name, i) => [name, accepted[i]])) as Record<
    string,
    LocalSocketConnection | undefined
  >;
  const first = accepted[0];
  if (flag("send_device_meta", true) && first) {
    const name = Buffer.alloc(64);
    name.write(phone.model.slice(0, 63), "utf8");
    await first.write(name);
  }
  const ended = Promise.race([killed, ...accepted.map((s) => s.closed)]);
  const stops: (() => void)[] = [];
  try {
    if (sockets.audio) {
      // Codec id 0: the device disables the audio stream, and mirroring goes on without it.
      await sockets.audio.write(new Uint8Array(4));
    }
    let restartVideo: () => void = () => {};
    if (sockets.video) {
      const socket = sockets.video;
      if (flag("send_codec_meta", true)) {
        const meta = Buffer.alloc(12);
        meta.writeUInt32BE(CODEC_H264, 0);
        meta.writeUInt32BE(videoSize.width, 4);
        meta.writeUInt32BE(videoSize.height, 8);
        await socket.write(meta);
      }
      const frameMeta = flag("send_frame_meta", true);
      let encoder: { stop(): void } | undefined;
      const startEncoder = () => {
        encoder?.stop();
        encoder = startScreenEncoder(phone, {
          ...videoSize,
          bitRate: int("video_bit_rate", 8_000_000),
          maxFps: int("max_fps", 0),
          onPacket: async (packet) => {
            if (frameMeta) {
              const header = Buffer.alloc(12);
              const flags = packet.config
                ? PACKET_FLAG_CONFIG
                : packet.ptsUs | (packet.keyFrame ? PACKET_FLAG_KEY_FRAME : 0n);
              header.writeBigUInt64BE(flags, 0);
              header.writeUInt32BE(packet.data.length, 8);
              await socket.write(Buffer.concat([header, packet.data]));
            } else await socket.write(packet.data);
          },
          onError: (message) => {
            host.err(`[server] ERROR: ${message}\n`);
            socket.close();
          },
        });
      };
      startEncoder();
      host.videoResets.add(startEncoder);
      stops.push(() => {
        host.videoResets.delete(startEncoder);
        encoder?.stop();
      });
      restartVideo = startEncoder;
    }
    if (sockets.control) {
      const size = sockets.video ? videoSize : { width: phone.width, height: phone.height };
      void readControl(sockets.control, phone, size, () => restartVideo()).catch((error) => {
        host.err(`[server] ERROR: Controller error: ${(error as Error).message}\n`);
      });
    }
    await ended;
    return 0;
  } finally {
    for (const stop of stops) stop();
    for (const socket of accepted) socket.close();
  }
}

/** The video size for a screen and `max_size`: scrcpy's `Size.limit` then `round8`. */
export function limitSize(
  width: number,
  height: number,
  maxSize: number,
): { width: number; height: number } {
  const portrait = height > width;
  let major = portrait ? height : width;
  let minor = portrait ? width : height;
  if (maxSize > 0 && major > maxSize) {
    minor = Math.floor(maxSize * minor / major);
    major = maxSize;
  }
  if ((major & 7) !== 0 || (minor & 7) !== 0) {
    major &= ~7;
    minor = Math.min((minor + 4) & ~7, major);
  }
  return portrait ? { width: minor, height: major } : { width: major, height: minor };
}

// Reads control messages (scrcpy 3.x layout, big-endian) until the socket ends.
async function readControl(
  socket: LocalSocketConnection,
  phone: VirtualPhone,
  size: { width: number; height: number },
  resetVideo: () => void,
): Promise<void> {
  const input = socket.input;
  const fingers = new Map<bigint, { x: number; y: number }>();
  const read = async (length: number): Promise<Buffer> => {
    const bytes = await input.read(length);
    if (!bytes) throw new EndOfControl();
    return bytes;
  };
  const skipSized = async (lengthBytes: number) => {
    const length = (await read(lengthBytes)).readUIntBE(0, lengthBytes);
    if (length > 0) await read(length);
  };
  try {
    while (true) {
      const type = (await read(1))[0];
      switch (type) {
        case 0: { // INJECT_KEYCODE: action, keycode, repeat, meta state
          const body = await read(13);
          if (body[0] === 1) await phone.keyEvent(body.readInt32BE(1));
          break;
        }
        case 1: // INJECT_TEXT
          await phone.inputText((await read((await read(4)).readUInt32BE(0))).toString("utf8"));
          break;
        case 2: { // INJECT_TOUCH_EVENT
          const body = await read(31);
          const action = body[0];
          const id = body.readBigInt64BE(1);
          const x = body.readInt32BE(9);
          const y = body.readInt32BE(13);
          const w = body.readUInt16BE(17);
          const h = body.readUInt16BE(19);
          if (w !== size.width || h !== size.height) break; // generated for another size
          const point = {
            x: Math.round(x * phone.width / size.width),
            y: Math.round(y * phone.height / size.height),
          };
          if (action === ANDROID_MOTION_DOWN || action === ANDROID_MOTION_MOVE) {
            fingers.set(id, point);
          } else if (action === ANDROID_MOTION_UP) fingers.delete(id);
          else if (action === ANDROID_MOTION_CANCEL) fingers.clear();
          else break;
          await phone.multiTouch([...fingers].map(([fid, p]) => ({ id: Number(fid), ...p })));
          break;
        }
        case 3: // INJECT_SCROLL_EVENT: position, h and v scroll, buttons (not simulated)
          await read(20);
          break;
        case 4: // BACK_OR_SCREEN_ON
          if ((await read(1))[0] === 1) await phone.keyEvent(4);
          break;
        case 8: // GET_CLIPBOARD
        case 10: // SET_DISPLAY_POWER
          await read(1);
          break;
        case 9: // SET_CLIPBOARD: sequence, paste, text
          await read(9);
          await skipSized(4);
          break;
        case 12: // UHID_CREATE: id, vendor, product, name (u8 length), descriptor (u16 length)
          await read(6);
          await skipSized(1);
          await skipSized(2);
          break;
        case 13: // UHID_INPUT
          await read(2);
          await skipSized(2);
          break;
        case 14: // UHID_DESTROY
          await read(2);
          break;
        case 16: // START_APP
          await skipSized(1);
          break;
        case 17: // RESET_VIDEO
          resetVideo();
          break;
        case 5:
        case 6:
        case 7:
        case 11:
        case 15:
          break;
        default:
          throw new Error(`Unknown event type: ${type}`);
      }
    }
  } catch (error) {
    if (!(error instanceof EndOfControl)) throw error;
  }
}

class EndOfControl extends Error {}
