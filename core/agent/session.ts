/**
 * What one API call works with: the device, the model caller, its recorder, and the agent's
 * settings. Insight and planning functions take this instead of the agent, so they stay small and
 * testable.
 *
 * @module
 */

import type { AbstractInterface } from "../device/types.ts";
import type { ModelCaller } from "../model/caller.ts";
import type { ModelIntent } from "../model/config.ts";
import type { ReportScreenshotSink } from "../report/types.ts";
import type { ExecutionRecorder } from "./execution.ts";
import { captureScreen } from "./screen.ts";
import type { Screen } from "./screen.ts";

/** Everything a call needs. */
export interface CallSession {
  /** The device acted on. */
  device: AbstractInterface;
  /** The model caller. */
  caller: ModelCaller;
  /** The execution being recorded. */
  recorder: ExecutionRecorder;
  /** Screenshot store of the report. */
  report: ReportScreenshotSink;
  /** `screenshotShrinkFactor`. */
  shrinkFactor: number;
  /** `waitAfterAction`, ms. */
  waitAfterAction: number;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** Captures the screen as the model of `intent` should see it. */
export function captureFor(s: CallSession, intent: ModelIntent): Promise<Screen> {
  return captureScreen(s.device, s.caller.config(intent).family, s.shrinkFactor, s.report);
}
