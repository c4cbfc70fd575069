/**
 * The mirror stream's decoder: H.264 (Annex B, as the scrcpy server sends it) in, one JPEG per
 * decoded frame out, through an `ffmpeg` child process (looked up on `PATH`, or the path given).
 *
 * ffmpeg's H.264 reader knows a frame is complete when the next packet arrives, so a frame comes
 * out one packet late: the scrcpy server repeats the last frame 100 ms after the screen stopped
 * changing (Android's encoder is set to `repeat-previous-frame-after`), which brings it out.
 *
 * @module
 */

import type { ChildProcess } from "node:child_process";
import { adoptChild, childEnv, MissingDependencyError, ToolError } from "@sdk/core";

/** How to install ffmpeg, for error messages. */
export const INSTALL_FFMPEG_HINT: string =
  "install ffmpeg (Debian/Ubuntu: `apt-get install --no-install-recommends ffmpeg`; macOS: " +
  "`brew install ffmpeg`; Windows: `winget install ffmpeg`) or set mirrorConfig.ffmpegPath";

// JPEG quality scale of ffmpeg's MJPEG encoder: 2 (best) to 31; 3 keeps text crisp.
const JPEG_QSCALE = "3";

/** A running decoder. */
export interface FrameDecoder {
  /** Writes one packet (Annex B NAL units). */
  write(packet: Uint8Array): void;
  /** Ends ffmpeg. */
  close(): void;
}

/** Callbacks of {@link startFrameDecoder}. */
export interface FrameDecoderHandlers {
  /** Called with each decoded frame as a complete JPEG file. */
  onFrame(jpeg: Uint8Array): void;
  /** Called once when ffmpeg ends by itself, with why. */
  onExit(reason: string): void;
}

/**
 * Starts ffmpeg, adopted (`adoptChild` of `@sdk/core`): it does not keep the process alive and
 * ends with it, however the process ends. Its environment is `childEnv()` of `@sdk/core` (`PATH`,
 * `HOME`, the locale), none of the program's keys.
 *
 * @throws {MissingDependencyError} (`ffmpeg`) saying how to install ffmpeg when `ffmpegPath` is
 * not there.
 * @throws {ToolError} when it cannot be run for another reason.
 */
export async function startFrameDecoder(
  ffmpegPath: string,
  handlers: FrameDecoderHandlers,
): Promise<FrameDecoder> {
  const { spawn } = await import("node:child_process");
  // ffmpeg needs nothing of this process's environment beyond PATH, HOME and the locale.
  const child: ChildProcess = spawn(ffmpegPath, [
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    "-probesize",
    "32",
    "-analyzeduration",
    "0",
    // One decoding thread and low delay: frames come out as they go in, not a few frames late
    // (`-fflags nobuffer` would hold them back altogether when reading a pipe).
    "-threads",
    "1",
    "-flags",
    "low_delay",
    "-f",
    "h264",
    "-i",
    "pipe:0",
    "-vsync",
    "passthrough",
    // The encoder's frame threads would hold each JPEG back until later frames arrive.
    "-threads",
    "1",
    "-c:v",
    "mjpeg",
    "-q:v",
    JPEG_QSCALE,
    "-f",
    "image2pipe",
    "pipe:1",
  ], { stdio: ["pipe", "pipe", "pipe"], env: childEnv() });
  adoptChild(child);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", (error: Error & { code?: string }) => {
      reject(
        error.code === "ENOENT"
          ? new MissingDependencyError(
            `ffmpeg was not found (${JSON.stringify(ffmpegPath)}): the mirror stream decodes ` +
              `H.264 with it. To use the mirror, ${INSTALL_FFMPEG_HINT}`,
            "ffmpeg",
            { cause: error },
          )
          : new ToolError(`Cannot run ffmpeg (${JSON.stringify(ffmpegPath)}): ${error.message}`, {
            tool: "ffmpeg",
            output: error.message,
          }, { cause: error }),
      );
    });
  });
  let closed = false;
  let stderr = "";
  child.stderr!.on("data", (chunk: Uint8Array) => {
    stderr = (stderr + new TextDecoder().decode(chunk)).slice(-1000);
  });
  child.stdin!.on("error", () => {});
  child.on("exit", (code, signal) => {
    if (closed) return;
    closed = true;
    handlers.onExit(`ffmpeg exited (${signal ?? code}): ${stderr.trim() || "no message"}`);
  });
  const jpegs = new JpegSplitter();
  child.stdout!.on("data", (chunk: Uint8Array) => {
    for (const jpeg of jpegs.push(chunk)) handlers.onFrame(jpeg);
  });
  return {
    write(packet: Uint8Array): void {
      if (closed) return;
      child.stdin!.write(packet);
    },
    close(): void {
      if (closed) return;
      closed = true;
      child.stdin!.end();
      child.kill("SIGKILL");
    },
  };
}

/**
 * Cuts ffmpeg's stream of JPEG files at each end-of-image marker (FF D9). Inside a JPEG's
 * entropy-coded data every FF byte is followed by 00, so FF D9 only ends an image.
 */
export class JpegSplitter {
  #pending: Uint8Array[] = [];
  #pendingLength = 0;
  #lastByteFF = false;

  /** Adds bytes; returns the images completed by them. */
  push(chunk: Uint8Array): Uint8Array[] {
    const images: Uint8Array[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const ff = i === 0 ? this.#lastByteFF : chunk[i - 1] === 0xff;
      if (chunk[i] === 0xd9 && ff) {
        this.#pending.push(chunk.subarray(start, i + 1));
        this.#pendingLength += i + 1 - start;
        images.push(this.#take());
        start = i + 1;
      }
    }
    if (start < chunk.length) {
      this.#pending.push(chunk.slice(start));
      this.#pendingLength += chunk.length - start;
    }
    this.#lastByteFF = chunk.length > 0 ? chunk[chunk.length - 1] === 0xff : this.#lastByteFF;
    return images;
  }

  #take(): Uint8Array {
    const image = new Uint8Array(this.#pendingLength);
    let offset = 0;
    for (const part of this.#pending) {
      image.set(part, offset);
      offset += part.length;
    }
    this.#pending = [];
    this.#pendingLength = 0;
    return image;
  }
}
