/**
 * Reads an image's pixel size from a `data:` URI by looking at the PNG or JPEG header (prompt
 * images may also be GIF or WebP), the way a model server learns what it was sent. Private to
 * `@sdk/core/testing`.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";

/** Pixel size of an image. */
export interface ImageSize {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/** A screenshot as a model server received it: its size, real format and byte count. */
export interface ReceivedScreenshot extends ImageSize {
  /** The format read from the image bytes (not from the URI's media type, which must agree). */
  format: "png" | "jpeg";
  /** Size of the decoded image file in bytes. */
  bytes: number;
}

/** What {@link readDataUriImage} found. */
export interface DataUriImage extends ImageSize {
  /** Media type from the URI, e.g. `"image/png"`. */
  mime: string;
  /** Length of the base64 payload, for logs that leave the data out. */
  base64Length: number;
}

/**
 * Decodes the image header of a base64 `data:` URI.
 *
 * @throws {TypeError} when the URI is not a base64 data URI, the bytes are neither PNG nor JPEG,
 *   or the URI's media type names the other format.
 */
export function readDataUriImage(uri: string): DataUriImage & ReceivedScreenshot {
  const match = /^data:([^;,]+)(;[^,]*)?,/.exec(uri);
  if (!match || !(match[2] ?? "").includes(";base64")) {
    throw new SdkTypeError(
      `image_url is not a base64 data URI: it starts with "${uri.slice(0, 40)}"`,
    );
  }
  const payload = uri.slice(match[0].length);
  const bytes = decodeBase64(payload);
  const png = pngSize(bytes);
  const size = png ?? jpegSize(bytes);
  if (!size) {
    throw new SdkTypeError(
      `image data (${match[1]}) is neither PNG nor JPEG: first bytes ${
        Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ")
      }`,
    );
  }
  const format = png ? "png" : "jpeg";
  if (match[1].toLowerCase() !== `image/${format}`) {
    throw new SdkTypeError(
      `image_url says ${match[1]} but its bytes are a ${format.toUpperCase()}`,
    );
  }
  return {
    ...size,
    format,
    bytes: bytes.length,
    mime: match[1],
    base64Length: payload.length,
  };
}

/**
 * The screenshot facts a call records (size, format, bytes), from its data URI.
 *
 * @throws {TypeError} as {@link readDataUriImage}.
 */
export function receivedScreenshot(uri: string): ReceivedScreenshot {
  const { width, height, format, bytes } = readDataUriImage(uri);
  return { width, height, format, bytes };
}

/**
 * Decodes the header of a base64 `data:` URI of a PNG, JPEG, GIF or WebP image: the formats a
 * prompt image (spec 2.5) may have.
 *
 * @throws {TypeError} when the URI is not a base64 data URI or the bytes are none of these.
 */
export function readAnyDataUriImage(uri: string): DataUriImage {
  const match = /^data:([^;,]+)(;[^,]*)?,/.exec(uri);
  if (!match || !(match[2] ?? "").includes(";base64")) {
    throw new SdkTypeError(
      `image_url is not a base64 data URI: it starts with "${uri.slice(0, 40)}"`,
    );
  }
  const payload = uri.slice(match[0].length);
  const bytes = decodeBase64(payload);
  const size = pngSize(bytes) ?? jpegSize(bytes) ?? gifSize(bytes) ?? webpSize(bytes);
  if (!size) {
    throw new SdkTypeError(
      `image data (${match[1]}) is not a PNG, JPEG, GIF or WebP image: first bytes ${
        Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ")
      }`,
    );
  }
  return { ...size, mime: match[1], base64Length: payload.length };
}

function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  let binary: string;
  try {
    binary = atob(clean);
  } catch {
    throw new SdkTypeError("image data URI holds invalid base64");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24) return undefined;
  for (let i = 0; i < PNG_SIGNATURE.length; i++) {
    if (bytes[i] !== PNG_SIGNATURE[i]) return undefined;
  }
  // The first chunk is IHDR: length (4), type (4), then width and height as big-endian u32.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 &&
      marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      const height = (bytes[offset + 5] << 8) | bytes[offset + 6];
      const width = (bytes[offset + 7] << 8) | bytes[offset + 8];
      return { width, height };
    }
    offset += 2 + length;
  }
  return undefined;
}

const ascii = (bytes: Uint8Array, from: number, text: string): boolean =>
  [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));

function gifSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 10 || !(ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a"))) {
    return undefined;
  }
  // The logical screen descriptor: width and height as little-endian u16.
  return { width: bytes[6] | (bytes[7] << 8), height: bytes[8] | (bytes[9] << 8) };
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 30 || !ascii(bytes, 0, "RIFF") || !ascii(bytes, 8, "WEBP")) return undefined;
  const le = (at: number, n: number) => {
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v = v * 256 + bytes[at + i];
    return v;
  };
  if (ascii(bytes, 12, "VP8X")) return { width: le(24, 3) + 1, height: le(27, 3) + 1 };
  if (ascii(bytes, 12, "VP8L") && bytes[20] === 0x2f) {
    // 14 bits of width - 1, then 14 bits of height - 1, little-endian from byte 21.
    const bits = le(21, 4);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(bytes, 12, "VP8 ")) {
    // Lossy: after the 3-byte frame tag and the start code 9d 01 2a, two 14-bit sizes.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
    return { width: le(26, 2) & 0x3fff, height: le(28, 2) & 0x3fff };
  }
  return undefined;
}
