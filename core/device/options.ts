/**
 * Checks of a device's constructor options that every platform makes the same way.
 *
 * @module
 */

/**
 * Checks that each of `keys` in `options` is a boolean or absent.
 *
 * @param subject what is being created, for the message (`"WebPageDevice"`).
 * @throws {TypeError} `Cannot create <subject> as '<key>' must be a boolean: current value is ...`
 *   for the first key that is set to something else.
 */
export function checkBooleanOptions<T extends object>(
  subject: string,
  options: T,
  keys: readonly (keyof T & string)[],
): void {
  for (const key of keys) {
    const value = options[key];
    if (value !== undefined && typeof value !== "boolean") {
      throw new TypeError(
        `Cannot create ${subject} as '${key}' must be a boolean: current value is ${
          JSON.stringify(value)
        }`,
      );
    }
  }
}

/** Throws a `RangeError` naming `name` unless `v` is absent or a finite number >= 0. */
export function checkNonNegative(name: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
    throw new RangeError(`'${name}' must be a finite number >= 0: current value is ${v}`);
  }
}

/**
 * Checks the input options shared by devices and calls (spec 4.2, rules for `aiInput`).
 *
 * @throws {RangeError} for a negative or non-finite `keyboardTypeDelay`, an unknown
 *   `inputStrategy`, or `'bulk'` with a positive delay.
 */
export function checkInputOptions(
  opt: { keyboardTypeDelay?: number; inputStrategy?: string } | undefined,
): void {
  checkNonNegative("keyboardTypeDelay", opt?.keyboardTypeDelay);
  const strategy = opt?.inputStrategy;
  if (strategy !== undefined && !["legacy", "sequential", "bulk"].includes(strategy)) {
    throw new RangeError(
      `'inputStrategy' must be 'legacy', 'sequential' or 'bulk': current value is ${
        JSON.stringify(strategy)
      }`,
    );
  }
  if (strategy === "bulk" && (opt?.keyboardTypeDelay ?? 0) > 0) {
    throw new RangeError(
      `Cannot type text with inputStrategy 'bulk' as 'keyboardTypeDelay' must be 0 or unset: current value is ${opt?.keyboardTypeDelay}`,
    );
  }
}
