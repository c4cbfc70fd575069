/**
 * Pixel operations on RGBA buffers for the backends that have no resizer of their own (the
 * pure-JS fallback). Internal to `core/image`.
 *
 * @module
 */

import { SdkRangeError } from "../errors.ts";

/** An RGBA image: 4 bytes per pixel, rows top to bottom, no row padding. */
export interface RgbaImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** `width * height * 4` bytes. */
  data: Uint8Array;
}

/** Per-output-pixel source spans and weights along one axis. */
interface AxisWeights {
  start: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  taps: number;
}

/**
 * Area-averaging (box) weights: each output pixel covers `src / dst` source pixels, and each
 * source pixel counts by how much of it lies under the output pixel. Exact for any ratio, which
 * keeps a shrink by 1.5 or 2.5 as faithful as a shrink by 2.
 */
function axisWeights(src: number, dst: number): AxisWeights {
  const scale = src / dst;
  const taps = Math.ceil(scale) + 1;
  const start = new Int32Array(dst);
  const count = new Int32Array(dst);
  const weights = new Float32Array(dst * taps);
  for (let o = 0; o < dst; o++) {
    const lo = o * scale;
    const hi = Math.min(src, (o + 1) * scale);
    const first = Math.floor(lo);
    let n = 0;
    let sum = 0;
    for (let s = first; s < hi && n < taps; s++, n++) {
      const w = Math.min(hi, s + 1) - Math.max(lo, s);
      weights[o * taps + n] = w;
      sum += w;
    }
    for (let k = 0; k < n; k++) weights[o * taps + k] /= sum;
    start[o] = first;
    count[o] = n;
  }
  return { start, count, weights, taps };
}

/**
 * Resizes with an area-averaging (box) filter, horizontal pass then vertical pass. Channels are
 * averaged as stored (not alpha-premultiplied) so images whose alpha is meaningless (some screen
 * grabbers return alpha 0) keep their colors.
 *
 * @throws {RangeError} when a target dimension is not a positive integer.
 */
export function resizeBox(image: RgbaImage, width: number, height: number): RgbaImage {
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) {
    throw new SdkRangeError(`Target size must be positive integers, got ${width}x${height}`);
  }
  const { width: sw, height: sh, data: src } = image;
  if (sw === width && sh === height) return { width, height, data: src.slice() };

  // Horizontal: sw x sh -> width x sh, kept in floats to round only once.
  const hx = axisWeights(sw, width);
  const mid = new Float32Array(width * sh * 4);
  for (let y = 0; y < sh; y++) {
    const row = y * sw * 4;
    const out = y * width * 4;
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      let p = row + hx.start[x] * 4;
      const wBase = x * hx.taps;
      for (let k = 0; k < hx.count[x]; k++, p += 4) {
        const w = hx.weights[wBase + k];
        r += src[p] * w;
        g += src[p + 1] * w;
        b += src[p + 2] * w;
        a += src[p + 3] * w;
      }
      const q = out + x * 4;
      mid[q] = r;
      mid[q + 1] = g;
      mid[q + 2] = b;
      mid[q + 3] = a;
    }
  }

  // Vertical: width x sh -> width x height.
  const vy = axisWeights(sh, height);
  const rowLen = width * 4;
  const data = new Uint8Array(width * height * 4);
  const acc = new Float32Array(rowLen);
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    const wBase = y * vy.taps;
    for (let k = 0; k < vy.count[y]; k++) {
      const w = vy.weights[wBase + k];
      const srcRow = (vy.start[y] + k) * rowLen;
      for (let i = 0; i < rowLen; i++) acc[i] += mid[srcRow + i] * w;
    }
    const out = y * rowLen;
    for (let i = 0; i < rowLen; i++) data[out + i] = Math.round(acc[i]); // values stay in 0..255
  }
  return { width, height, data };
}

/**
 * Places the image at the top-left of a `width` x `height` opaque white canvas (padding on the
 * right and bottom only, so model coordinates of the content do not move).
 *
 * @throws {RangeError} when the target is smaller than the image.
 */
export function padRightBottomWhite(image: RgbaImage, width: number, height: number): RgbaImage {
  if (width < image.width || height < image.height) {
    throw new SdkRangeError(
      `Cannot pad ${image.width}x${image.height} down to ${width}x${height}`,
    );
  }
  if (width === image.width && height === image.height) return image;
  const data = new Uint8Array(width * height * 4).fill(255);
  const srcRow = image.width * 4;
  for (let y = 0; y < image.height; y++) {
    data.set(image.data.subarray(y * srcRow, (y + 1) * srcRow), y * width * 4);
  }
  return { width, height, data };
}
