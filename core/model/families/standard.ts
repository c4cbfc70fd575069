/**
 * The families that use the SDK's own JSON protocol: the default, `qwen3-vl`, `qwen2.5-vl`,
 * `gemini` (MODEL_FAMILIES.md, "Locations").
 *
 * @module
 */

import { absoluteToRect, normalizedToRect, readBoxNumbers } from "./box.ts";
import type { ModelFamily } from "./types.ts";

const NORMALIZED_XY =
  "Write every bbox as [x1, y1, x2, y2]: left, top, right, bottom, each normalized to 0-1000 of the image width (x) or height (y).";

/** The SDK's default convention: `[x1, y1, x2, y2]` normalized to 0-1000. */
export const defaultFamily: ModelFamily = {
  name: "default",
  boxConvention: NORMALIZED_XY,
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    return normalizedToRect(readBoxNumbers(raw, this.name), image, this.name, raw);
  },
};

/** Qwen3-VL: `[x1, y1, x2, y2]` normalized to 0-1000. */
export const qwen3VlFamily: ModelFamily = { ...defaultFamily, name: "qwen3-vl" };

/** Qwen2.5-VL: absolute pixels of an image padded to multiples of 28 px. */
export const qwen25VlFamily: ModelFamily = {
  name: "qwen2.5-vl",
  boxConvention:
    "Write every bbox as [x1, y1, x2, y2]: left, top, right, bottom, in absolute pixels of the image.",
  padToMultipleOf: 28,
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    return absoluteToRect(readBoxNumbers(raw, this.name), image, this.name, raw);
  },
};

/** Gemini: `[ymin, xmin, ymax, xmax]`, y first, normalized to 0-1000. */
export const geminiFamily: ModelFamily = {
  name: "gemini",
  boxConvention:
    "Write every bbox as [ymin, xmin, ymax, xmax], y first, each normalized to 0-1000 of the image height (y) or width (x).",
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    const v = readBoxNumbers(raw, this.name);
    const xFirst = v.length === 2 ? [v[1], v[0]] : [v[1], v[0], v[3], v[2]];
    return normalizedToRect(xFirst, image, this.name, raw);
  },
};
