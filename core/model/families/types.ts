/**
 * The model-family seam: how a family of models reports a location, and what it needs of the image.
 * Families are data plus small functions; nothing else in the SDK branches on a family's name.
 *
 * @module
 */

import type { Rect } from "../../device/types.ts";
import type { PlannerDialect } from "../dialect.ts";
import type { ModelImageSize } from "../chat.ts";

/** A model family's conventions (see `docs/model-protocol.md` and MODEL_FAMILIES.md). */
export interface ModelFamily {
  /** Value of `SDK_MODEL_FAMILY` that selects it (`"default"` when unset). */
  readonly name: string;
  /** Sentence for the prompt that tells the model how to write a `bbox`. */
  readonly boxConvention: string;
  /**
   * Other keys the family's own box may come under when an answer has no `bbox` (the model's
   * native grounding format: Qwen and GLM-V `bbox_2d`, Gemini `box_2d`); `bbox` always wins.
   */
  readonly boxKeys?: readonly string[];
  /** Pad images with white, right and bottom, to multiples of this many pixels. */
  readonly padToMultipleOf?: number;
  /** Default `replanningCycleLimit` of `aiAct` with this family planning. */
  readonly replanningCycleLimit: number;
  /**
   * Turns a raw `bbox` value from an answer into a rectangle in image pixels of the content.
   *
   * @throws {ModelResponseError} when the value is not a box or point, is reversed or out of range.
   */
  toPixelRect(raw: unknown, image: ModelImageSize): Rect;
  /**
   * Extra request-body fields that turn the model's own reasoning on or off, for
   * `SDK_MODEL_REASONING_ENABLED` (Qwen: `enable_thinking`; Doubao, GLM: `thinking: {type}`;
   * Gemini: a thinking config under `extra_body.google`; GPT-5: `reasoning_effort`). Left out when
   * the family has no such control.
   */
  reasoningParams?(enabled: boolean): Record<string, unknown>;
  /**
   * The family's own planning dialect (UI-TARS, AutoGLM); `aiAct` uses the SDK's JSON protocol
   * when it is left out.
   */
  readonly planner?: PlannerDialect;
}
