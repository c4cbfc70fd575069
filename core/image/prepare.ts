/**
 * Prepares a screenshot for the model (docs/model-protocol.md, "The image"): shrink by
 * `screenshotShrinkFactor`, then, for families that need it (qwen2.5-vl: 28), pad with white on
 * the right and bottom to a multiple of a block size.
 *
 * @module
 */

import { SdkRangeError } from "../errors.ts";
import { decodeBase64, encodeBase64 } from "./base64.ts";
import { type EncodeTarget, type ImagePlan, JPEG_QUALITY, loadImageBackend } from "./backend.ts";
import { mimeOf, type ScreenshotEncoding } from "./encoding.ts";
import { readImageInput } from "./size.ts";

/** Options of {@link prepareImage}. */
export interface PrepareImageOptions {
  /**
   * Divides both sides of the image: the result is `round(width / f)` x `round(height / f)`
   * pixels (at least 1). Finite and >= 1. Default 1 (no resize).
   */
  shrinkFactor?: number;
  /**
   * Pads with white on the right and bottom so both sides become multiples of this many pixels
   * (28 for the qwen2.5-vl family). Positive integer; default (or 1): no padding.
   */
  padToMultipleOf?: number;
  /**
   * The format of the result. An input already in that format whose size does not change is
   * returned as is (a JPEG is not re-encoded to another quality); anything else is encoded once.
   * Default: the input's format (a JPEG re-encoded at quality 90).
   */
  encoding?: ScreenshotEncoding;
}

/** An image ready to send to the model. */
export interface PreparedImage {
  /** `data:image/png;base64,...` or `data:image/jpeg;base64,...`, in the format asked for. */
  dataUri: string;
  /** Width in pixels of the image sent (after shrinking and padding). */
  width: number;
  /** Height in pixels of the image sent (after shrinking and padding). */
  height: number;
  /** Width in pixels of the screenshot content inside it (after shrinking, before padding). */
  contentWidth: number;
  /** Height in pixels of the screenshot content inside it (after shrinking, before padding). */
  contentHeight: number;
}

/**
 * Shrinks and pads a PNG or JPEG screenshot and encodes it as `options.encoding` asks. When
 * nothing changes (factor 1, or a factor too small to change the rounded size, no padding needed,
 * and the input already in the asked format) the input is returned as is, without decoding: this
 * runs on every agent step.
 *
 * Uses sharp when it loads (Node; Deno with `--allow-ffi`), else OffscreenCanvas in a browser
 * page, else a pure-JS codec (slower, same geometry).
 *
 * @param dataUri A PNG/JPEG data URI, or a raw base64 body (then the result gets the
 *   `data:<mime>;base64,` prefix).
 * @param options Shrink factor and padding block, see {@link PrepareImageOptions}.
 * @returns The image to send and its sizes in pixels.
 * @throws {RangeError} when `shrinkFactor` is not a finite number >= 1, or `padToMultipleOf` is
 *   not a positive integer (the message quotes the value).
 * @throws {TypeError} when the input is not a PNG/JPEG data URI or base64 body (see
 *   `imageSizeFromDataUri`).
 * @throws {Error} when the image cannot be decoded or encoded by the backend.
 */
export async function prepareImage(
  dataUri: string,
  options: PrepareImageOptions = {},
): Promise<PreparedImage> {
  const shrinkFactor = options.shrinkFactor ?? 1;
  if (typeof shrinkFactor !== "number" || !Number.isFinite(shrinkFactor) || shrinkFactor < 1) {
    throw new SdkRangeError(
      `shrinkFactor must be a finite number >= 1, got "${String(options.shrinkFactor)}"`,
    );
  }
  const block = options.padToMultipleOf ?? 1;
  if (typeof block !== "number" || !Number.isInteger(block) || block < 1) {
    throw new SdkRangeError(
      `padToMultipleOf must be a positive integer, got "${String(options.padToMultipleOf)}"`,
    );
  }

  const input = readImageInput(dataUri);
  const contentWidth = Math.max(1, Math.round(input.width / shrinkFactor));
  const contentHeight = Math.max(1, Math.round(input.height / shrinkFactor));
  const plan: ImagePlan = {
    sourceWidth: input.width,
    sourceHeight: input.height,
    contentWidth,
    contentHeight,
    width: Math.ceil(contentWidth / block) * block,
    height: Math.ceil(contentHeight / block) * block,
  };

  const out: EncodeTarget = options.encoding
    ? { mime: mimeOf(options.encoding.format), quality: options.encoding.quality }
    : { mime: input.mime, quality: JPEG_QUALITY };
  const unchanged = plan.width === input.width && plan.height === input.height &&
    out.mime === input.mime;
  if (unchanged) {
    return {
      dataUri: input.isDataUri ? dataUri : `data:${input.mime};base64,${dataUri}`,
      width: plan.width,
      height: plan.height,
      contentWidth,
      contentHeight,
    };
  }

  const backend = await loadImageBackend();
  const bytes = await backend.transform(decodeBase64(input.base64), input.mime, plan, out);
  return {
    dataUri: `data:${out.mime};base64,${encodeBase64(bytes)}`,
    width: plan.width,
    height: plan.height,
    contentWidth,
    contentHeight,
  };
}
