/**
 * WebDriverAgent's MJPEG stream as a frame source for the observer (spec 4.4 rule 3,
 * `driverMjpegFrameSource`). WDA's MJPEG server (port 9100 by default, `FBMjpegServer.m`) answers
 * any connection with `multipart/x-mixed-replace` and then writes, per frame,
 * `--BoundaryString\r\nContent-type: image/jpg\r\nContent-Length: N\r\n\r\n<JPEG>\r\n\r\n`. The
 * frames are scaled and compressed by WDA (its `mjpegScalingFactor` and quality settings), so
 * they may be smaller than the screenshot.
 *
 * The stream is read with `node:http` rather than `fetch`: its socket can be unref'd, so an
 * observation left running does not keep a script alive (a `fetch` body being read does).
 *
 * @module
 */

import { type ClientRequest, get, type IncomingMessage } from "node:http";
import { setTimeout } from "node:timers";
import { ConnectionError, encodeBase64, holdOpen, ToolError } from "@sdk/core";
import type { FrameStream, FrameStreamOptions } from "@sdk/core";
import { DEFAULT_DRIVER_CONNECT_TIMEOUT_MS, describeCause, isRefused, WDA_TOOL } from "./wda.ts";

const HEADER_END = new Uint8Array([13, 10, 13, 10]);
// A part's headers are a few dozen bytes; more without a blank line means this is not MJPEG.
const MAX_HEADER_BYTES = 4096;

/**
 * Splits a multipart MJPEG byte stream into JPEG frames. Each part's `Content-Length` gives the
 * frame's size; a part without one ends at the JPEG end marker (FF D9).
 */
export class MjpegParser {
  #buffer: Uint8Array = new Uint8Array(0);
  readonly #onFrame: (jpeg: Uint8Array) => void;

  /** A parser that calls `onFrame` with each complete JPEG. */
  constructor(onFrame: (jpeg: Uint8Array) => void) {
    this.#onFrame = onFrame;
  }

  /**
   * Feeds the next bytes of the stream.
   *
   * @throws {ToolError} when a part has no header end within 4096 bytes (not an MJPEG stream).
   */
  push(chunk: Uint8Array): void {
    this.#buffer = concat(this.#buffer, chunk);
    while (this.#next()) { /* each call takes one frame off the buffer */ }
  }

  #next(): boolean {
    const buffer = this.#buffer;
    const headerEnd = indexOf(buffer, HEADER_END, 0);
    if (headerEnd < 0) {
      if (buffer.length > MAX_HEADER_BYTES) {
        throw new ToolError(
          "the MJPEG stream has a part without headers (is this WDA's MJPEG port?)",
          { tool: WDA_TOOL },
        );
      }
      return false;
    }
    const headers = new TextDecoder().decode(buffer.subarray(0, headerEnd));
    const start = headerEnd + HEADER_END.length;
    const length = /content-length:\s*(\d+)/i.exec(headers);
    let end: number;
    if (length) {
      end = start + Number(length[1]);
      if (buffer.length < end) return false;
    } else {
      if (!/content-type:\s*image\//i.test(headers)) {
        // Blank lines between parts (WDA ends each frame with two CRLFs): skip them.
        this.#buffer = buffer.subarray(start);
        return true;
      }
      const eoi = indexOf(buffer, new Uint8Array([0xff, 0xd9]), start);
      if (eoi < 0) return false;
      end = eoi + 2;
    }
    this.#onFrame(buffer.slice(start, end));
    this.#buffer = buffer.subarray(end);
    return true;
  }
}

/**
 * Connects to an MJPEG server and calls `options.onFrame` with each frame (base64 JPEG), no more
 * often than `options.minIntervalMs`. Resolves once the server has answered; holds the process
 * open until then. The stream itself (its socket) never keeps the process alive: a script that
 * ends while observing exits.
 *
 * @param url the stream's address, e.g. `http://localhost:9100/`.
 * @param onError called once when the stream fails after it started (not after `stop()`).
 * @param connectTimeoutMs how long to wait for the server's answer; default 5000.
 * @throws {ConnectionError} naming `url` and the start option when nothing listens (`refused`),
 * nothing answers in time (`timeout`) or the connection drops (`lost`).
 * @throws {ToolError} (tool `"WebDriverAgent"`) when the server answers with an HTTP error.
 */
export async function startMjpegStream(
  url: string,
  options: FrameStreamOptions,
  onError: (error: Error) => void,
  connectTimeoutMs = DEFAULT_DRIVER_CONNECT_TIMEOUT_MS,
): Promise<FrameStream> {
  const endpoint = new URL(url).host;
  const help = `WDA serves it on its mjpegServerPort (9100 by default; forward it with \`iproxy ` +
    `9100 9100\` for a device on USB), or set driverMjpegPort; without driverMjpegFrameSource the ` +
    `observer takes screenshots instead.`;
  let request: ClientRequest | undefined;
  const response = await holdOpen(
    new Promise<IncomingMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new ConnectionError(
            `Cannot read WebDriverAgent's MJPEG stream at ${url}: no answer within ` +
              `${connectTimeoutMs} ms (driverConnectTimeout). ${help}`,
            { kind: "timeout", endpoint },
          ),
        );
        request?.destroy();
      }, connectTimeoutMs);
      request = get(url, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      // The stream's socket lets the process exit; the wait above holds it open meanwhile.
      request.on("socket", (socket) => socket.unref());
      request.on("error", (error) => {
        clearTimeout(timer);
        reject(
          new ConnectionError(
            `Cannot read WebDriverAgent's MJPEG stream at ${url}: ${describeCause(error)}. ${help}`,
            { kind: isRefused(error) ? "refused" : "lost", endpoint },
            { cause: error },
          ),
        );
      });
    }),
  );
  if (response.statusCode !== 200) {
    response.destroy();
    throw new ToolError(
      `Cannot read WebDriverAgent's MJPEG stream at ${url}: it answered HTTP ${response.statusCode}`,
      { tool: WDA_TOOL, status: response.statusCode },
    );
  }
  let stopped = false;
  let last = -Infinity;
  const parser = new MjpegParser((jpeg) => {
    const now = Date.now();
    if (stopped || now - last < (options.minIntervalMs ?? 0)) return;
    last = now;
    options.onFrame({ data: encodeBase64(jpeg), format: "jpeg", timestamp: now });
  });
  let failed = false;
  const fail = (error: Error) => {
    if (stopped || failed) return;
    failed = true;
    onError(error);
  };
  const closed = new Promise<void>((resolve) => response.once("close", resolve));
  response.on("data", (chunk: Uint8Array) => {
    try {
      parser.push(chunk);
    } catch (error) {
      fail(error as Error);
      response.destroy();
    }
  });
  response.on("end", () =>
    fail(
      new ConnectionError(`WebDriverAgent's MJPEG stream at ${url} ended`, {
        kind: "lost",
        endpoint,
      }),
    ));
  response.on("error", (error: Error) =>
    fail(
      new ConnectionError(
        `WebDriverAgent's MJPEG stream at ${url} failed: ${error.message}`,
        { kind: "lost", endpoint },
        { cause: error },
      ),
    ));
  return {
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      response.destroy();
      await closed;
    },
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}
