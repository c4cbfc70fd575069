/**
 * A tiny PNG writer for offline tests: fake devices need screenshots of a known size.
 *
 * @module
 */

import { SdkRangeError } from "../errors.ts";

/** Options of {@link createTestPng}. */
export interface TestPngOptions {
  /** Fill color as `[red, green, blue]`, each 0-255. Default: light grey `[240, 240, 240]`. */
  color?: readonly [number, number, number];
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

/**
 * Creates a solid-color RGB PNG of the given size and returns it as a `data:image/png;base64,...`
 * URI, the form a device's `screenshotBase64()` returns. Runs in Deno, Node and browsers
 * (it uses `CompressionStream`).
 *
 * @param width image width in pixels (integer >= 1).
 * @param height image height in pixels (integer >= 1).
 * @param options fill color.
 * @returns the PNG as a data URI.
 * @throws {RangeError} when a size is not a positive integer or a color channel is outside 0-255.
 *
 * @example A 1280 x 800 screenshot for a fake device
 * ```ts
 * import { createTestPng } from "@sdk/core/testing";
 *
 * const screenshot = await createTestPng(1280, 800, { color: [255, 255, 255] });
 * console.log(screenshot.startsWith("data:image/png;base64,")); // true
 * ```
 */
export async function createTestPng(
  width: number,
  height: number,
  options: TestPngOptions = {},
): Promise<string> {
  for (const [name, value] of [["width", width], ["height", height]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new SdkRangeError(
        `Cannot create a test PNG as '${name}' must be an integer >= 1: current value is ${value}`,
      );
    }
  }
  const color = options.color ?? [240, 240, 240];
  if (color.some((c) => !Number.isInteger(c) || c < 0 || c > 255)) {
    throw new SdkRangeError(
      `Cannot create a test PNG as 'color' channels must be integers 0-255: current value is [${
        color.join(", ")
      }]`,
    );
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = 2; // color type: RGB
  // compression, filter and interlace methods stay 0

  const rowLength = 1 + width * 3;
  const raw = new Uint8Array(rowLength * height);
  const row = raw.subarray(0, rowLength);
  for (let x = 0; x < width; x++) row.set(color, 1 + x * 3); // filter byte 0 = none
  for (let y = 1; y < height; y++) raw.copyWithin(y * rowLength, 0, rowLength);

  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    png.set(p, offset);
    offset += p.length;
  }
  return `data:image/png;base64,${toBase64(png)}`;
}
