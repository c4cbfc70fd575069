/**
 * Shapes of the report data: what the agent records and the viewer shows (spec 2.8, 4.5), and
 * what a merged report shows about each test (4.6).
 *
 * Screenshots are stored once, by content hash, and referenced by id from the steps, so a long
 * run keeps memory and file size flat.
 *
 * @module
 */

import type { Rect } from "../device/types.ts";

/** Token usage and identity of one model call, as passed to `onLLMUsage` (spec 2.7). */
export interface AIUsageInfo {
  /** Prompt (input) tokens. */
  promptTokens: number;
  /** Completion (output) tokens. */
  completionTokens: number;
  /** Total tokens as reported by the provider (prompt + completion when not reported). */
  totalTokens: number;
  /** Input tokens served from the provider's cache (0 when not reported). */
  cachedInputTokens: number;
  /** Model name the call was made with. */
  modelName: string;
  /** Intent of the call: `"planning"`, `"insight"` or `"default"`. */
  intent: string;
  /** Provider's request / response id when given, else a local id. */
  requestId: string;
  /** Wall time of the call in ms. */
  timeCostMs: number;
}

/** Status of an execution or step. */
export type ReportStatus = "running" | "passed" | "failed";

/** One step inside an execution: a model call, an action, a check. */
export interface ReportStep {
  /** Step kind; `"Observed"` is one frame recorded by `startObserving` (spec 4.4 rule 5). */
  kind: "Planning" | "Locate" | "Action" | "Extract" | "Assert" | "Log" | "Observed";
  /** Short title, e.g. `"Tap"` or `"Locate 'the login button'"`. */
  title: string;
  /** Outcome. */
  status: ReportStatus;
  /** Start, ms since epoch. */
  startedAt: number;
  /** End, ms since epoch (unset while running). */
  endedAt?: number;
  /** Id of the screenshot this step looked at or acted on (see {@link ReportScreenshotSink}). */
  screenshot?: string;
  /** Size of that screenshot image in pixels. */
  screenshotSize?: { width: number; height: number };
  /** Target marked on the screenshot, in that screenshot's image pixels. */
  target?: Rect;
  /** Click point marked on the screenshot, in that screenshot's image pixels. */
  point?: [number, number];
  /** The model's reasoning for this step. */
  thought?: string;
  /** The model's raw answer text. */
  rawResponse?: string;
  /** Action parameters (coordinates already resolved), for display. */
  param?: unknown;
  /**
   * Usage of the model call made by this step; when the SDK retried an unusable answer, the sum
   * over both calls (each call's own usage is in {@link ReportStep.attempts}).
   */
  usage?: AIUsageInfo;
  /**
   * Every model call of this step when there was more than one (an unusable answer and its
   * retry), in order: each call's raw answer, usage, and why the answer could not be used.
   */
  attempts?: ReportModelAttempt[];
  /** Error message when the step failed. */
  error?: string;
}

/** One model call of a step that needed a retry. */
export interface ReportModelAttempt {
  /** The model's raw answer text. */
  rawResponse: string;
  /** Usage of this call. */
  usage?: AIUsageInfo;
  /** Why the answer could not be used (unset for the answer that was used). */
  error?: string;
}

/**
 * An image a prompt object carried (spec 2.5): its name, and either the image in the report's
 * screenshot store or the http(s) link that was sent to the model as is.
 */
export interface ReportPromptImage {
  /** The name the prompt text refers to it by. */
  name: string;
  /** Id of the image in the screenshot store (see {@link ReportScreenshotSink}). */
  screenshot?: string;
  /** The http(s) link sent to the model, when the image was not inlined. */
  url?: string;
}

/** One public API call (`aiTap`, `aiAct`, ...) and its steps. */
export interface ReportExecution {
  /** Unique id within the report. */
  id: string;
  /** API name, e.g. `"aiTap"`. */
  apiName: string;
  /** The user's prompt, as text. */
  prompt: string;
  /** Images of the prompt object (spec 2.5), in order; unset when it had none. */
  promptImages?: ReportPromptImage[];
  /** Outcome. */
  status: ReportStatus;
  /** Start, ms since epoch (or the device time when `useDeviceTime` is set and available). */
  startedAt: number;
  /** End, ms since epoch. */
  endedAt?: number;
  /** Result returned to the caller (extraction data, `aiAct` output), when any. */
  output?: unknown;
  /** Error message when the call failed. */
  error?: string;
  /** True when the call ran on a frozen page context (spec 3.2). */
  frozenContext?: boolean;
  /** Steps in order. */
  steps: ReportStep[];
}

/** Outcome of a test (spec 2.8 `reportAttributes.testStatus`). */
export type TestStatus = "passed" | "failed" | "timedOut" | "skipped" | "interrupted";

/** What a merged report shows about one test (spec 2.8 `reportAttributes`). */
export interface ReportAttributes {
  /** Unique workflow (test) identifier. */
  testId: string;
  /** Workflow title, shown in the merged report's list of sources. */
  testTitle: string;
  /** Workflow description, shown under the title (may be empty). */
  testDescription: string;
  /** Workflow duration in ms (a finite number, 0 or more). */
  testDuration: number;
  /** Workflow status. */
  testStatus: TestStatus;
  /**
   * The device the workflow ran on (`<platform>:<id>`), in a run over several devices: the merged
   * report then shows a device x title matrix, each cell opening that run.
   */
  testDevice?: string;
}

/** Header of a report: what ran, where. */
export interface ReportMeta {
  /** Report name (the file name without `.html`). */
  name: string;
  /** SDK version. */
  sdkVersion: string;
  /** Interface kind of the agent, e.g. `"web-page"`. */
  interfaceType: string;
  /** Creation time, ms since epoch. */
  createdAt: number;
}

/** Where the agent sends report data. One per agent. */
export interface ReportScreenshotSink {
  /**
   * Registers a screenshot given as a data URI and returns its id (a content hash). The same
   * image registered twice is stored once.
   */
  addScreenshot(dataUri: string): string;
}
