/**
 * MobileB's run log (`sdk:mobileb`), and warnings for what fails while a device cleans up: those
 * never reject, so they are both logged and printed.
 *
 * @module
 */

import { type LogFn, logger } from "@sdk/core";

/** Writes to the run log's `sdk:mobileb` category. */
export const log: LogFn = logger("sdk:mobileb");

/** Logs `what` failed with `error`, and prints it as a warning. */
export function warn(what: string, error: unknown): void {
  const message = (error as Error)?.message ?? String(error);
  log(what, { error: message });
  console.warn(`@sdk/mobileb: ${what}: ${message}`);
}
