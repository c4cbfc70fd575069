/**
 * Test helpers for `core/image`: builds real PNG/JPEG images with a known pattern and decodes
 * results to check their pixels. Uses the pure-JS codecs, so it works without `--allow-ffi`.
 * Not part of the public API.
 *
 * @module
 */

import { loadJsCodecs } from "./backend.ts";
import { encodeBase64 } from "./base64.ts";
import type { RgbaImage } from "./resample.ts";
import type { ImageMime } from "./size.ts";

/** An RGBA color, 0-255 per channel. */
export type Rgba = [number, number, number, number];

/** Background of the test pattern: a color that is neither white nor red. */
export const BLUE: Rgba = [30, 60, 200, 255];
/** The square of the test pattern. */
export const RED: Rgba = [230, 20, 20, 255];
/** Padding color. */
export const WHITE: Rgba = [255, 255, 255, 255];

/** A rectangle in pixels: `[x, x + w) x [y, y + h)`. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Fills a `width` x `height` image with `bg` and paints `rect` in `fg`. */
export function pattern(
  width: number,
  height: number,
  rect: Rect,
  bg: Rgba = BLUE,
  fg: Rgba = RED,
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h;
      data.set(inside ? fg : bg, (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** Encodes an RGBA image as a data URI (PNG with alpha only when `alpha`). */
export async function toDataUri(
  image: RgbaImage,
  mime: ImageMime,
  alpha = false,
): Promise<string> {
  const codecs = await loadJsCodecs();
  return `data:${mime};base64,${encodeBase64(codecs.encode(image, mime, alpha))}`;
}

/** Decodes a PNG/JPEG data URI to RGBA. */
export async function fromDataUri(dataUri: string): Promise<RgbaImage> {
  const mime = dataUri.startsWith("data:image/png") ? "image/png" : "image/jpeg";
  const body = dataUri.slice(dataUri.indexOf(",") + 1);
  const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  return (await loadJsCodecs()).decode(bytes, mime);
}

/** The color at `(x, y)`. */
export function pixel(image: RgbaImage, x: number, y: number): Rgba {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2], image.data[i + 3]];
}

/** Largest per-channel difference between two colors. */
export function colorDistance(a: Rgba, b: Rgba): number {
  return Math.max(...a.map((v, i) => Math.abs(v - b[i])));
}

/** Base64 of raw bytes, for hand-made headers. */
export function bytesToBase64(bytes: number[] | Uint8Array): string {
  return encodeBase64(Uint8Array.from(bytes));
}
