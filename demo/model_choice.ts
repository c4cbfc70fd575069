/**
 * Which model the demo uses: the one the `SDK_*MODEL_*` variables name, or, when none of them is
 * set, the offline stand-in. Some set and the others missing is an error naming the missing ones:
 * docs/models.md tells users to check their model with the demo, so a forgotten key must not pass
 * on the stand-in.
 *
 * @module
 */

import { MODEL_CONFIG_KEYS, ModelConfigError, resolveIntentConfig } from "@sdk/core";

/** The model the demo runs with. */
export type DemoModelChoice =
  | { live: false }
  | { live: true; modelName: string; baseURL: string };

/** The variables that choose a model (the call settings such as `SDK_MODEL_TIMEOUT` do not). */
const CHOOSING = /_(NAME|BASE_URL|API_KEY|FAMILY)$/;

/**
 * Reads the model variables of the environment.
 *
 * @param env reads a variable.
 * @returns `{ live: false }` when none of the model-choosing variables is set, else the model.
 * @throws {ModelConfigError} when some are set and the configuration is incomplete or invalid:
 * the message names the variables set, the missing ones (the SDK's own check), and both fixes.
 */
export function demoModelChoice(env: (name: string) => string | undefined): DemoModelChoice {
  const set = MODEL_CONFIG_KEYS.filter((key) => CHOOSING.test(key) && env(key)?.trim());
  if (set.length === 0) return { live: false };
  try {
    const config = resolveIntentConfig("default");
    // A planning or insight model of its own is checked too, as its first call would.
    resolveIntentConfig("planning");
    resolveIntentConfig("insight");
    return { live: true, modelName: config.modelName, baseURL: config.baseURL };
  } catch (e) {
    if (!(e instanceof ModelConfigError)) throw e;
    const named = set.length > 1
      ? `${set.slice(0, -1).join(", ")} and ${set.at(-1)} are set`
      : `${set[0]} is set`;
    throw new ModelConfigError(
      `${named}, so the demo checks that model, and its configuration is not complete: ` +
        `${e.message} The demo does not fall back to the offline stand-in model while any ` +
        `model variable is set: set what is missing, or unset ${set.join(", ")} to run it offline.`,
      { cause: e },
    );
  }
}
