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
