/**
 * How screenshots are encoded: one format, chosen once per agent, whose bytes go both to the model
 * and into the report (docs/model-protocol.md, "The image").
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";

/** Screenshot image format: `"jpeg"` (compact, lossy) or `"png"` (lossless, pixel-exact). */
export type ScreenshotFormat = "jpeg" | "png";

/** The encoding of a screenshot. */
export interface ScreenshotEncoding {
  /** Image format. */
  format: ScreenshotFormat;
  /** JPEG quality, an integer 1-100; ignored for PNG. */
  quality: number;
}

/**
 * Default JPEG quality. Chosen from `deno task bench` on the image-rich fixture page (bench/README
 * "Screenshot encoding"): the largest quality whose screenshots meet the size targets there.
 */
export const DEFAULT_SCREENSHOT_QUALITY = 60;

/** The default encoding: JPEG at {@link DEFAULT_SCREENSHOT_QUALITY}. */
export const DEFAULT_SCREENSHOT_ENCODING: ScreenshotEncoding = Object.freeze({
  format: "jpeg",
  quality: DEFAULT_SCREENSHOT_QUALITY,
});

/**
 * Checks the agent options `screenshotFormat` and `screenshotQuality` and returns the encoding
 * they ask for (defaults: `"jpeg"`, {@link DEFAULT_SCREENSHOT_QUALITY}).
 *
 * @throws {TypeError} when `format` is neither `"jpeg"` nor `"png"`.
 * @throws {RangeError} when `quality` is not an integer from 1 to 100.
 */
export function resolveScreenshotEncoding(
  format: unknown,
  quality: unknown,
): ScreenshotEncoding {
  if (format !== undefined && format !== "jpeg" && format !== "png") {
    throw new SdkTypeError(
      `'screenshotFormat' must be "jpeg" or "png": current value is ${JSON.stringify(format)}`,
    );
  }
  if (
    quality !== undefined &&
    !(typeof quality === "number" && Number.isInteger(quality) && quality >= 1 && quality <= 100)
  ) {
    throw new SdkRangeError(
      `'screenshotQuality' must be an integer from 1 to 100: current value is ${String(quality)}`,
    );
  }
  return {
    format: format ?? "jpeg",
    quality: quality ?? DEFAULT_SCREENSHOT_QUALITY,
  };
}

/** The media type of a format. */
export function mimeOf(format: ScreenshotFormat): "image/jpeg" | "image/png" {
  return format === "png" ? "image/png" : "image/jpeg";
}
