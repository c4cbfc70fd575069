/**
 * Calls that only record, without a model (spec 4.5, 2.8): `recordToReport`, and a platform
 * agent's own method (MobileA's `launch`, ...) as one recorded call.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type { AgentState } from "./lifecycle.ts";
import type { RecordToReportOptions } from "../session/options.ts";
import { checkLive, runCall } from "./run_call.ts";
import { reportScreenshot } from "../session/screen.ts";

/** `agent.recordToReport()`: one `Log` step per screenshot, the current screen by default. */
export async function recordToReportCall(
  state: AgentState,
  title: string,
  options: RecordToReportOptions,
): Promise<void> {
  if (options.screenshots !== undefined && options.screenshotBase64 !== undefined) {
    throw new SdkTypeError(
      "recordToReport: give only one of 'screenshots' and 'screenshotBase64' (deprecated)",
    );
  }
  const given = options.screenshots ??
    (options.screenshotBase64 === undefined ? undefined : [{ base64: options.screenshotBase64 }]);
  await runCall(state, "recordToReport", title, [], async (s) => {
    const shots = given ??
      [{ base64: await reportScreenshot(s.device, s.screen.encoding, s.frozen?.screenshot) }];
    for (const shot of shots) {
      const id = s.report.addScreenshot(shot.base64);
      const step = s.recorder.begin("Log", shot.description ?? title, {
        screenshot: id,
        thought: options.content,
      });
      s.recorder.end(step);
    }
  });
}

/** `agent.recordedCall()`: `body` as one recorded call with one `Action` step. */
export async function runRecordedCall<T>(
  state: AgentState,
  apiName: string,
  title: string,
  action: string,
  param: Record<string, unknown>,
  body: () => Promise<T>,
): Promise<T> {
  checkLive(state, apiName);
  return await runCall(state, apiName, title, [], async (s) => {
    const step = s.recorder.begin("Action", action, { param });
    try {
      const out = await body();
      s.recorder.end(step);
      return out;
    } catch (e) {
      s.recorder.end(step, e);
      throw e;
    }
  });
}
