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
export type TestModelFamily =
  | "default"
  | "qwen3-vl"
  | "qwen2.5-vl"
  | "gemini"
  | "qwen3"
  | "qwen3.5"
  | "qwen3.6"
  | "doubao-vision"
  | "doubao-seed"
  | "glm-v"
  | "xiaomi-mimo"
  | "gpt-5"
  | "kimi"
  | "kimi3";

/** The families the test model knows, in a list for validation. */
export const TEST_MODEL_FAMILIES: readonly TestModelFamily[] = [
  "default",
  "qwen3-vl",
  "qwen2.5-vl",
  "gemini",
  "qwen3",
  "qwen3.5",
  "qwen3.6",
  "doubao-vision",
  "doubao-seed",
  "glm-v",
  "xiaomi-mimo",
  "gpt-5",
  "kimi",
  "kimi3",
];

/** A `bbox` as a family writes it: numbers, a nested list, or a loosely formatted string. */
export type EncodedBbox = number[] | number[][] | string;

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
 * Converts a CSS-pixel box into the `bbox` of `family`, written as MODEL_FAMILIES.md says that
 * family's models write it.
 *
 * Image pixels are `css * scale`, clamped to the image (a model only reports what it sees). Then:
 * - `default`, `qwen3-vl`, `qwen3`, `qwen3.5`, `qwen3.6`, `xiaomi-mimo`: `[x1, y1, x2, y2]`
 *   normalized to 0-1000;
 * - `glm-v`: the same, nested as GLM-V writes boxes: `[[x1, y1, x2, y2]]`;
 * - `doubao-vision`: the same as a loose string, `"x1 y1 x2 y2"`;
 * - `doubao-seed`: the same in a tag, `"<bbox>x1 y1 x2 y2</bbox>"`;
 * - `gemini`: `[ymin, xmin, ymax, xmax]` normalized to 0-1000;
 * - `qwen2.5-vl`, `gpt-5`: `[x1, y1, x2, y2]` in absolute image pixels;
 * - `kimi`: the center point `[x, y]` as fractions 0-1 of the image (3 decimals);
 * - `kimi3`: the center point `[x, y]` in absolute image pixels.
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
): EncodedBbox {
  const x1 = clamp(box.left * scale, 0, image.width - 1);
  const y1 = clamp(box.top * scale, 0, image.height - 1);
  const x2 = clamp((box.left + box.width) * scale, 0, image.width - 1);
  const y2 = clamp((box.top + box.height) * scale, 0, image.height - 1);
  const normalizedXy = [
    normalize(x1, image.width),
    normalize(y1, image.height),
    normalize(x2, image.width),
    normalize(y2, image.height),
  ];
  switch (family) {
    case "qwen2.5-vl":
    case "gpt-5":
      return [Math.round(x1), Math.round(y1), Math.round(x2), Math.round(y2)];
    case "gemini":
      return [
        normalize(y1, image.height),
        normalize(x1, image.width),
        normalize(y2, image.height),
        normalize(x2, image.width),
      ];
    case "glm-v":
      return [normalizedXy];
    case "doubao-vision":
      return normalizedXy.join(" ");
    case "doubao-seed":
      return `<bbox>${normalizedXy.join(" ")}</bbox>`;
    case "kimi": {
      // A fraction of the image: pixel / (size - 1), the 0-1000 rule divided by 1000.
      const fraction = (px: number, size: number) =>
        size <= 1 ? 0 : clamp(Math.round(px * 1000 / (size - 1)) / 1000, 0, 1);
      return [fraction((x1 + x2) / 2, image.width), fraction((y1 + y2) / 2, image.height)];
    }
    case "kimi3":
      return [Math.round((x1 + x2) / 2), Math.round((y1 + y2) / 2)];
    case "default":
    case "qwen3-vl":
    case "qwen3":
    case "qwen3.5":
    case "qwen3.6":
    case "xiaomi-mimo":
      return normalizedXy;
  }
}

/** Rounds `n` up to a multiple of 28, the padding of `qwen2.5-vl` images. */
export function padTo28(n: number): number {
  return Math.ceil(n / 28) * 28;
}
