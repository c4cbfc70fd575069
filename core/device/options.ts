/**
 * Checks of a device's constructor options that every platform makes the same way.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";

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
      throw new SdkTypeError(
        `Cannot create ${subject} as '${key}' must be a boolean: current value is ${
          JSON.stringify(value)
        }`,
      );
    }
  }
}

/**
 * A device's `keyboardTypeDelay` option, checked.
 *
 * @param subject what is being created, for the message (`"MobileADevice"`).
 * @param value the option as given (unchecked input).
 * @returns the delay between typed code points, ms, or `undefined` when it is not set.
 * @throws {RangeError} `Cannot create <subject> as 'keyboardTypeDelay' must be a finite number of
 *   ms >= 0: current value is ...` for anything else (`null` included).
 */
export function checkTypeDelayOption(subject: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  throw new SdkRangeError(
    `Cannot create ${subject} as 'keyboardTypeDelay' must be a finite number of ms >= 0: ` +
      `current value is ${JSON.stringify(value)}`,
  );
}

/**
 * A device option that takes one of a few words (`keyboardDismissStrategy`, `imeStrategy`, ...),
 * checked.
 *
 * @param subject what is being created, for the message (`"MobileCDevice"`).
 * @param name the option's name, for the message.
 * @param value the option as given (unchecked input).
 * @param values the words it takes.
 * @param fallback what an unset option (`undefined`) stands for.
 * @returns `value`, or `fallback` when it is `undefined`.
 * @throws {TypeError} `Cannot create <subject> as '<name>' must be 'a', 'b' or 'c': current value
 *   is ...` for anything else (`null` included).
 */
export function checkOneOfOption<T extends string>(
  subject: string,
  name: string,
  value: unknown,
  values: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  const quoted = values.map((v) => `'${v}'`);
  const words = quoted.length > 1
    ? `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`
    : quoted.join("");
  throw new SdkTypeError(
    `Cannot create ${subject} as '${name}' must be ${words}: current value is ${
      JSON.stringify(value)
    }`,
  );
}

/** Throws a `RangeError` naming `name` unless `v` is absent or a finite number >= 0. */
export function checkNonNegative(name: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
    throw new SdkRangeError(`'${name}' must be a finite number >= 0: current value is ${v}`);
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
    throw new SdkRangeError(
      `'inputStrategy' must be 'legacy', 'sequential' or 'bulk': current value is ${
        JSON.stringify(strategy)
      }`,
    );
  }
  if (strategy === "bulk" && (opt?.keyboardTypeDelay ?? 0) > 0) {
    throw new SdkRangeError(
      `Cannot type text with inputStrategy 'bulk' as 'keyboardTypeDelay' must be 0 or unset: current value is ${opt?.keyboardTypeDelay}`,
    );
  }
}

/** The typing settings of one `Input`: the action's over the device's (spec 4.2, aiInput rule 5). */
export interface TypeSettings {
  /** Delay between typed code points, ms (0: none). */
  delay: number;
  /** How the text is sent. */
  strategy: "legacy" | "sequential" | "bulk";
}

/**
 * The action's typing settings over the device's defaults, checked before anything is typed.
 *
 * @param overrides the action's `keyboardTypeDelay` and `inputStrategy`, when given.
 * @param deviceDelay the device's `keyboardTypeDelay` (undefined: none).
 * @param deviceStrategy the device's `inputStrategy`.
 * @throws {RangeError} as {@link checkInputOptions} for the overrides, and for `'bulk'` with a
 *   positive delay, saying which of the two is the device's default and how to fix the call.
 */
export function typeSettings(
  overrides: { keyboardTypeDelay?: number; inputStrategy?: string } | undefined,
  deviceDelay: number | undefined,
  deviceStrategy: TypeSettings["strategy"],
): TypeSettings {
  checkInputOptions(overrides);
  const delay = overrides?.keyboardTypeDelay ?? deviceDelay ?? 0;
  const strategy = (overrides?.inputStrategy ?? deviceStrategy) as TypeSettings["strategy"];
  if (strategy === "bulk" && delay > 0) {
    // One of the two is the device's default (each alone was checked).
    const fix = overrides?.keyboardTypeDelay === undefined
      ? "the delay is the device's default: give keyboardTypeDelay: 0 with the action"
      : "'bulk' is the device's default: give the action another inputStrategy";
    throw new SdkRangeError(
      `Cannot run Input with inputStrategy 'bulk' as 'keyboardTypeDelay' must be 0 or unset: ` +
        `current value is ${delay} (${fix})`,
    );
  }
  return { delay, strategy };
}
