/**
 * The families that use the SDK's own JSON protocol (MODEL_FAMILIES.md, "Locations"): the default,
 * `qwen3-vl`, `qwen3`, `qwen3.5`, `qwen3.6`, `qwen2.5-vl`, `doubao-vision`, `doubao-seed`,
 * `gemini`, `glm-v`, `xiaomi-mimo`, `gpt-5`, `kimi`, `kimi3`.
 *
 * @module
 */

import { absoluteToRect, normalizedToRect, readBoxNumbers } from "./box.ts";
import type { ModelFamily } from "./types.ts";

const NORMALIZED_XY =
  "Write every bbox as [x1, y1, x2, y2]: left, top, right, bottom, each normalized to 0-1000 of the image width (x) or height (y).";

const ABSOLUTE_XY =
  "Write every bbox as [x1, y1, x2, y2]: left, top, right, bottom, in absolute pixels of the image.";

/** Qwen 3: `enable_thinking`. */
function enableThinking(enabled: boolean): Record<string, unknown> {
  return { enable_thinking: enabled };
}

/** Doubao, GLM: `thinking: {type}`. */
function thinkingType(enabled: boolean): Record<string, unknown> {
  return { thinking: { type: enabled ? "enabled" : "disabled" } };
}

/** The SDK's default convention: `[x1, y1, x2, y2]` normalized to 0-1000. */
export const defaultFamily: ModelFamily = {
  name: "default",
  boxConvention: NORMALIZED_XY,
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    return normalizedToRect(readBoxNumbers(raw, this.name, image), image, this.name, raw);
  },
};

/**
 * Qwen3-VL: `[x1, y1, x2, y2]` normalized to 0-1000, under `bbox` or its own `bbox_2d`; reasoning
 * by `enable_thinking`.
 */
export const qwen3VlFamily: ModelFamily = {
  ...defaultFamily,
  name: "qwen3-vl",
  boxKeys: ["bbox_2d"],
  reasoningParams: enableThinking,
};

/** Qwen 3 (`qwen3`, `qwen3.5`, `qwen3.6`): as Qwen3-VL. */
export const qwen3Families: readonly ModelFamily[] = ["qwen3", "qwen3.5", "qwen3.6"].map((
  name,
) => ({ ...qwen3VlFamily, name }));

/** Qwen2.5-VL: absolute pixels of an image padded to multiples of 28 px, under `bbox` or `bbox_2d`. */
export const qwen25VlFamily: ModelFamily = {
  name: "qwen2.5-vl",
  boxConvention: ABSOLUTE_XY,
  boxKeys: ["bbox_2d"],
  padToMultipleOf: 28,
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    return absoluteToRect(readBoxNumbers(raw, this.name, image), image, this.name, raw);
  },
};

/**
 * Doubao (`doubao-vision`, `doubao-seed`): `[x1, y1, x2, y2]` normalized to 0-1000, read leniently
 * (`"336 163 717 200"`, nested lists, points, `<bbox>`/`<point>` strings); reasoning by
 * `thinking: {type}`.
 */
export const doubaoFamilies: readonly ModelFamily[] = ["doubao-vision", "doubao-seed"].map((
  name,
) => ({ ...defaultFamily, name, reasoningParams: thinkingType }));

/** Gemini: `[ymin, xmin, ymax, xmax]`, y first, normalized to 0-1000, under `bbox` or `box_2d`. */
export const geminiFamily: ModelFamily = {
  name: "gemini",
  boxKeys: ["box_2d"],
  boxConvention:
    "Write every bbox as [ymin, xmin, ymax, xmax], y first, each normalized to 0-1000 of the image height (y) or width (x).",
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    const v = readBoxNumbers(raw, this.name, image);
    const xFirst = v.length === 2 ? [v[1], v[0]] : [v[1], v[0], v[3], v[2]];
    return normalizedToRect(xFirst, image, this.name, raw);
  },
  /** Gemini's OpenAI-compatible endpoint: a thinking config under `extra_body.google`. */
  reasoningParams(enabled) {
    return {
      extra_body: {
        google: {
          thinking_config: { thinking_budget: enabled ? -1 : 0, include_thoughts: enabled },
        },
      },
    };
  },
};

/**
 * GLM-V: `[x1, y1, x2, y2]` normalized to 0-1000, under `bbox` or `bbox_2d`; reasoning by
 * `thinking: {type}`.
 */
export const glmVFamily: ModelFamily = {
  ...defaultFamily,
  name: "glm-v",
  boxKeys: ["bbox_2d"],
  reasoningParams: thinkingType,
};

/** Xiaomi MiMo: `[x1, y1, x2, y2]` normalized to 0-1000. */
export const xiaomiMimoFamily: ModelFamily = { ...defaultFamily, name: "xiaomi-mimo" };

/** GPT-5: `[x1, y1, x2, y2]` in absolute pixels, clamped only; reasoning by `reasoning_effort`. */
export const gpt5Family: ModelFamily = {
  name: "gpt-5",
  boxConvention: ABSOLUTE_XY,
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    return absoluteToRect(readBoxNumbers(raw, this.name, image), image, this.name, raw);
  },
  reasoningParams: (enabled) => ({ reasoning_effort: enabled ? "medium" : "minimal" }),
};

/**
 * Kimi (`kimi`, `kimi3`): a point `[x, y]`, as fractions 0-1 when both are <= 1, else absolute
 * pixels; it becomes a box of +-1% or +-10 px around it. Four numbers are read as a box the same way.
 */
export const kimiFamilies: readonly ModelFamily[] = ["kimi", "kimi3"].map((name) => ({
  name,
  boxConvention:
    "Write every bbox as a point [x, y], two numbers instead of four: the center of the element, x and y as fractions 0-1 of the image width and height.",
  replanningCycleLimit: 20,
  toPixelRect(raw, image) {
    const v = readBoxNumbers(raw, name, image);
    return v.every((n) => n <= 1)
      ? normalizedToRect(v, image, name, raw, 1)
      : absoluteToRect(v, image, name, raw);
  },
}));
