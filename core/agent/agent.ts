/**
 * The agent: the public `ai*` methods over one device (spec 4.2-4.5), its lifecycle (3.1),
 * contexts (2.4), metrics (2.7) and report (2.8).
 *
 * @module
 */

import type { AbstractInterface } from "../device/types.ts";
import { AssertionError, WaitForTimeoutError } from "../errors.ts";
import { checkAssertion, extractData } from "../insight/extract.ts";
import { deepLocateElement, locateElement, markTarget } from "../insight/locate.ts";
import { ModelCaller } from "../model/caller.ts";
import type { ModelIntent } from "../model/config.ts";
import type { ExtractReturnType } from "../model/prompts.ts";
import { runPlan } from "../planning/act.ts";
import { ReportWriter } from "../report/writer.ts";
import type { AIUsageInfo, ReportExecution } from "../report/types.ts";
import { getEnv, sleep } from "../runtime/runtime.ts";
import { SDK_VERSION } from "../version.ts";
import { ContextStore } from "./context.ts";
import type { AIContextApiName } from "./context.ts";
import { errorMessage, ExecutionRecorder } from "./execution.ts";
import { MetricsCollector } from "./metrics.ts";
import type { AgentMetrics } from "./metrics.ts";
import type {
  AgentOptions,
  AiActOptions,
  AiInputOptions,
  AiKeyboardPressOptions,
  AiLocateOptions,
  AiScrollOptions,
  AiTapOptions,
  AiWaitForOptions,
  ExtractOptions,
  LocateOptions,
  LocateResultValue,
  RecordToReportOptions,
  ScrollParam,
  TUserPrompt,
} from "./options.ts";
import { performAction } from "./perform.ts";
import { toPhysicalRect } from "./screen.ts";
import type { CallSession } from "./session.ts";

/** The text of a prompt given as a string or a prompt object (spec 2.5). */
function promptText(p: TUserPrompt, what: string): string {
  const text = typeof p === "string" ? p : p?.prompt;
  if (typeof text !== "string" || text.trim() === "") {
    throw new TypeError(
      `${what} must be a non-empty string or an object { prompt: string }, got ${
        JSON.stringify(p)
      }`,
    );
  }
  if (typeof p === "object" && p.images?.length) {
    throw new TypeError(`${what}: prompt images (spec 2.5) are not supported yet`);
  }
  return text;
}

function isPromptObject(v: unknown): v is { prompt: string } {
  return typeof v === "object" && v !== null && "prompt" in v;
}

function checkLocateOptions(api: string, opt: LocateOptions | undefined): void {
  if (opt?.xpath !== undefined) {
    throw new TypeError(
      `${api}: the xpath option is not supported yet; describe the element instead`,
    );
  }
}

function checkNonNegative(name: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
    throw new RangeError(`'${name}' must be a finite number >= 0: current value is ${v}`);
  }
}

/** Checks the input options shared by devices and calls (spec 4.2, rules for `aiInput`). */
export function checkInputOptions(
  opt: { keyboardTypeDelay?: number; inputStrategy?: string } | undefined,
): void {
  checkNonNegative("keyboardTypeDelay", opt?.keyboardTypeDelay);
  const strategy = opt?.inputStrategy;
  if (strategy !== undefined && !["legacy", "sequential", "bulk"].includes(strategy)) {
    throw new RangeError(
      `'inputStrategy' must be 'legacy', 'sequential' or 'bulk': current value is ${
        JSON.stringify(strategy)
      }`,
    );
  }
  if (strategy === "bulk" && (opt?.keyboardTypeDelay ?? 0) > 0) {
    throw new RangeError(
      `Cannot type text with inputStrategy 'bulk' as 'keyboardTypeDelay' must be 0 or unset: current value is ${opt?.keyboardTypeDelay}`,
    );
  }
}

/**
 * An agent bound to one device. Platform packages subclass it (`DriverBPageAgent`, ...).
 *
 * @example Run a task and read a value
 * ```ts ignore
 * const agent = new Agent(device, { modelConfig: { SDK_MODEL_NAME: "qwen3-vl-plus", ... } });
 * await agent.aiAct("sign in as alice / secret");
 * const count = await agent.aiNumber("how many items does the list show?");
 * await agent.destroy();
 * ```
 */
export class Agent<I extends AbstractInterface = AbstractInterface> {
  /** The device this agent acts on. */
  readonly interface: I;
  #options: AgentOptions;
  #contexts: ContextStore;
  #metrics = new MetricsCollector();
  #caller: ModelCaller;
  #writer?: Promise<ReportWriter>;
  #reportFile: string | undefined;
  // The records of every call (no image data: screenshots are ids), for _unstableLogContent().
  #executions: ReportExecution[] = [];
  #destroyed = false;

  /**
   * Creates an agent over a device.
   *
   * @throws {RangeError} for a `screenshotShrinkFactor` below 1, a negative `waitAfterAction`, or a
   * `replanningCycleLimit` that is not a positive integer.
   */
  constructor(device: I, options: AgentOptions = {}) {
    const shrink = options.screenshotShrinkFactor;
    if (shrink !== undefined && !(Number.isFinite(shrink) && shrink >= 1)) {
      throw new RangeError(
        `'screenshotShrinkFactor' must be a finite number >= 1: current value is ${shrink}`,
      );
    }
    checkNonNegative("waitAfterAction", options.waitAfterAction);
    const limit = options.replanningCycleLimit;
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      throw new RangeError(
        `'replanningCycleLimit' must be a positive integer: current value is ${limit}`,
      );
    }
    if (options.persistExecutionDump && options.generateReport === false) {
      throw new TypeError("persistExecutionDump requires generateReport to be true");
    }
    this.interface = device;
    this.#options = options;
    this.#contexts = new ContextStore(options);
    this.#caller = new ModelCaller({
      modelConfig: options.modelConfig,
      createModelClient: options.createModelClient,
      onUsage: (u: AIUsageInfo) => {
        this.#metrics.add(u);
        try {
          options.onLLMUsage?.(u);
        } catch (e) {
          console.warn(`onLLMUsage threw: ${errorMessage(e)}`);
        }
      },
    });
  }

  /**
   * Path of the report file (spec 2.8): undefined before the first execution, when reports are
   * off, or in a browser runtime; the final path after `destroy()`.
   */
  get reportFile(): string | null | undefined {
    return this.#reportFile;
  }

  /** Usage accumulated since the agent was created (spec 2.7). */
  get metrics(): AgentMetrics {
    return this.#metrics.snapshot();
  }

  #reportWriter(): Promise<ReportWriter> {
    return this.#writer ??= ReportWriter.create({
      name: this.#options.reportFileName,
      generateReport: this.#options.generateReport !== false,
      outputFormat: this.#options.outputFormat,
      persistExecutionDump: this.#options.persistExecutionDump,
      meta: { sdkVersion: SDK_VERSION, interfaceType: this.interface.interfaceType },
    });
  }

  /** Runs one public call: checks, records, reports. */
  async #run<T>(
    apiName: string,
    prompt: string,
    intents: readonly ModelIntent[],
    body: (s: CallSession) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.#destroyed) {
      throw new Error(`${apiName}: this agent was destroyed; create a new agent`);
    }
    // A missing or invalid model configuration fails here, before any action.
    for (const intent of intents) this.#caller.config(intent);
    await this.#options.onTaskStartTip?.(`${apiName}: ${prompt}`);
    const writer = await this.#reportWriter();
    const startedAt = await this.#now();
    const recorder = new ExecutionRecorder(writer, apiName, prompt, startedAt);
    this.#executions.push(recorder.record);
    const s: CallSession = {
      device: this.interface,
      caller: this.#caller,
      recorder,
      report: writer,
      shrinkFactor: this.#options.screenshotShrinkFactor ?? 1,
      waitAfterAction: this.#options.waitAfterAction ?? 300,
      signal,
    };
    try {
      const out = await body(s);
      recorder.record.status = "passed";
      if (out !== undefined) recorder.record.output = out;
      return out;
    } catch (e) {
      recorder.record.status = "failed";
      recorder.record.error = errorMessage(e);
      throw e;
    } finally {
      recorder.record.endedAt = Date.now();
      try {
        await recorder.flush();
        const firstFile = this.#reportFile === undefined && writer.file;
        this.#reportFile = writer.file;
        if (firstFile && this.#options.autoPrintReportMsg !== false) {
          console.log(`SDK report: ${writer.file}`);
        }
      } catch (e) {
        console.warn(`Could not write the report: ${errorMessage(e)}`);
      }
    }
  }

  async #now(): Promise<number> {
    if (!this.#options.useDeviceTime) return Date.now();
    if (!this.interface.getDeviceLocalTimeString) {
      console.warn("useDeviceTime: this device has no getDeviceLocalTimeString; using system time");
      return Date.now();
    }
    const t = Date.parse(await this.interface.getDeviceLocalTimeString());
    return Number.isFinite(t) ? t : Date.now();
  }

  #context(api: AIContextApiName, callContext?: string): string | undefined {
    return this.#contexts.resolve(api, callContext) || undefined;
  }

  /** Locates then performs one named action (the instant actions). */
  async #instant(
    api: AIContextApiName,
    actionName: string,
    locate: TUserPrompt | undefined,
    opt: LocateOptions | undefined,
    param: Record<string, unknown> = {},
  ): Promise<void> {
    checkLocateOptions(api, opt);
    const text = locate === undefined ? undefined : promptText(locate, `${api} locate`);
    return await this.#run(api, text ?? actionName, ["default"], async (s) => {
      let mark = {};
      if (text !== undefined) {
        const locate = opt?.deepLocate || opt?.deepThink ? deepLocateElement : locateElement;
        const found = await locate(s, text, this.#context(api, opt?.context));
        param = { ...param, locate: found.element };
        mark = { screenshot: found.screen.screenshotId, ...markTarget(found.imageRect) };
      }
      await performAction(s, actionName, param, mark);
    });
  }

  /**
   * Plans and performs a multi-step task (spec 4.2 `aiAct`), replanning from each new screen.
   *
   * @returns the model's output text when it gave one.
   * @throws {PlanningError} when the model reports the task impossible, an action fails, or
   * `replanningCycleLimit` is reached; the signal's reason when `abortSignal` aborts.
   */
  async aiAct(prompt: TUserPrompt, options: AiActOptions = {}): Promise<string | undefined> {
    const text = promptText(prompt, "aiAct prompt");
    if (options.fileChooserAccept !== undefined || options.fileChooserAllowedDir !== undefined) {
      throw new TypeError("aiAct: file chooser options are not supported yet");
    }
    const deepThink = options.deepThink === true;
    return await this.#run("aiAct", text, ["planning", "default"], (s) => {
      const envLimit = Number(getEnv("SDK_REPLANNING_CYCLE_LIMIT"));
      const cycleLimit = this.#options.replanningCycleLimit ??
        (Number.isInteger(envLimit) && envLimit > 0
          ? envLimit
          : s.caller.config("planning").family.replanningCycleLimit);
      return runPlan(s, text, {
        context: this.#context("aiAct", options.context),
        deepThink,
        deepLocate: options.deepLocate === true,
        cycleLimit,
      });
    }, options.abortSignal);
  }

  /** Alias of {@link aiAct}. */
  async ai(prompt: TUserPrompt, options?: AiActOptions): Promise<string | undefined> {
    return await this.aiAct(prompt, options);
  }

  /** @deprecated Former name of {@link aiAct}. */
  async aiAction(prompt: TUserPrompt, options?: AiActOptions): Promise<string | undefined> {
    return await this.aiAct(prompt, options);
  }

  /** Taps (clicks) the element `locate` describes. */
  async aiTap(locate: TUserPrompt, options?: AiTapOptions): Promise<void> {
    if (options?.fileChooserAccept !== undefined) {
      throw new TypeError("aiTap: fileChooserAccept is not supported yet");
    }
    return await this.#instant("aiTap", "Tap", locate, options);
  }

  /** Moves the pointer over the element (web and desktop). */
  async aiHover(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await this.#instant("aiHover", "Hover", locate, options);
  }

  /** Double-clicks the element. */
  async aiDoubleClick(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await this.#instant("aiDoubleClick", "DoubleClick", locate, options);
  }

  /** Right-clicks the element (its own context-menu handler, not the browser's menu). */
  async aiRightClick(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await this.#instant("aiRightClick", "RightClick", locate, options);
  }

  /** Clears the input field `locate` describes. */
  async aiClearInput(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await this.#instant("aiClearInput", "ClearInput", locate, options);
  }

  /**
   * Enters text into a field. Locate-first `aiInput(locate, { value, mode })`, or the deprecated
   * `aiInput(value, locate, options)`.
   *
   * @throws {TypeError} when `value` is missing and `mode` is not `'clear'`.
   * @throws {RangeError} for an invalid `keyboardTypeDelay` / `inputStrategy` combination.
   */
  aiInput(locate: TUserPrompt, options: AiInputOptions): Promise<void>;
  /** @deprecated Value-first signature; use `aiInput(locate, { value })`. */
  aiInput(value: string | number, locate: TUserPrompt, options?: AiInputOptions): Promise<void>;
  async aiInput(
    a: TUserPrompt | string | number,
    b: AiInputOptions | TUserPrompt,
    c?: AiInputOptions,
  ): Promise<void> {
    let locate: TUserPrompt, opt: AiInputOptions;
    if (typeof b === "object" && b !== null && !isPromptObject(b)) {
      locate = a as TUserPrompt;
      opt = b;
    } else {
      locate = b as TUserPrompt;
      opt = { ...c, value: a as string | number };
    }
    checkInputOptions(opt);
    const mode = opt.mode === "append" ? "typeOnly" : opt.mode ?? "replace";
    if (!["replace", "typeOnly", "clear"].includes(mode)) {
      throw new RangeError(
        `aiInput: mode must be 'replace', 'typeOnly' or 'clear': current value is ${
          JSON.stringify(opt.mode)
        }`,
      );
    }
    if (mode !== "clear" && (opt.value === undefined || opt.value === null)) {
      throw new TypeError("aiInput needs a value: aiInput(locate, { value: 'text' })");
    }
    const value = mode === "clear" ? "" : String(opt.value);
    return await this.#instant("aiInput", "Input", locate, opt, { value, mode });
  }

  /**
   * Presses a key or combination (`Enter`, `Control+A`). Locate-first
   * `aiKeyboardPress(locate | undefined, { keyName })`, or the deprecated
   * `aiKeyboardPress(keyName, locate?, options?)`. Without a locate, the focused element gets it.
   */
  aiKeyboardPress(locate: TUserPrompt | undefined, options: AiKeyboardPressOptions): Promise<void>;
  /** @deprecated Key-first signature; use `aiKeyboardPress(locate, { keyName })`. */
  aiKeyboardPress(keyName: string, locate?: TUserPrompt, options?: LocateOptions): Promise<void>;
  async aiKeyboardPress(
    a: TUserPrompt | string | undefined,
    b?: AiKeyboardPressOptions | TUserPrompt,
    c?: LocateOptions,
  ): Promise<void> {
    let locate: TUserPrompt | undefined, opt: AiKeyboardPressOptions;
    if (typeof b === "object" && b !== null && "keyName" in b) {
      locate = a;
      opt = b;
    } else {
      locate = b as TUserPrompt | undefined;
      opt = { ...c, keyName: a as string };
    }
    if (typeof opt.keyName !== "string" || opt.keyName === "") {
      throw new TypeError("aiKeyboardPress needs a keyName, e.g. { keyName: 'Enter' }");
    }
    return await this.#instant("aiKeyboardPress", "KeyboardPress", locate, opt, {
      keyName: opt.keyName,
    });
  }

  /**
   * Scrolls. Locate-first `aiScroll(locate | undefined, { direction, scrollType, distance })`, or
   * the deprecated `aiScroll(scrollParam, locate?, options?)`. Without a locate, scrolls at the
   * pointer.
   */
  aiScroll(locate: TUserPrompt | undefined, options?: AiScrollOptions): Promise<void>;
  /** @deprecated Param-first signature; use `aiScroll(locate, { direction, ... })`. */
  aiScroll(scrollParam: ScrollParam, locate?: TUserPrompt, options?: LocateOptions): Promise<void>;
  async aiScroll(
    a: TUserPrompt | ScrollParam | undefined,
    b?: AiScrollOptions | TUserPrompt,
    c?: LocateOptions,
  ): Promise<void> {
    let locate: TUserPrompt | undefined, opt: AiScrollOptions;
    if (typeof a === "object" && a !== null && !isPromptObject(a)) {
      locate = b as TUserPrompt | undefined;
      opt = { ...c, ...(a as ScrollParam) };
    } else {
      locate = a as TUserPrompt | undefined;
      opt = (b as AiScrollOptions | undefined) ?? {};
    }
    const param: Record<string, unknown> = {
      direction: opt.direction ?? "down",
      scrollType: opt.scrollType ?? "singleAction",
    };
    if (opt.distance !== undefined && opt.distance !== null) param.distance = opt.distance;
    return await this.#instant("aiScroll", "Scroll", locate, opt, param);
  }

  /**
   * Locates an element (spec 2.6): `rect` and `center` in physical screenshot pixels, and `dpr`.
   *
   * @throws {LocateError} when the element is not on the screen.
   */
  async aiLocate(locate: TUserPrompt, options?: AiLocateOptions): Promise<LocateResultValue> {
    checkLocateOptions("aiLocate", options);
    const text = promptText(locate, "aiLocate locate");
    return await this.#run("aiLocate", text, ["default"], async (s) => {
      const locate = options?.deepLocate || options?.deepThink ? deepLocateElement : locateElement;
      const found = await locate(s, text, this.#context("aiLocate", options?.context));
      const rect = toPhysicalRect(found.screen, found.imageRect);
      return {
        rect,
        center: [Math.round(rect.left + rect.width / 2), Math.round(rect.top + rect.height / 2)],
        dpr: found.screen.logical.dpr,
      };
    });
  }

  async #extract(
    api: AIContextApiName,
    demand: TUserPrompt,
    returnType: ExtractReturnType,
    options: ExtractOptions | undefined,
  ): Promise<unknown> {
    const text = promptText(demand, `${api} prompt`);
    if (options?.domIncluded) {
      throw new TypeError(`${api}: domIncluded is not supported yet; leave it unset`);
    }
    return await this.#run(api, text, ["insight"], (s) =>
      extractData(s, text, returnType, {
        context: this.#context(api, options?.context),
        screenshotIncluded: options?.screenshotIncluded,
      }));
  }

  /** Extracts data in the shape `dataDemand` describes (spec 4.3). */
  async aiQuery<T = unknown>(dataDemand: TUserPrompt, options?: ExtractOptions): Promise<T> {
    return (await this.#extract("aiQuery", dataDemand, "any", options)) as T;
  }

  /** Answers a yes/no question about the screen. */
  async aiBoolean(prompt: TUserPrompt, options?: ExtractOptions): Promise<boolean> {
    return (await this.#extract("aiBoolean", prompt, "boolean", options)) as boolean;
  }

  /** Reads a number from the screen. */
  async aiNumber(prompt: TUserPrompt, options?: ExtractOptions): Promise<number> {
    return (await this.#extract("aiNumber", prompt, "number", options)) as number;
  }

  /** Reads a string from the screen; same as {@link aiAsk}. */
  async aiString(prompt: TUserPrompt, options?: ExtractOptions): Promise<string> {
    return (await this.#extract("aiString", prompt, "string", options)) as string;
  }

  /** Asks a question about the screen; same as {@link aiString}. */
  async aiAsk(prompt: TUserPrompt, options?: ExtractOptions): Promise<string> {
    return (await this.#extract("aiAsk", prompt, "string", options)) as string;
  }

  /**
   * Checks an assertion about the screen.
   *
   * @throws {AssertionError} carrying `errorMsg` and the model's `reason` when it is false.
   */
  async aiAssert(
    assertion: TUserPrompt,
    errorMsg?: string,
    options?: ExtractOptions,
  ): Promise<void> {
    const text = promptText(assertion, "aiAssert assertion");
    if (options?.domIncluded) throw new TypeError("aiAssert: domIncluded is not supported yet");
    return await this.#run("aiAssert", text, ["insight"], async (s) => {
      const check = await checkAssertion(s, text, this.#context("aiAssert", options?.context));
      if (!check.pass) throw new AssertionError(text, errorMsg, check.thought);
    });
  }

  /**
   * Waits until an assertion holds (spec 4.4): a new check may start while less than `timeoutMs`
   * has passed; checks start at least `checkIntervalMs` apart.
   *
   * @throws {WaitForTimeoutError} with the last reason when the window closes first.
   */
  async aiWaitFor(assertion: string, options: AiWaitForOptions = {}): Promise<void> {
    const text = promptText(assertion, "aiWaitFor assertion");
    const timeoutMs = options.timeoutMs ?? 15000;
    const intervalMs = options.checkIntervalMs ?? 3000;
    checkNonNegative("timeoutMs", timeoutMs);
    checkNonNegative("checkIntervalMs", intervalMs);
    return await this.#run("aiWaitFor", text, ["insight"], async (s) => {
      const t0 = Date.now();
      const context = this.#context("aiWaitFor", options.context);
      for (;;) {
        const checkStart = Date.now();
        const check = await checkAssertion(s, text, context);
        if (check.pass) return;
        const next = checkStart + intervalMs;
        if (next - t0 > timeoutMs) {
          throw new WaitForTimeoutError(
            `aiWaitFor timed out after ${timeoutMs} ms: ${text}\nLast check: ${check.thought}`,
          );
        }
        await sleep(Math.max(0, next - Date.now()));
      }
    });
  }

  /**
   * Adds a record to the report (spec 4.5, 2.8): one step per screenshot with `options.content`
   * as its description. Without `screenshots`, the current screen is captured. Needs no model.
   *
   * @throws {TypeError} when both `screenshots` and `screenshotBase64` are given, or a screenshot
   * is not a PNG/JPEG data URI or raw base64 body (as a rejection).
   */
  async recordToReport(title = "untitled", options: RecordToReportOptions = {}): Promise<void> {
    if (options.screenshots !== undefined && options.screenshotBase64 !== undefined) {
      throw new TypeError(
        "recordToReport: give only one of 'screenshots' and 'screenshotBase64' (deprecated)",
      );
    }
    const given = options.screenshots ??
      (options.screenshotBase64 === undefined ? undefined : [{ base64: options.screenshotBase64 }]);
    await this.#run("recordToReport", title, [], async (s) => {
      const shots = given ?? [{ base64: await s.device.screenshotBase64() }];
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

  /**
   * The agent's log so far: every call with its steps, screenshots by id (spec 4.5). The shape is
   * unstable and may change between versions.
   */
  _unstableLogContent(): { executions: ReportExecution[] } {
    return { executions: structuredClone(this.#executions) };
  }

  /**
   * Sets or removes an agent context (spec 4.5): for an API, `''` blocks the shared default and
   * `undefined` removes the override; for `'default'`, `undefined` removes the shared fallback.
   */
  setAIContext(target: "default" | AIContextApiName, context: string | undefined): void {
    this.#contexts.set(target, context);
  }

  /** @deprecated Same as `setAIContext('aiAct', context)`. */
  setAIActContext(aiActContext: string): void {
    this.#contexts.set("aiAct", aiActContext);
  }

  /** @deprecated Older alias of {@link setAIActContext}. */
  setAIActionContext(aiActionContext: string): void {
    this.#contexts.set("aiAct", aiActionContext);
  }

  /**
   * Disposes the agent (spec 3.1): calls the device's `destroy()`, then finalizes the report even
   * when that cleanup fails, then rejects with the cleanup error. Later calls do nothing.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    let failure: unknown;
    let failed = false;
    try {
      await this.interface.destroy?.();
    } catch (e) {
      failure = e;
      failed = true;
    }
    if (this.#writer) {
      try {
        this.#reportFile = await (await this.#writer).finalize();
      } catch (e) {
        if (!failed) [failure, failed] = [e, true];
      }
    }
    if (failed) throw failure;
  }
}
