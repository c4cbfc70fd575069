/**
 * `@sdk/core/report`: the run report an agent writes as it goes (spec 2.1, 2.8, 4.5, 4.6).
 *
 * A report is one HTML file a person opens by double-click: a list of the agent's executions
 * (`aiTap`, `aiAct`, ...) and, for each, its steps with the model's thought, raw answer, token
 * usage and the screenshot with the target marked. {@link ReportWriter} writes it: the viewer
 * once, then each update appended, with every screenshot stored once by content hash. The file
 * layout is internal and may change between versions.
 *
 * {@link ReportMergingTool} merges the reports of several tests into one report that lists each
 * test with its status, duration and title, and its executions (spec 4.6).
 *
 * @example Record one execution
 * ```ts
 * import { ReportWriter } from "@sdk/core/report";
 *
 * const writer = await ReportWriter.create({
 *   name: "login-flow",
 *   meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
 * });
 * await writer.writeExecution({
 *   id: "1",
 *   apiName: "aiAssert",
 *   prompt: "the page shows a login form",
 *   status: "passed",
 *   startedAt: Date.now(),
 *   steps: [],
 * });
 * console.log(await writer.finalize()); // <run dir>/report/login-flow.html
 * ```
 *
 * @module
 */

export { reportToHtml, ReportWriter } from "./writer.ts";
export { ReportMergingTool } from "./merge.ts";
export type { MergeReportsOptions, ReportFileWithAttributes } from "./merge.ts";
export type {
  ReportOutputFormat,
  ReportSource,
  ReportStorage,
  ReportWriterOptions,
} from "./writer.ts";
export type {
  AIUsageInfo,
  ReportAttributes,
  ReportExecution,
  ReportMeta,
  ReportModelAttempt,
  ReportPromptImage,
  ReportScreenshotSink,
  ReportStatus,
  ReportStep,
  TestStatus,
} from "./types.ts";
export type { Rect } from "../device/types.ts";
