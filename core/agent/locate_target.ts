/**
 * Finding the target of a locating call (spec 4.2): by xpath without a model when given, else by
 * the model through the agent's cache.
 *
 * @module
 */

import { LocateError } from "../errors.ts";
import { deepLocateElement, locateElement } from "../insight/locate.ts";
import type { LocateResult } from "../insight/locate.ts";
import { locateByXpath } from "../insight/locate_xpath.ts";
import { locateWithCache } from "../cache/locate_cache.ts";
import type { AIContextApiName } from "../session/context.ts";
import type { AgentState } from "./lifecycle.ts";
import type { LocateOptions } from "../session/options.ts";
import { contextFor } from "./run_call.ts";
import type { CallSession } from "../session/session.ts";
import { TaskCache } from "../session/cache_store.ts";

/**
 * Locates the target of a locating call: by `opt.xpath` first when given (spec 4.2), else or
 * when it matches nothing by `opt.locator` (an exported script's), then from the cache, then by
 * the model with `text` (recorded in the cache). `undefined` without xpath and text.
 *
 * @throws {LocateError} when the xpath matches nothing and there is no description.
 */
export async function locateTarget(
  state: AgentState,
  s: CallSession,
  api: AIContextApiName,
  text: string | undefined,
  opt: LocateOptions | undefined,
): Promise<LocateResult | undefined> {
  if (opt?.xpath !== undefined) {
    const found = await locateByXpath(s, opt.xpath, text);
    if (found) return found;
    if (text === undefined) {
      throw new LocateError(
        `${api}: no visible element matches xpath "${opt.xpath}", and there is no description to locate by instead`,
      );
    }
  }
  if (text === undefined) return undefined;
  const locate = opt?.deepLocate || opt?.deepThink ? deepLocateElement : locateElement;
  const cached = () =>
    locateWithCache(s, text, () => locate(s, text, contextFor(state, api, opt?.context)));
  // A frozen call locates nothing on the live page (as the cache, see useCache).
  if (!opt?.locator || s.frozen) return await cached();
  // The locator is tried as a cached location is, identity check included; it is not written.
  const store = TaskCache.of([{ ...opt.locator, type: "locate", prompt: text }]);
  return await locateWithCache({ ...s, cache: { store, read: true, write: false } }, text, cached);
}
