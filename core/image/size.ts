/**
 * Reads the pixel size and format of a PNG or JPEG screenshot from its header bytes, without
 * decoding the image: the agent needs the size on every step, and decoding would cost tens of
 * milliseconds on a large screenshot.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import { decodeBase64Prefix } from "./base64.ts";

/** The image formats the pipeline accepts and produces. */
export type ImageMime = "image/png" | "image/jpeg";

/** Size of an image in pixels, and its format. */
export interface ImageSize {
  /** Width in pixels (> 0). */
  width: number;
  /** Height in pixels (> 0). */
  height: number;
  /** Format, read from the magic bytes. */
  mime: ImageMime;
}

/**
 * An image input split into its parts. Internal to `core/image` (not re-exported by `mod.ts`).
 */
export interface ImageInput extends ImageSize {
  /** The base64 body (without any `data:` prefix). */
  base64: string;
  /** True when the input was a `data:` URI, false for a raw base64 body. */
  isDataUri: boolean;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The PNG signature + IHDR size fields end at byte 24. */
const PNG_HEADER_BYTES = 24;
/** First JPEG read: enough when no large EXIF/ICC segment precedes the SOF. */
const JPEG_FIRST_READ_BYTES = 2048;

/**
 * Reads the size and format of a PNG or JPEG image.
 *
 * @param dataUri A `data:image/png;base64,...` or `data:image/jpeg;base64,...` URI, or a raw
 *   base64 body (the format is then taken from the magic bytes).
 * @returns Width and height in pixels, and the format. For PNG the size comes from the IHDR chunk;
 *   for JPEG from the first SOFn marker (EXIF orientation is not applied).
 * @throws {TypeError} when the input is not a string, is not base64, declares a type other than
 *   PNG/JPEG, declares one type but holds the other, holds another format (GIF, WebP...), or is
 *   truncated or corrupt before its size.
 */
export function imageSizeFromDataUri(dataUri: string): ImageSize {
  const { width, height, mime } = readImageInput(dataUri);
  return { width, height, mime };
}

/**
 * Splits and checks an image input and reads its size. Internal to `core/image`.
 *
 * @throws {TypeError} as {@link imageSizeFromDataUri}.
 */
export function readImageInput(input: string): ImageInput {
  if (typeof input !== "string") {
    throw new SdkTypeError(`Expected an image data URI or base64 string, got ${typeof input}`);
  }
  let base64 = input;
  let declared: ImageMime | undefined;
  const isDataUri = input.slice(0, 5).toLowerCase() === "data:";
  if (isDataUri) {
    const comma = input.indexOf(",");
    if (comma < 0) throw new SdkTypeError("Image data URI has no comma before its data");
    const [type, ...params] = input.slice(5, comma).split(";").map((p) => p.trim().toLowerCase());
    if (!params.includes("base64")) {
      throw new SdkTypeError(`Image data URI is not base64-encoded (";base64" missing)`);
    }
    declared = declaredMime(type);
    base64 = input.slice(comma + 1);
  }
  if (base64.trim() === "") throw new SdkTypeError("Image data is empty");

  let bytes = decodeBase64Prefix(base64, PNG_HEADER_BYTES);
  const mime = sniffMime(bytes);
  if (declared && declared !== mime) {
    throw new SdkTypeError(
      `Image data URI declares ${declared} but its bytes are ${
        mime === "image/png" ? "PNG" : "JPEG"
      }`,
    );
  }
  if (mime === "image/png") return { ...pngSize(bytes), mime, base64, isDataUri };

  // A JPEG's SOF can sit behind large EXIF/ICC segments: read further, growing 4x each time so
  // the total decoded stays within a small multiple of what is needed.
  for (let want = JPEG_FIRST_READ_BYTES;; want *= 4) {
    bytes = decodeBase64Prefix(base64, want);
    const size = jpegSize(bytes, bytes.length < want);
    if (size) return { ...size, mime, base64, isDataUri };
  }
}

function declaredMime(type: string): ImageMime | undefined {
  if (type === "image/png") return "image/png";
  if (type === "image/jpeg" || type === "image/jpg") return "image/jpeg";
  // No type (RFC 2397 default) or a generic one: trust the magic bytes.
  if (type === "" || type === "application/octet-stream") return undefined;
  throw new SdkTypeError(
    `Unsupported image type "${type}" in data URI: expected image/png or image/jpeg`,
  );
}

function sniffMime(b: Uint8Array): ImageMime {
  if (PNG_SIGNATURE.every((v, i) => b[i] === v)) return "image/png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  const ascii = String.fromCharCode(...b.subarray(0, 12));
  const known = ascii.startsWith("GIF8")
    ? "GIF"
    : ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP"
    ? "WebP"
    : ascii.startsWith("BM")
    ? "BMP"
    : undefined;
  const first = Array.from(b.subarray(0, 8), (v) => v.toString(16).padStart(2, "0")).join(" ");
  throw new SdkTypeError(
    known
      ? `Image is ${known}: expected PNG or JPEG`
      : `Image data is neither PNG nor JPEG (first bytes: ${first || "none"})`,
  );
}

function pngSize(b: Uint8Array): { width: number; height: number } {
  if (b.length < 24) throw new SdkTypeError("PNG is truncated before its IHDR chunk");
  const chunkType = String.fromCharCode(b[12], b[13], b[14], b[15]);
  if (chunkType !== "IHDR") {
    throw new SdkTypeError(`Corrupt PNG: first chunk is "${chunkType}", expected "IHDR"`);
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0) {
    throw new SdkTypeError(`PNG has a zero size (${width}x${height})`);
  }
  return { width, height };
}

/** SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * Walks the JPEG segments to the first SOFn. Returns undefined when more bytes are needed and
 * `complete` is false.
 */
function jpegSize(b: Uint8Array, complete: boolean): { width: number; height: number } | undefined {
  const truncated = (): undefined => {
    if (complete) throw new SdkTypeError("JPEG is truncated before its size (SOF) marker");
    return undefined;
  };
  let i = 2; // after SOI
  for (;;) {
    if (i >= b.length) return truncated();
    if (b[i] !== 0xff) {
      throw new SdkTypeError(`Corrupt JPEG: expected a marker at byte ${i}`);
    }
    while (b[i] === 0xff) i++; // fill bytes
    if (i >= b.length) return truncated();
    const marker = b[i++];
    // Standalone markers carry no length.
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xda || marker === 0xd9) {
      throw new SdkTypeError("Corrupt JPEG: image data starts before any size (SOF) marker");
    }
    if (i + 2 > b.length) return truncated();
    const length = (b[i] << 8) | b[i + 1];
    if (length < 2) throw new SdkTypeError(`Corrupt JPEG: segment length ${length} at byte ${i}`);
    if (isStartOfFrame(marker)) {
      if (i + 7 > b.length) return truncated();
      const height = (b[i + 3] << 8) | b[i + 4];
      const width = (b[i + 5] << 8) | b[i + 6];
      if (width === 0 || height === 0) {
        throw new SdkTypeError(`JPEG has a zero size (${width}x${height})`);
      }
      return { width, height };
    }
    i += length;
  }
}
