/**
 * What of a call's result the report keeps (issue 36): `aiQuery` data the model nested 100,000
 * levels deep is the caller's, whole; the report, the agent's records and `_unstableLogContent()`
 * get a copy cut at {@link REPORT_MAX_DEPTH} levels, each cut value replaced by a marker, so that
 * writing and copying them never overflows the stack.
 *
 * @module
 */

/** How deep a result the report keeps; deeper values become {@link deepValueMarker}. */
export const REPORT_MAX_DEPTH = 64;

/** What stands in the report for a value nested deeper than `max` levels. */
function deepValueMarker(max: number = REPORT_MAX_DEPTH): string {
  return `[nested deeper than ${max} levels: left out of the report]`;
}

/**
 * A copy of `value` for the report: plain data as it is, nested at most `max` levels (arrays and
 * plain objects); deeper values replaced by {@link deepValueMarker}. Copies without recursion.
 */
export function reportValue(value: unknown, max: number = REPORT_MAX_DEPTH): unknown {
  if (typeof value !== "object" || value === null) return value;
  const marker = deepValueMarker(max);
  const root: { v: unknown } = { v: undefined };
  // Each entry: a source value, its depth, and where its copy goes.
  const stack: [unknown, number, (copy: unknown) => void][] = [[value, 0, (c) => root.v = c]];
  while (stack.length > 0) {
    const [source, depth, put] = stack.pop()!;
    if (typeof source !== "object" || source === null) {
      put(source);
    } else if (depth >= max) {
      put(marker);
    } else if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length);
      put(copy);
      source.forEach((item, i) => stack.push([item, depth + 1, (c) => copy[i] = c]));
    } else {
      const copy: Record<string, unknown> = {};
      put(copy);
      for (const [key, item] of Object.entries(source)) {
        stack.push([item, depth + 1, (c) => copy[key] = c]);
      }
    }
  }
  return root.v;
}
