/**
 * The options of observation (spec 4.4): what `agent.startObserving()` and an observation's
 * queries take, and the checks that name a bad one.
 *
 * @module
 */

import { SdkRangeError, SdkTypeError } from "../errors.ts";

/** Options of `agent.startObserving()` (spec 4.4). */
export interface StartObservingOptions {
  /** Sampling interval in ms. Default 1000; minimum 200 (5 frames per second). */
  intervalMs?: number;
  /**
   * Most frames kept, an integer >= 2 (so the first and the newest both fit). Default 30. The
   * buffer thins itself evenly when full (see {@link UIObserver}).
   */
  maxFrames?: number;
  /**
   * Stops recording by itself after this many ms when `stop()` was not called. Default 300000
   * (5 minutes); `0` disables it.
   */
  watchdogMs?: number;
}

/**
 * Options of an observation query: as for `agent.aiQuery` (spec 4.3) without `domIncluded`,
 * since observations read only recorded frames (spec 4.4 rule 2).
 */
export interface ObservationQueryOptions {
  /** Send the final screenshot. Default `true`; the frames are always sent. */
  screenshotIncluded?: boolean;
  /** Per-call context. */
  context?: string;
  /**
   * Not supported: any value but `false` throws a `TypeError` (spec 4.4 rule 2, spec 7).
   * @deprecated Never pass it; observations have no DOM.
   */
  domIncluded?: false;
}

const MIN_INTERVAL_MS = 200;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The options of `startObserving()` with their defaults; throws naming a bad one. */
export function checkObservingOptions(
  options: StartObservingOptions | undefined,
): Required<StartObservingOptions> {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new SdkTypeError(
      `startObserving: options must be an object such as { intervalMs: 500 }, got ${
        JSON.stringify(options)
      }`,
    );
  }
  const intervalMs = options?.intervalMs ?? 1000;
  if (
    typeof intervalMs !== "number" || !Number.isFinite(intervalMs) || intervalMs < MIN_INTERVAL_MS
  ) {
    throw new SdkRangeError(
      `startObserving: 'intervalMs' must be a finite number >= ${MIN_INTERVAL_MS} (5 frames per second at most): current value is ${intervalMs}`,
    );
  }
  const maxFrames = options?.maxFrames ?? 30;
  if (!Number.isInteger(maxFrames) || maxFrames < 2) {
    throw new SdkRangeError(
      `startObserving: 'maxFrames' must be an integer >= 2: current value is ${maxFrames}`,
    );
  }
  const watchdogMs = options?.watchdogMs ?? 300000;
  if (
    typeof watchdogMs !== "number" || !Number.isFinite(watchdogMs) || watchdogMs < 0 ||
    watchdogMs > MAX_TIMER_MS
  ) {
    throw new SdkRangeError(
      `startObserving: 'watchdogMs' must be a number from 0 (no watchdog) to ${MAX_TIMER_MS}: current value is ${watchdogMs}`,
    );
  }
  return { intervalMs, maxFrames, watchdogMs };
}

/** Refuses `domIncluded` on an observation query (spec 4.4 rule 2). */
export function checkQueryOptions(api: string, options: ObservationQueryOptions | undefined): void {
  const dom = (options as { domIncluded?: unknown } | undefined)?.domIncluded;
  if (dom !== undefined && dom !== false) {
    throw new SdkTypeError(
      `${api}: 'domIncluded' is not supported on an observation, which reads only recorded frames (spec 4.4 rule 2); leave domIncluded unset: current value is ${
        JSON.stringify(dom)
      }`,
    );
  }
}
