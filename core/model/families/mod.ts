/**
 * The registry of model families: the value of `SDK_MODEL_FAMILY` to its conventions.
 *
 * @module
 */

import { defaultFamily, geminiFamily, qwen25VlFamily, qwen3VlFamily } from "./standard.ts";
import {
  doubaoFamilies,
  glmVFamily,
  gpt5Family,
  kimiFamilies,
  qwen3Families,
  xiaomiMimoFamily,
} from "./standard.ts";
import { uiTarsDoubao15Family, uiTarsDoubaoFamily, uiTarsFamily } from "./ui_tars.ts";
import { autoGlmFamily, autoGlmMultilingualFamily } from "./auto_glm.ts";
import type { ModelFamily } from "./types.ts";
import { ModelConfigError } from "../../errors.ts";

export type { ModelFamily } from "./types.ts";

const FAMILIES: readonly ModelFamily[] = [
  defaultFamily,
  qwen3VlFamily,
  qwen25VlFamily,
  geminiFamily,
  uiTarsFamily,
  uiTarsDoubaoFamily,
  uiTarsDoubao15Family,
  autoGlmFamily,
  autoGlmMultilingualFamily,
  ...qwen3Families,
  ...doubaoFamilies,
  glmVFamily,
  xiaomiMimoFamily,
  gpt5Family,
  ...kimiFamilies,
];

/** The accepted values of `SDK_MODEL_FAMILY` (besides leaving it unset). */
export const MODEL_FAMILY_NAMES: readonly string[] = FAMILIES.filter((f) => f !== defaultFamily)
  .map((f) => f.name);

/**
 * Looks a family up by the value of `SDK_MODEL_FAMILY`; unset or empty gives the default family.
 *
 * @throws {ModelConfigError} for an unknown value, listing the accepted ones.
 */
export function getModelFamily(
  name: string | undefined,
  variable = "SDK_MODEL_FAMILY",
): ModelFamily {
  if (!name) return defaultFamily;
  const found = FAMILIES.find((f) => f.name === name.trim().toLowerCase());
  if (!found) {
    throw new ModelConfigError(
      `Unknown model family ${JSON.stringify(name)} in ${variable}. Accepted values: ${
        MODEL_FAMILY_NAMES.join(", ")
      } (or leave it unset for the default convention).`,
    );
  }
  return found;
}
