/**
 * The simulated scrcpy server's video encoder (private to `@sdk/mobilea/testing`): the phone's
 * screen as H.264, encoded by an `ffmpeg` child process (libx264, `ultrafast`, `zerolatency`: no
 * B-frames, one packet out per frame in), and handed over one packet at a time in Annex B, as
 * Android's MediaCodec hands them to the real server: a configuration packet (SPS and PPS) first,
 * then one packet per frame with its key-frame flag.
 *
 * ffmpeg reads raw RGBA frames (its PNG reader holds a frame back until the next one arrives) and
 * writes FLV to its stdout because FLV tags carry their own sizes: every packet is known complete
 * when its tag is, with no wait for the next frame's start code.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import type { VirtualPhone } from "@sdk/web/testing";

/** One encoded packet, as the server writes it. */
export interface EncodedPacket {
  /** SPS and PPS (scrcpy's config packet) rather than a frame. */
  config: boolean;
  /** An IDR frame. */
  keyFrame: boolean;
  /** Presentation time, microseconds since the encoder started. */
  ptsUs: bigint;
  /** Annex B NAL units (start code 00 00 00 01 before each). */
  data: Uint8Array;
}

/** Options of {@link startScreenEncoder}. */
export interface ScreenEncoderOptions {
  /** Video size in pixels (multiples of 8, as the real server rounds them). */
  width: number;
  height: number;
  /** H.264 bit rate, bits/s. */
  bitRate: number;
  /** Frames per second at most; 0 for the default (10: one screen capture takes most of 100 ms). */
  maxFps: number;
  /** Called for each packet, in order. */
  onPacket(packet: EncodedPacket): Promise<void>;
  /** Called once when the encoder stops by itself (ffmpeg failed or exited). */
  onError(message: string): void;
}

/** A running encoder. */
export interface ScreenEncoder {
  /** Stops capturing and ends ffmpeg. */
  stop(): void;
}

const START_CODE = Uint8Array.of(0, 0, 0, 1);
const DEFAULT_FPS = 10;

/**
 * Starts capturing the phone's screen into ffmpeg. Captures that equal the one before are not
 * sent (a still screen sends nothing, as a real display sends no new frame), except once: the
 * real server sets Android's encoder to repeat the previous frame after 100 ms
 * (`repeat-previous-frame-after`), and clients rely on that packet to finish decoding the last
 * change.
 */
export function startScreenEncoder(
  phone: VirtualPhone,
  options: ScreenEncoderOptions,
): ScreenEncoder {
  const child = spawn("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgba",
    "-s",
    `${phone.width}x${phone.height}`,
    "-i",
    "pipe:0",
    "-vf",
    `scale=${options.width}:${options.height}:flags=bilinear`,
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-tune",
    "zerolatency",
    "-pix_fmt",
    "yuv420p",
    "-b:v",
    String(options.bitRate),
    // scrcpy's encoder asks for a key frame every 10 s; frames come at most 10 a second here.
    "-g",
    "100",
    "-x264-params",
    "sliced-threads=0:threads=1",
    "-flush_packets",
    "1",
    "-flvflags",
    "no_duration_filesize",
    "-f",
    "flv",
    "pipe:1",
  ], { stdio: ["pipe", "pipe", "pipe"] });
  let stopped = false;
  let failed = false;
  const started = performance.now();
  const fail = (message: string) => {
    if (stopped || failed) return;
    failed = true;
    options.onError(message);
  };
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => stderr = (stderr + chunk.toString()).slice(-2000));
  child.on("error", (error: Error) => {
    fail(
      (error as { code?: string }).code === "ENOENT"
        ? "ffmpeg was not found on PATH (the simulator encodes the screen with it; " +
          "Debian/Ubuntu: apt-get install --no-install-recommends ffmpeg)"
        : `ffmpeg failed: ${error.message}`,
    );
  });
  child.on("exit", (code) => fail(`ffmpeg exited with ${code}: ${stderr.trim()}`));
  child.stdin.on("error", () => {});

  const flv = new FlvReader();
  let sending = Promise.resolve();
  child.stdout.on("data", (chunk: Buffer) => {
    for (const packet of flv.push(chunk)) {
      const ptsUs = BigInt(Math.round((performance.now() - started) * 1000));
      sending = sending.then(() => options.onPacket({ ...packet, ptsUs })).catch(() => {});
    }
  });

  const interval = 1000 / (options.maxFps > 0 ? options.maxFps : DEFAULT_FPS);
  void (async () => {
    let last: Uint8Array | undefined;
    let lastRgba: Uint8Array | undefined;
    let repeat = false;
    while (!stopped && !failed) {
      const began = performance.now();
      let png: Uint8Array;
      try {
        png = await phone.screenshot();
      } catch (error) {
        fail(`the phone's screen could not be captured: ${(error as Error).message}`);
        return;
      }
      if (stopped) return;
      let frame: Uint8Array | undefined;
      if (!last || !Buffer.from(png).equals(Buffer.from(last))) {
        last = png;
        lastRgba = frame = PNG.sync.read(Buffer.from(png)).data;
        repeat = true;
      } else if (repeat) {
        frame = lastRgba;
        repeat = false;
      }
      if (frame && !child.stdin.write(frame)) {
        await new Promise<void>((resolve) => child.stdin.once("drain", () => resolve()));
      }
      const wait = interval - (performance.now() - began);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();

  return {
    stop(): void {
      if (stopped) return;
      stopped = true;
      child.stdin.end();
      child.kill("SIGKILL");
    },
  };
}

/**
 * Reads ffmpeg's FLV output: the AVC sequence header (an AVCDecoderConfigurationRecord) becomes
 * one config packet of its SPS and PPS, and each AVC NALU tag one frame packet, both in Annex B.
 */
class FlvReader {
  #buffer: Buffer = Buffer.alloc(0);
  #headerRead = false;

  push(chunk: Uint8Array): Omit<EncodedPacket, "ptsUs">[] {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    const packets: Omit<EncodedPacket, "ptsUs">[] = [];
    if (!this.#headerRead) {
      // "FLV", version, flags, header size (u32), then PreviousTagSize0 (u32).
      if (this.#buffer.length < 9) return packets;
      const headerSize = this.#buffer.readUInt32BE(5);
      if (this.#buffer.length < headerSize + 4) return packets;
      this.#buffer = this.#buffer.subarray(headerSize + 4);
      this.#headerRead = true;
    }
    // Tag: type (u8), data size (u24), timestamp (u24 + u8), stream id (u24), data, then the
    // previous tag size (u32).
    while (this.#buffer.length >= 11) {
      const size = this.#buffer.readUIntBE(1, 3);
      if (this.#buffer.length < 11 + size + 4) break;
      const type = this.#buffer[0];
      const data = this.#buffer.subarray(11, 11 + size);
      this.#buffer = this.#buffer.subarray(11 + size + 4);
      if (type !== 9 || data.length < 5 || (data[0] & 0x0f) !== 7) continue;
      const keyFrame = data[0] >> 4 === 1;
      const body = data.subarray(5);
      if (data[1] === 0) packets.push({ config: true, keyFrame: false, data: configNals(body) });
      else if (data[1] === 1) packets.push({ config: false, keyFrame, data: lengthToAnnexB(body) });
    }
    return packets;
  }
}

// AVCDecoderConfigurationRecord: 5 header bytes, the SPS count (low 5 bits) and each SPS with a
// u16 length, then the PPS count and each PPS with a u16 length.
function configNals(record: Buffer): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 5;
  for (const countMask of [0x1f, 0xff]) {
    const count = record[offset++] & countMask;
    for (let i = 0; i < count; i++) {
      const length = record.readUInt16BE(offset);
      parts.push(START_CODE, record.subarray(offset + 2, offset + 2 + length));
      offset += 2 + length;
    }
  }
  return Buffer.concat(parts);
}

// FLV's AVC NALUs are each preceded by a 4-byte big-endian length; Annex B puts a start code there.
function lengthToAnnexB(body: Buffer): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset + 4 <= body.length;) {
    const length = body.readUInt32BE(offset);
    parts.push(START_CODE, body.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return Buffer.concat(parts);
}
