/**
 * Crops a region out of a PNG or JPEG screenshot and scales it, for deepLocate's second, zoomed
 * call. Same backends as `prepare.ts`: sharp when it loads, OffscreenCanvas in a browser page,
 * else the pure-JS codecs.
 *
 * @module
 */

import { SdkRangeError } from "../errors.ts";
import { decodeBase64, encodeBase64 } from "./base64.ts";
import { loadImageBackend } from "./backend.ts";
import { readImageInput } from "./size.ts";

/** A region in pixels of the input image; integers, inside the image. */
export interface CropRegion {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** Width, > 0. */
  width: number;
  /** Height, > 0. */
  height: number;
}

/** A cropped (and scaled) image. */
export interface CroppedImage {
  /** Data URI, same format as the input. */
  dataUri: string;
  /** Width in pixels: `round(region.width * scale)`. */
  width: number;
  /** Height in pixels: `round(region.height * scale)`. */
  height: number;
}

/**
 * Cuts `region` out of the image and scales it by `scale` (> 0; above 1 enlarges it).
 *
 * @throws {RangeError} when the region is empty, not integral, or outside the image, or `scale`
 *   is not a positive finite number.
 * @throws {TypeError} when the input is not a PNG/JPEG data URI.
 */
export async function cropImage(
  dataUri: string,
  region: CropRegion,
  scale = 1,
): Promise<CroppedImage> {
  const input = readImageInput(dataUri);
  const { left, top, width, height } = region;
  if (
    ![left, top, width, height].every(Number.isInteger) || width <= 0 || height <= 0 ||
    left < 0 || top < 0 || left + width > input.width || top + height > input.height
  ) {
    throw new SdkRangeError(
      `crop region ${
        JSON.stringify(region)
      } is not inside the ${input.width}x${input.height} image`,
    );
  }
  if (!(Number.isFinite(scale) && scale > 0)) {
    throw new SdkRangeError(`crop scale must be a positive number, got ${scale}`);
  }
  const outW = Math.max(1, Math.round(width * scale));
  const outH = Math.max(1, Math.round(height * scale));
  const bytes = decodeBase64(input.base64);
  const backend = await loadImageBackend();
  const out = await backend.crop(bytes, input.mime, region, outW, outH);
  return { dataUri: `data:${input.mime};base64,${encodeBase64(out)}`, width: outW, height: outH };
}
