/**
 * The shape an action's parameters may have (issue 36): a model's answer, a cache file or a
 * caller can hand an action a parameter nested 100,000 levels deep or megabytes long; copying,
 * logging or recording it would overflow the stack or the memory. Such a parameter fails as an
 * `SdkRangeError` before any action.
 *
 * @module
 */

import { SdkRangeError } from "../errors.ts";

/** How deep an action's parameters may nest (a located element is 3 levels). */
const MAX_PARAM_DEPTH = 32;

/** How large an action's parameters may be in all: characters of text plus one per value. */
const MAX_PARAM_SIZE = 1 << 20;

/**
 * What is wrong with the shape of `param`, or `undefined` when it fits: nested deeper than
 * {@link MAX_PARAM_DEPTH} or larger than {@link MAX_PARAM_SIZE}. Walks without recursion, so a
 * value of any depth is measured without overflowing the stack.
 */
function paramShapeProblem(param: unknown): string | undefined {
  const stack: [unknown, number][] = [[param, 0]];
  let size = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    size += typeof value === "string" ? value.length + 1 : 1;
    if (size > MAX_PARAM_SIZE) {
      return `its parameters are larger than ${MAX_PARAM_SIZE} characters in all`;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_PARAM_DEPTH) {
      return `its parameters nest deeper than ${MAX_PARAM_DEPTH} levels`;
    }
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(value)) {
        size += key.length;
        stack.push([item, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * Checks the shape of an action's parameters.
 *
 * @param action the action's name, for the message.
 * @param param its parameters.
 * @param source who gave them, for the message: `"the model's plan"`, `"the call"`.
 * @throws {SdkRangeError} naming the action when they nest too deep or are too large.
 */
export function checkParamShape(action: string, param: unknown, source: string): void {
  const problem = paramShapeProblem(param);
  if (problem !== undefined) {
    throw new SdkRangeError(
      `Cannot perform ${action} from ${source}: ${problem}; nothing was performed`,
    );
  }
}
