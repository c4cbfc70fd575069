/**
 * The device seam's side of the run log: each device action's call, with its parameters, time
 * and outcome, under the `sdk:device` category (docs/logs.md).
 *
 * @module
 */

import type { DeviceAction } from "../device/types.ts";
import { logger } from "./run_log.ts";

const log = logger("sdk:device");

/**
 * The same actions, each logging its calls to the run log under `sdk:device`: the action's name,
 * its parameters, the time it took (ms), and its error if it threw. A device applies it to its
 * action space once, custom actions included.
 */
export function logDeviceActions<P>(actions: readonly DeviceAction<P>[]): DeviceAction<P>[] {
  return actions.map((action) => ({
    ...action,
    call: async (param, context) => {
      const started = Date.now();
      // A secret typed value is logged as ***, whatever its length.
      const shown = () =>
        context?.secret?.value && param && typeof param === "object" && "value" in param
          ? { ...param, value: "***" }
          : param;
      try {
        await action.call(param, context);
        log(action.name, { param: shown(), ms: Date.now() - started });
      } catch (e) {
        log(`${action.name} failed`, { param: shown(), ms: Date.now() - started, error: e });
        throw e;
      }
    },
  }));
}
