/**
 * How much of a screen changed between two screenshots, outside the places the agent acted on: a
 * cheap comparison of gray thumbnails, for the guard between the actions of one plan
 * (docs/model-protocol.md, "Several actions per plan"). Text typed into a field or a button
 * pressed changes its neighbourhood; a navigation, a dialog or a new screen changes the rest.
 *
 * @module
 */

import { decodeBase64 } from "./base64.ts";
import { loadImageBackend } from "./backend.ts";
import { imageSizeFromDataUri } from "./size.ts";

/** Width of the thumbnails compared, pixels; the height keeps the screen's aspect. */
const THUMBNAIL_WIDTH = 64;
/** A thumbnail pixel whose gray level moved more than this counts as changed (0-255). */
const PIXEL_THRESHOLD = 24;

/** A gray thumbnail of a screenshot. */
export interface ScreenThumbnail {
  /** Width, pixels. */
  width: number;
  /** Height, pixels. */
  height: number;
  /** The screenshot's own width, pixels (what regions are given in). */
  sourceWidth: number;
  /** The screenshot's own height, pixels. */
  sourceHeight: number;
  /** Gray levels, one byte a pixel, rows top to bottom. */
  gray: Uint8Array;
}

/** A rectangle in the screenshot's pixels. */
export interface ChangeRegion {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/**
 * A gray thumbnail of a PNG or JPEG screenshot given as a data URI.
 *
 * @throws what the image backend throws for data that is not an image.
 */
export async function screenThumbnail(dataUri: string): Promise<ScreenThumbnail> {
  const { width: sourceWidth, height: sourceHeight, mime } = imageSizeFromDataUri(dataUri);
  const width = Math.min(THUMBNAIL_WIDTH, sourceWidth);
  const height = Math.max(1, Math.round(sourceHeight * width / sourceWidth));
  const backend = await loadImageBackend();
  const bytes = decodeBase64(dataUri.slice(dataUri.indexOf(",") + 1));
  return {
    width,
    height,
    sourceWidth,
    sourceHeight,
    gray: await backend.gray(bytes, mime, width, height),
  };
}

/**
 * The share (0-1) of the thumbnail's pixels outside `ignore` that changed from `before` to
 * `after`. Each region is grown by `margin` of the screen's shorter side on every edge, since
 * what an action changes spills a little around its element (a focus ring, a dropdown's first
 * lines, a validation line under a field). Screens of different sizes count as wholly changed.
 *
 * @param before the screen the plan was made on.
 * @param after the screen now.
 * @param ignore where the plan's actions so far acted, in screenshot pixels.
 * @param margin grow each region by this share of the shorter screen side. Default 0.05.
 * @returns the changed share of the pixels compared (0 when every pixel was ignored).
 */
export function changedShare(
  before: ScreenThumbnail,
  after: ScreenThumbnail,
  ignore: readonly ChangeRegion[],
  margin = 0.05,
): number {
  if (
    before.width !== after.width || before.height !== after.height ||
    before.sourceWidth !== after.sourceWidth || before.sourceHeight !== after.sourceHeight
  ) return 1;
  const sx = before.width / before.sourceWidth;
  const sy = before.height / before.sourceHeight;
  const grow = Math.min(before.sourceWidth, before.sourceHeight) * margin;
  const boxes = ignore.map((r) => [
    Math.floor((r.left - grow) * sx),
    Math.floor((r.top - grow) * sy),
    Math.ceil((r.left + r.width + grow) * sx),
    Math.ceil((r.top + r.height + grow) * sy),
  ]);
  let compared = 0;
  let changed = 0;
  for (let y = 0; y < before.height; y++) {
    for (let x = 0; x < before.width; x++) {
      if (boxes.some(([l, t, r, b]) => x >= l && x < r && y >= t && y < b)) continue;
      compared++;
      const i = y * before.width + x;
      if (Math.abs(before.gray[i] - after.gray[i]) > PIXEL_THRESHOLD) changed++;
    }
  }
  return compared === 0 ? 0 : changed / compared;
}
