/**
 * The `DEBUG` selector of the `debug` npm package, which decides which log categories also go to
 * the console (spec 4.11): names separated by commas or spaces, `*` matching any run of
 * characters, and a leading `-` excluding what it matches. An exclusion wins over any inclusion,
 * whatever the order: `DEBUG=sdk:*,-sdk:model` shows every category but the model's.
 *
 * @module
 */

/** Tells whether a category (e.g. `"sdk:model"`) is selected. */
export type LogSelector = (category: string) => boolean;

/** A selector pattern as a regular expression matching the whole category name. */
function patternRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*?");
  return new RegExp(`^${escaped}$`);
}

/**
 * Parses a `DEBUG` value. An empty or unset value selects nothing.
 *
 * @example
 * ```ts
 * import { parseLogSelector } from "./selector.ts";
 * const selected = parseLogSelector("sdk:*, -sdk:model");
 * selected("sdk:agent"); // true
 * selected("sdk:model"); // false
 * ```
 */
export function parseLogSelector(value: string | undefined): LogSelector {
  const include: RegExp[] = [];
  const exclude: RegExp[] = [];
  for (const part of (value ?? "").split(/[\s,]+/)) {
    if (part === "" || part === "-") continue;
    if (part.startsWith("-")) exclude.push(patternRegExp(part.slice(1)));
    else include.push(patternRegExp(part));
  }
  return (category) =>
    include.some((r) => r.test(category)) && !exclude.some((r) => r.test(category));
}
