/**
 * The desktop's errors all carry a `code`: the shared checks of `@sdk/core` it calls (option
 * checks, parameter readers, key names) throw the built-in `TypeError` and `RangeError`, which
 * this turns into {@link SdkTypeError} and {@link SdkRangeError} with the same message (the
 * original as `cause`). They stay a `TypeError` and a `RangeError`.
 *
 * @module
 */

import type { DeviceAction } from "@sdk/core";
import { isSdkError, SdkRangeError, SdkTypeError } from "@sdk/core";

/** `error` with a code: a plain `TypeError` or `RangeError` as the SDK's own; others unchanged. */
export function withCode(error: unknown): unknown {
  if (isSdkError(error)) return error;
  if (error instanceof RangeError) return new SdkRangeError(error.message, { cause: error });
  if (error instanceof TypeError) return new SdkTypeError(error.message, { cause: error });
  return error;
}

/** Runs `check`, rethrowing what it throws {@link withCode}. */
export function coded<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    throw withCode(e);
  }
}

/** The actions with their errors {@link withCode} (for the built-in ones, not a caller's). */
export function codedActions(actions: DeviceAction[]): DeviceAction[] {
  return actions.map((action) => ({
    ...action,
    call: async (param, context) => {
      try {
        await action.call(param, context);
      } catch (e) {
        throw withCode(e);
      }
    },
  }));
}
