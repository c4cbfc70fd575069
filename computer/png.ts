/**
 * Raw screen pixels to PNG. nut-js grabs the X screen as BGRA (or RGBA) with every alpha byte 0,
 * which a PNG viewer and a model would see as fully transparent; the screen is opaque, so the
 * encoder writes alpha 255.
 *
 * Pure JavaScript with the runtime's `CompressionStream` (zlib), so no image library loads.
 *
 * @module
 */

/** Pixels as nut-js hands them over: 4 bytes per pixel, rows `byteWidth` bytes apart. */
export interface RawScreenImage {
  /** Width, physical pixels. */
  width: number;
  /** Height, physical pixels. */
  height: number;
  /** Pixel bytes. */
  data: Uint8Array;
  /** Bytes per row (at least `width * 4`). */
  byteWidth: number;
  /** `"bgr"` when the first byte of a pixel is blue (nut-js's default), else `"rgb"`. */
  order: "bgr" | "rgb";
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
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
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

/**
 * The image's rows as PNG scanlines (filter byte 0, then RGBA), channels in RGB order and every
 * alpha byte 255.
 */
function opaqueScanlines(image: RawScreenImage): Uint8Array {
  const { width, height, data, byteWidth } = image;
  const stride = width * 4 + 1;
  const out = new Uint8Array(stride * height);
  const [r, b] = image.order === "bgr" ? [2, 0] : [0, 2];
  for (let y = 0; y < height; y++) {
    let src = y * byteWidth;
    let dst = y * stride + 1;
    for (let x = 0; x < width; x++, src += 4, dst += 4) {
      out[dst] = data[src + r];
      out[dst + 1] = data[src + 1];
      out[dst + 2] = data[src + b];
      out[dst + 3] = 255;
    }
  }
  return out;
}

/**
 * Encodes the image as an opaque RGBA PNG (8 bits per channel).
 *
 * @returns the PNG file's bytes.
 */
export async function encodeOpaquePng(image: RawScreenImage): Promise<Uint8Array> {
  const stream = new Blob([opaqueScanlines(image) as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("deflate"));
  const compressed = new Uint8Array(await new Response(stream).arrayBuffer());
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, image.width);
  view.setUint32(4, image.height);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", compressed),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
