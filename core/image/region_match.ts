/**
 * Whether a region of the screen still shows what it showed: the target check of a device that
 * cannot name the element at a point (the desktop, RDP, a custom device; docs/model-protocol.md,
 * "Target checks"). The region is cut out of both screenshots, scaled to gray levels and compared
 * with SSIM (npm `ssim.js`, loaded on first use), which a caret blink, a hover tint or a focus
 * ring barely moves and other text or another widget in the region drops far.
 *
 * @module
 */

import { decodeBase64 } from "./base64.ts";
import { loadImageBackend } from "./backend.ts";
import { imageSizeFromDataUri } from "./size.ts";
import type { ChangeRegion } from "./screen_change.ts";

/** Below this SSIM the region counts as showing something else (hover tint ~0.99, other text < 0.5). */
export const REGION_MATCH_THRESHOLD = 0.8;

/** Longest side of the compared crop, pixels: enough for text, cheap for SSIM. */
const MAX_SIDE = 96;
/** Shortest side of the compared crop, pixels: SSIM's window is 11 pixels. */
const MIN_SIDE = 16;

/**
 * The gray levels of `region` of a PNG or JPEG data URI, scaled to `width` x `height`, as RGBA
 * (what `ssim.js` reads).
 */
async function regionPixels(
  dataUri: string,
  region: ChangeRegion,
  width: number,
  height: number,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const { mime } = imageSizeFromDataUri(dataUri);
  const backend = await loadImageBackend();
  const bytes = decodeBase64(dataUri.slice(dataUri.indexOf(",") + 1));
  const crop = await backend.crop(bytes, mime, region, width, height);
  const gray = await backend.gray(crop, mime, width, height);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < gray.length; i++) data.set([gray[i], gray[i], gray[i], 255], i * 4);
  return { data, width, height };
}

/**
 * How alike `region` looks on two screenshots of the same size (SSIM, 1 = the same; below
 * {@link REGION_MATCH_THRESHOLD} it shows something else). The region is given in the
 * screenshots' pixels and clipped to them; an empty region, or screenshots of different sizes,
 * give 0.
 *
 * @throws what the image backend throws for data that is not an image.
 */
export async function regionSimilarity(
  before: string,
  after: string,
  region: ChangeRegion,
): Promise<number> {
  const a = imageSizeFromDataUri(before);
  const b = imageSizeFromDataUri(after);
  if (a.width !== b.width || a.height !== b.height) return 0;
  const left = Math.max(0, Math.floor(region.left));
  const top = Math.max(0, Math.floor(region.top));
  const right = Math.min(a.width, Math.ceil(region.left + region.width));
  const bottom = Math.min(a.height, Math.ceil(region.top + region.height));
  if (right - left < 1 || bottom - top < 1) return 0;
  const clipped = { left, top, width: right - left, height: bottom - top };
  // Both crops are scaled alike, so a thin region stretched to the minimum side compares fairly.
  const scale = Math.min(1, MAX_SIDE / Math.max(clipped.width, clipped.height));
  const width = Math.max(MIN_SIDE, Math.round(clipped.width * scale));
  const height = Math.max(MIN_SIDE, Math.round(clipped.height * scale));
  const [x, y] = await Promise.all([
    regionPixels(before, clipped, width, height),
    regionPixels(after, clipped, width, height),
  ]);
  const { ssim } = await import("ssim.js");
  return ssim(x, y).mssim;
}
