/**
 * Logical points as the physical pixels a phone's touch commands take.
 *
 * @module
 */

import type { Point } from "./types.ts";

/**
 * The physical pixel under a logical point: each coordinate times `ratio`, rounded, and kept on
 * the screen (from 0 to the side's length - 1).
 *
 * @param point the point, logical pixels.
 * @param ratio physical pixels per logical pixel (the device's `dpr`).
 * @param physical the screen's size, physical pixels.
 * @returns the pixel, physical pixels (whole numbers).
 */
export function toPhysicalPixel(
  point: Point,
  ratio: number,
  physical: { width: number; height: number },
): Point {
  const clamp = (v: number, max: number) => Math.min(Math.max(Math.round(v), 0), max - 1);
  return [clamp(point[0] * ratio, physical.width), clamp(point[1] * ratio, physical.height)];
}
