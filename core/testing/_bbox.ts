/**
 * Box encoders of the test model: a CSS-pixel box on the page becomes the `bbox` a model of a given
 * family would answer. Written from docs/model-protocol.md alone, independently of the SDK's own
 * parsers, because the test model is the oracle those parsers are checked against.
 * Private to `@sdk/core/testing`.
 *
 * @module
 */

import type { ImageSize } from "./_image.ts";

/** The answer formats the test model speaks (`SDK_MODEL_FAMILY`; `"default"` = unset). */
export type TestModelFamily = "default" | "qwen3-vl" | "qwen2.5-vl" | "gemini";

/** The families the test model knows, in a list for validation. */
export const TEST_MODEL_FAMILIES: readonly TestModelFamily[] = [
  "default",
  "qwen3-vl",
  "qwen2.5-vl",
  "gemini",
];

/**
 * An element's box in CSS pixels of the page, as the browser measures it (for example Playwright's
 * `locator.boundingBox()`).
 */
export interface TargetBox {
  /** Distance of the left edge from the viewport's left edge, CSS pixels. */
  left: number;
  /** Distance of the top edge from the viewport's top edge, CSS pixels. */
  top: number;
  /** Width in CSS pixels. */
  width: number;
  /** Height in CSS pixels. */
  height: number;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Pixel coordinate -> 0-1000, the inverse of the protocol's `round(v * (size - 1) / 1000)`. */
function normalize(px: number, size: number): number {
  if (size <= 1) return 0;
  return clamp(Math.round((px * 1000) / (size - 1)), 0, 1000);
}

/**
 * Converts a CSS-pixel box into the `bbox` numbers of `family`.
 *
 * Image pixels are `css * scale`, clamped to the image (a model only reports what it sees). Then:
 * `default` and `qwen3-vl` give `[x1, y1, x2, y2]` normalized to 0-1000, `qwen2.5-vl` gives
 * `[x1, y1, x2, y2]` in absolute image pixels, `gemini` gives `[ymin, xmin, ymax, xmax]`
 * normalized to 0-1000.
 *
 * @param family answer format.
 * @param box element box in CSS pixels.
 * @param image size of the image the model was sent (padded for `qwen2.5-vl`).
 * @param scale image pixels per CSS pixel.
 */
export function encodeBox(
  family: TestModelFamily,
  box: TargetBox,
  image: ImageSize,
  scale: number,
): number[] {
  const x1 = clamp(box.left * scale, 0, image.width - 1);
  const y1 = clamp(box.top * scale, 0, image.height - 1);
  const x2 = clamp((box.left + box.width) * scale, 0, image.width - 1);
  const y2 = clamp((box.top + box.height) * scale, 0, image.height - 1);
  switch (family) {
    case "qwen2.5-vl":
      return [Math.round(x1), Math.round(y1), Math.round(x2), Math.round(y2)];
    case "gemini":
      return [
        normalize(y1, image.height),
        normalize(x1, image.width),
        normalize(y2, image.height),
        normalize(x2, image.width),
      ];
    case "default":
    case "qwen3-vl":
      return [
        normalize(x1, image.width),
        normalize(y1, image.height),
        normalize(x2, image.width),
        normalize(y2, image.height),
      ];
  }
}

/** Rounds `n` up to a multiple of 28, the padding of `qwen2.5-vl` images. */
export function padTo28(n: number): number {
  return Math.ceil(n / 28) * 28;
}
