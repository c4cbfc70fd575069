/**
 * How MobileC's failures become the SDK's error classes (`@sdk/core`'s taxonomy): the argument
 * errors of the shared option checks as `SdkTypeError` / `SdkRangeError`, and a device command's
 * failure as a `ToolError` of `hdc` with the device's own words.
 *
 * @module
 */

import { holdOpen, SdkRangeError, SdkTypeError, ToolError } from "@sdk/core";

/**
 * `error` in the SDK's argument classes: a plain `TypeError` or `RangeError` (what the shared
 * checks of `@sdk/core` throw) becomes an `SdkTypeError` / `SdkRangeError` with the same message
 * and the original as `cause`; anything else is returned as it is.
 */
export function asSdkError(error: unknown): unknown {
  if (error instanceof Error && error.constructor === TypeError) {
    return new SdkTypeError(error.message, { cause: error });
  }
  if (error instanceof Error && error.constructor === RangeError) {
    return new SdkRangeError(error.message, { cause: error });
  }
  return error;
}

/** Runs `check`, throwing its argument errors as the SDK's ({@link asSdkError}). */
export function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw asSdkError(error);
  }
}

/**
 * Waits for `work` while holding the process open (the hdc runs are adopted children, which do
 * not keep it alive by themselves), and rejects with its argument errors as the SDK's.
 */
export async function held<T>(work: Promise<T>): Promise<T> {
  try {
    return await holdOpen(work);
  } catch (error) {
    throw asSdkError(error);
  }
}

/**
 * The error of a device command whose answer says it failed (hdc passes on no exit code):
 * a `ToolError` of `hdc` with `message`, then what the device printed (trimmed, at most 300
 * characters).
 */
export function deviceFailure(message: string, output: string): ToolError {
  const said = output.trim().slice(0, 300);
  return new ToolError(`${message}: ${said}`, { tool: "hdc", output: said });
}
