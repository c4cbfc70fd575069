/**
 * The agent: the public `ai*` methods over one device (spec 4.2-4.5), its lifecycle (3.1),
 * contexts (2.4), metrics (2.7) and report (2.8).
 *
 * @module
 */

import type { AbstractInterface, ActionContext } from "../device/types.ts";
import { AssertionError, LocateError, WaitForTimeoutError } from "../errors.ts";
import { checkAssertion, extractData } from "../insight/extract.ts";
import { deepLocateElement, locateElement, markTarget } from "../insight/locate.ts";
import type { LocateResult } from "../insight/locate.ts";
import { locateByXpath } from "../insight/locate_xpath.ts";
import { startObserving, type UIObserver } from "../observe/observer.ts";
import type { ObservedCallInput } from "../observe/host.ts";
import type { StartObservingOptions } from "../observe/options.ts";
import { ObserverRegistry } from "../observe/registry.ts";
import { ModelCaller } from "../model/caller.ts";
import type { ModelIntent } from "../model/config.ts";
import type { ExtractReturnType } from "../model/prompts.ts";
import { runPlan } from "../planning/act.ts";
import { runGherkinScenario as runScenario } from "../gherkin/run_scenario.ts";
import { runYamlScript } from "../script/run_yaml.ts";
import type { RunYamlOptions, RunYamlResult } from "../script/run_yaml.ts";
import type { GherkinScenarioOptions } from "../gherkin/run_scenario.ts";
import { resolveScreenshotEncoding } from "../image/encoding.ts";
import { ReportWriter } from "../report/writer.ts";
import type { AIUsageInfo, ReportExecution } from "../report/types.ts";
import { getEnv, sleep } from "../runtime/runtime.ts";
import { logger, runLog } from "../log/run_log.ts";
import { SDK_VERSION } from "../version.ts";
import { locateWithCache } from "./cache/locate_cache.ts";
import { resolveCacheSettings } from "./cache/options.ts";
import type { CacheSettings } from "./cache/options.ts";
import { TaskCache } from "./cache/store.ts";
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
  AiLongPressOptions,
  AiPinchOptions,
  AiScrollOptions,
  AiTapOptions,
  AiWaitForOptions,
  ExtractOptions,
  LocateOptions,
  LocateResultValue,
  PromptWithImages,
  RecordToReportOptions,
  ScrollParam,
  TUserPrompt,
} from "./options.ts";
import { checkLocateOptions, checkPositive, domOption, isPromptObject } from "./call_checks.ts";
import { checkInputOptions, checkNonNegative } from "../device/options.ts";
import { findAction, performAction } from "./perform.ts";
import { resolvePrompt } from "./prompt_input.ts";
import type { ResolvedPrompt } from "./prompt_input.ts";
import { reportScreenshot, toPhysicalRect } from "./screen.ts";
import type { ScreenSettings } from "./screen.ts";
import { freezeContext } from "./session.ts";
import type { CallSession, FrozenContext } from "./session.ts";
import { resolveUploadOptions } from "./upload_paths.ts";

const log = logger("sdk:agent");

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
  // The snapshot of freezePageContext() (spec 3.2); undefined while live.
  #frozen: FrozenContext | undefined;
  // The cache settings (spec 2.2), and the cache file's records once a call needed them.
  #cacheSettings: CacheSettings | undefined;
  #cache?: Promise<TaskCache>;
  // How screenshots are encoded and shrunk (screenshotFormat, screenshotQuality, shrink factor).
  readonly #screen: ScreenSettings;
  // The recording observer and the observations whose frames still exist (spec 3.3).
  readonly #observers = new ObserverRegistry();

  /**
   * Creates an agent over a device.
   *
   * @throws {RangeError} for a `screenshotShrinkFactor` below 1, a negative `waitAfterAction`, a
   * `replanningCycleLimit` that is not a positive integer, a `screenshotQuality` that is not an
   * integer from 1 to 100, or an unknown `cache.strategy`.
   * @throws {TypeError} for a `cache` that is neither `false` nor an object with a non-empty
   * string `id`, an empty `cacheId`, a `cache.cacheDir` that is not a non-empty string, or a
   * `screenshotFormat` other than `"jpeg"` and `"png"`.
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
    this.#screen = {
      encoding: resolveScreenshotEncoding(options.screenshotFormat, options.screenshotQuality),
      shrinkFactor: shrink ?? 1,
    };
    this.#cacheSettings = resolveCacheSettings(options);
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

  /**
   * Runs one public call: checks, records, reports. A resolved prompt's images go to every model
   * request of the call and to the report. A cache the body used is written after it.
   */
  async #run<T>(
    apiName: string,
    prompt: string | ResolvedPrompt,
    intents: readonly ModelIntent[],
    body: (s: CallSession) => Promise<T>,
    signal?: AbortSignal,
    observed?: ObservedCallInput,
  ): Promise<T> {
    if (this.#destroyed) {
      throw new Error(`${apiName}: this agent was destroyed; create a new agent`);
    }
    return await this.#exec(apiName, prompt, intents, body, signal, observed);
  }

  /**
   * {@link #run} without the destroyed check (the observer's report at `destroy()`). An
   * observation query (`observed`) reads its final screenshot through the frozen-context path
   * and sends its frames before the prompt's images.
   */
  async #exec<T>(
    apiName: string,
    prompt: string | ResolvedPrompt,
    intents: readonly ModelIntent[],
    body: (s: CallSession) => Promise<T>,
    signal?: AbortSignal,
    observed?: ObservedCallInput,
  ): Promise<T> {
    // A call keeps the context it started in, even if unfreezePageContext() runs meanwhile.
    const frozen = observed?.frozen ?? this.#frozen;
    // A missing or invalid model configuration fails here, before any action.
    for (const intent of intents) this.#caller.config(intent);
    const { text, images } = typeof prompt === "string" ? { text: prompt, images: [] } : prompt;
    await this.#options.onTaskStartTip?.(`${apiName}: ${text}`);
    const writer = await this.#reportWriter();
    const startedAt = await this.#now();
    // The end is read on the same clock as the start (the device's, with useDeviceTime).
    const clockOffset = startedAt - Date.now();
    const recorder = new ExecutionRecorder(writer, apiName, text, startedAt);
    log("start", { api: apiName, prompt: text, images: images.length });
    if (images.length) {
      // Inlined images go to the screenshot store (once per content), so the report shows them.
      recorder.record.promptImages = images.map(({ name, url }) =>
        url.startsWith("data:") ? { name, screenshot: writer.addScreenshot(url) } : { name, url }
      );
    }
    if (frozen && !observed) recorder.record.frozenContext = true;
    this.#executions.push(recorder.record);
    const s: CallSession = {
      device: this.interface,
      caller: this.#caller,
      recorder,
      report: writer,
      screen: this.#screen,
      waitAfterAction: this.#options.waitAfterAction ?? 300,
      signal,
      promptImages: observed ? [...observed.images, ...images] : images,
      frozen,
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
      recorder.record.endedAt = Date.now() + clockOffset;
      const ms = recorder.record.endedAt - startedAt;
      if (recorder.record.status === "failed") {
        log("error", { api: apiName, ms, error: recorder.record.error });
      } else log("end", { api: apiName, ms });
      await s.cache?.store.flush();
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
      // One write per call: a crash loses at most the call in progress.
      runLog().flush();
    }
  }

  async #now(): Promise<number> {
    if (!this.#options.useDeviceTime) return Date.now();
    if (!this.interface.getDeviceLocalTimeString) {
      console.warn("useDeviceTime: this device has no getDeviceLocalTimeString; using system time");
      return Date.now();
    }
    // A page that is navigating cannot tell its time; the call goes on with the system's.
    let local: string;
    try {
      local = await this.interface.getDeviceLocalTimeString();
    } catch (e) {
      console.warn(
        `useDeviceTime: could not read the device time; using system time: ${errorMessage(e)}`,
      );
      return Date.now();
    }
    const t = Date.parse(local);
    if (Number.isFinite(t)) return t;
    console.warn(
      `useDeviceTime: Date.parse cannot read the device time ${
        JSON.stringify(local)
      }; using system time`,
    );
    return Date.now();
  }

  /**
   * Lets a call use the agent's cache (spec 2.2), opened on first use, unless `cacheable` is
   * `false`, the prompt has images (its text alone does not name the target) or the call runs on
   * a frozen context (the cached xpaths are tried on the live page).
   */
  async #useCache(s: CallSession, cacheable: boolean | undefined): Promise<void> {
    const settings = this.#cacheSettings;
    if (!settings || cacheable === false || s.promptImages?.length || s.frozen) return;
    const store = await (this.#cache ??= TaskCache.open(settings));
    s.cache = { store, read: store.canRead, write: store.canWrite };
  }

  #context(api: AIContextApiName, callContext?: string): string | undefined {
    return this.#contexts.resolve(api, callContext) || undefined;
  }

  /**
   * Locates the target of a locating call: by `opt.xpath` first when given (spec 4.2), else or
   * when it matches nothing from the cache, then by the model with `text` (recorded in the cache).
   * `undefined` without xpath and text.
   *
   * @throws {LocateError} when the xpath matches nothing and there is no description.
   */
  async #locate(
    s: CallSession,
    api: AIContextApiName,
    text: string | undefined,
    opt: LocateOptions | undefined,
  ): Promise<LocateResult | undefined> {
    if (opt?.xpath !== undefined) {
      const found = await locateByXpath(s, opt.xpath, text);
      if (found) return found;
      if (text === undefined) {
        throw new LocateError(
          `${api}: no visible element matches xpath "${opt.xpath}", and there is no description to locate by instead`,
        );
      }
    }
    if (text === undefined) return undefined;
    const locate = opt?.deepLocate || opt?.deepThink ? deepLocateElement : locateElement;
    return await locateWithCache(s, text, () => locate(s, text, this.#context(api, opt?.context)));
  }

  /** Locates then performs one named action (the instant actions). */
  async #instant(
    api: AIContextApiName,
    actionName: string,
    locate: TUserPrompt | undefined,
    opt: LocateOptions | undefined,
    param: Record<string, unknown> = {},
    context: Omit<ActionContext, "signal"> = {},
  ): Promise<void> {
    this.#checkLive(api);
    checkLocateOptions(api, opt);
    const prompt = locate === undefined ? undefined : await resolvePrompt(locate, `${api} locate`);
    return await this.#run(api, prompt ?? actionName, ["default"], async (s) => {
      let mark = {};
      await this.#useCache(s, opt?.cacheable);
      const found = await this.#locate(s, api, prompt?.text, opt);
      if (found) {
        param = { ...param, locate: found.element };
        mark = { screenshot: found.screen.screenshotId, ...markTarget(found.imageRect) };
      }
      await performAction(s, actionName, param, mark, context);
    });
  }

  /**
   * Plans and performs a multi-step task (spec 4.2 `aiAct`), replanning from each new screen.
   *
   * @returns the model's output text when it gave one.
   * @throws {PlanningError} when the model reports the task impossible or `replanningCycleLimit`
   * is reached; a failing action's own error; the signal's reason when `abortSignal` aborts.
   * @throws {TypeError} for a `fileChooserAccept` or `fileChooserAllowedDir` of the wrong shape,
   * or `fileChooserAccept` on a device that cannot choose files; {Error} naming a missing file or
   * directory (before any model call); {Error} when the model plans an upload without
   * `fileChooserAllowedDir` or outside it, or several files for an input without `multiple`
   * (spec 7).
   */
  async aiAct(prompt: TUserPrompt, options: AiActOptions = {}): Promise<string | undefined> {
    this.#checkLive("aiAct");
    const uploads = await resolveUploadOptions("aiAct", this.interface.actionSpace(), options);
    const resolved = await resolvePrompt(prompt, "aiAct prompt", options.abortSignal);
    const deepThink = options.deepThink === true;
    return await this.#run("aiAct", resolved, ["planning", "default"], async (s) => {
      await this.#useCache(s, options.cacheable);
      const envLimit = Number(getEnv("SDK_REPLANNING_CYCLE_LIMIT"));
      const cycleLimit = this.#options.replanningCycleLimit ??
        (Number.isInteger(envLimit) && envLimit > 0
          ? envLimit
          : s.caller.config("planning").family.replanningCycleLimit);
      return await runPlan(s, resolved.text, {
        context: this.#context("aiAct", options.context),
        deepThink,
        deepLocate: options.deepLocate === true,
        cycleLimit,
        fileChooserAccept: uploads.accept,
        fileChooserAllowedDir: uploads.allowedDir,
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

  /**
   * Taps (clicks) the element `locate` describes (or `options.xpath` selects).
   *
   * With `fileChooserAccept` (spec 4.2 `aiAct` rule 4; web pages): when the tap opens a file
   * chooser, it gets these files (paths from the working directory); when none opens, the tap
   * just completes.
   *
   * @throws {TypeError} when `fileChooserAccept` is not a path or list of paths, or the device
   * cannot choose files.
   * @throws {Error} naming a file of `fileChooserAccept` that does not exist; when several files
   * are given and the chooser's input has no `multiple` attribute (spec 7, no file is set).
   */
  async aiTap(locate: TUserPrompt, options?: AiTapOptions): Promise<void> {
    const tap = options?.fileChooserAccept === undefined
      ? []
      : [findAction(this.interface.actionSpace(), "Tap")];
    const { accept } = await resolveUploadOptions("aiTap", tap, {
      fileChooserAccept: options?.fileChooserAccept,
    });
    return await this.#instant("aiTap", "Tap", locate, options, {}, { fileChooserAccept: accept });
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
    // Given values override the device's defaults; the device checks the combination (rule 5).
    const inputOptions = {
      ...(opt.keyboardTypeDelay !== undefined && { keyboardTypeDelay: opt.keyboardTypeDelay }),
      ...(opt.inputStrategy !== undefined && { inputStrategy: opt.inputStrategy }),
    };
    return await this.#instant("aiInput", "Input", locate, opt, { value, mode }, { inputOptions });
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
   * Presses and holds on the element `locate` describes (spec 4.2 `aiLongPress`). Web pages hold
   * the mouse button, or a finger with `enableTouchEventsInActionSpace`.
   *
   * @param options `duration`: hold time in ms; default the device's (web 500 ms, spec 8).
   * @throws {RangeError} when `duration` is not a finite number > 0 (before any model call).
   * @throws {TypeError} when the device has no `LongPress` action.
   */
  async aiLongPress(locate: TUserPrompt, options?: AiLongPressOptions): Promise<void> {
    checkPositive("aiLongPress", "duration", options?.duration);
    this.#requireAction("aiLongPress", "LongPress");
    const param = options?.duration === undefined ? {} : { duration: options.duration };
    return await this.#instant("aiLongPress", "LongPress", locate, options, param);
  }

  /**
   * Pinches with two fingers (spec 4.2 `aiPinch`): `'out'` spreads them (zoom in), `'in'` brings
   * them together (zoom out), centered on the element `locate` describes, or on the screen's
   * center when `locate` is undefined (no model call then).
   *
   * @param options `direction` (required); `distance`: change of the distance between the
   * fingers in logical (CSS) pixels, default a quarter of the shorter screen side; `duration` in
   * ms, default 500.
   * @throws {RangeError} for a `direction` other than `'in'`/`'out'`, or a `distance` or
   * `duration` that is not a finite number > 0 (before any model call).
   * @throws {TypeError} when the device has no `Pinch` action: on web pages, create the agent
   * with `enableTouchEventsInActionSpace: true` (Chromium only).
   */
  async aiPinch(locate: TUserPrompt | undefined, options: AiPinchOptions): Promise<void> {
    const direction = options?.direction;
    if (direction !== "in" && direction !== "out") {
      throw new RangeError(
        `aiPinch: 'direction' must be 'in' (zoom out) or 'out' (zoom in): current value is ${
          JSON.stringify(direction)
        }`,
      );
    }
    checkPositive("aiPinch", "distance", options.distance);
    checkPositive("aiPinch", "duration", options.duration);
    this.#requireAction(
      "aiPinch",
      "Pinch",
      "On web pages, create the agent with enableTouchEventsInActionSpace: true (Chromium only).",
    );
    const param: Record<string, unknown> = { direction };
    if (options.distance !== undefined) param.distance = options.distance;
    if (options.duration !== undefined) param.duration = options.duration;
    return await this.#instant("aiPinch", "Pinch", locate, options, param);
  }

  // Fails an instant action the device cannot perform before any model call.
  #requireAction(api: string, action: string, hint = ""): void {
    try {
      findAction(this.interface.actionSpace(), action);
    } catch (e) {
      throw new TypeError(`${api}: ${errorMessage(e)}.${hint ? " " + hint : ""}`);
    }
  }

  /**
   * Locates an element (spec 2.6): `rect` and `center` in physical screenshot pixels, and `dpr`.
   * With `xpath`, a visible element it selects is used without a model call (spec 4.2).
   *
   * @throws {LocateError} when the element is not on the screen.
   * @throws {TypeError} naming an invalid `xpath`.
   */
  async aiLocate(locate: TUserPrompt, options?: AiLocateOptions): Promise<LocateResultValue> {
    checkLocateOptions("aiLocate", options);
    const prompt = await resolvePrompt(locate, "aiLocate locate");
    return await this.#run("aiLocate", prompt, ["default"], async (s) => {
      await this.#useCache(s, options?.cacheable);
      const found = (await this.#locate(s, "aiLocate", prompt.text, options))!;
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
    const dom = domOption(api, options?.domIncluded);
    const prompt = await resolvePrompt(demand, `${api} prompt`);
    return await this.#run(
      api,
      prompt,
      ["insight"],
      (s) =>
        extractData(s, prompt.text, returnType, {
          context: this.#context(api, options?.context),
          screenshotIncluded: options?.screenshotIncluded,
          dom,
        }),
    );
  }

  /**
   * Extracts data in the shape `dataDemand` describes (spec 4.3). The options (`domIncluded`,
   * `screenshotIncluded`, `context`) are the same for `aiBoolean`, `aiNumber`, `aiString`, `aiAsk`
   * and `aiAssert`.
   *
   * @throws {RangeError} for a `domIncluded` other than `true`, `false` or `'visible-only'`.
   * @throws {TypeError} for `domIncluded` on a device without `getElementsDescription`.
   */
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
   * Checks an assertion about the screen; `options` as for {@link aiQuery}.
   *
   * @throws {AssertionError} carrying `errorMsg` and the model's `reason` when it is false.
   */
  async aiAssert(
    assertion: TUserPrompt,
    errorMsg?: string,
    options?: ExtractOptions,
  ): Promise<void> {
    const dom = domOption("aiAssert", options?.domIncluded);
    const prompt = await resolvePrompt(assertion, "aiAssert assertion");
    const text = prompt.text;
    return await this.#run("aiAssert", prompt, ["insight"], async (s) => {
      const check = await checkAssertion(s, text, this.#context("aiAssert", options?.context), {
        screenshotIncluded: options?.screenshotIncluded,
        dom,
      });
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
    // Typed as a string, but a JavaScript caller may pass a prompt object (spec 2.5).
    if ((assertion as unknown as PromptWithImages | null)?.images?.length) {
      throw new TypeError(
        "aiWaitFor: the assertion is text (spec 4.4) and cannot carry images; " +
          "check a prompt with images with aiAssert",
      );
    }
    const { text } = await resolvePrompt(assertion, "aiWaitFor assertion");
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
   * Runs the `tasks` of a YAML script (spec 4.5; docs/yaml-and-cli.md): each task's `flow` items
   * in order (`ai`/`aiAct`, the instant actions, `aiQuery`/`aiBoolean`/`aiNumber`/`aiString`/
   * `aiAsk` with `name`, `aiAssert`, `aiWaitFor`, `aiLocate`, `sleep`, `javascript` on web
   * agents, `recordToReport`), with `${NAME}` read from the environment. Target sections
   * (`web:`) are for the `sdk` command line and are not acted on here.
   *
   * @example
   * ```ts ignore
   * const { result } = await agent.runYaml(`
   * tasks:
   *   - name: search
   *     flow:
   *       - aiInput: the search box
   *         value: cats
   *       - aiKeyboardPress: Enter
   *       - aiQuery: the result titles, as an array of strings
   *         name: titles
   * `);
   * console.log(result.titles);
   * ```
   *
   * @param options `fileName` names the script in errors (default `"script.yaml"`); `signal`
   *   stops it between items and inside `aiAct`.
   * @returns `result`: every query's value under its `name`, else under its position (`"0"`,
   *   `"1"`, ... over the unnamed ones); `tasks`: how each task ended.
   * @throws {YamlScriptError} before anything runs, naming the file, line, column and key: invalid
   *   YAML, an unknown key, a wrong type, a missing environment variable.
   * @throws {YamlTaskError} when an item of a task without `continueOnError` fails: it names the
   *   task, the item and its line, with the item's own error as `cause`.
   */
  async runYaml(yamlScriptContent: string, options?: RunYamlOptions): Promise<RunYamlResult> {
    return await runYamlScript(this, yamlScriptContent, options);
  }

  /**
   * Runs one Gherkin scenario (spec 4.5; beta): `Given` and `When` steps go to {@link aiAct}
   * (with `deepThink`, `deepLocate` and `abortSignal`), `Then` steps to {@link aiAssert}, and
   * `And`, `But` and `*` take the call of the step before; `context` is every call's per-call
   * context (spec 2.4 rule 6). Steps without a `Scenario:` header work, in any Gherkin language.
   * Loads `@cucumber/gherkin` on first use.
   *
   * @example
   * ```ts ignore
   * await agent.runGherkinScenario(`
   *   Given I sign in as alice with password secret
   *   When I add the todo "Water the plants"
   *   Then the list shows "Water the plants"`);
   * ```
   *
   * @throws {GherkinStepError} when a step fails: its message has the Gherkin line, the original
   *   step and the call made (`aiAct "..."`), and `cause` the step's own error.
   * @throws {GherkinParseError} for text that is not Gherkin (line and column named).
   * @throws {RangeError} when the text holds no scenario or more than one (use the `sdk` command
   *   line or `runGherkinFeature` of `@sdk/core/gherkin` for feature files).
   * @throws the signal's reason when `abortSignal` is aborted.
   */
  async runGherkinScenario(
    scenarioText: string,
    options?: GherkinScenarioOptions,
  ): Promise<void> {
    await runScenario(this, scenarioText, options);
  }

  /**
   * Adds a record to the report (spec 4.5, 2.8): one step per screenshot with `options.content`
   * as its description. Without `screenshots`, the current screen is captured (the frozen one
   * while the page context is frozen). Needs no model.
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

  /**
   * Freezes the page context (spec 3.2, 4.5): takes one snapshot now (the raw screenshot, the
   * logical size and, when the device has `getElementsDescription`, both element descriptions)
   * and makes every later extraction, assertion, `aiLocate`, `aiWaitFor` and `recordToReport`
   * read it instead of the live page, until {@link unfreezePageContext}. Each call still prepares
   * the image for its model's family and `screenshotShrinkFactor`; `domIncluded` sends the frozen
   * description. Executions recorded while frozen have `frozenContext: true`, shown as a marker in
   * the report. Interaction methods (`aiAct`, `ai`, `aiTap`, `aiInput` and the other instant
   * actions) reject while frozen. Freezing again replaces the snapshot.
   *
   * A call already running keeps the context it started in.
   *
   * @throws {Error} when the agent was destroyed, or the device fails to give the snapshot (the
   * agent then stays as it was).
   */
  async freezePageContext(): Promise<void> {
    if (this.#destroyed) {
      throw new Error("freezePageContext: this agent was destroyed; create a new agent");
    }
    this.#frozen = await freezeContext(this.interface, this.#screen);
  }

  /**
   * Starts observing the screen (spec 4.4, 3.3; docs/agent.md "Observation"): frames are sampled
   * every `intervalMs` (default 1000, minimum 200) into a buffer of at most `maxFrames` (default
   * 30) that thins itself evenly, until the observer's `stop()` or, after `watchdogMs` (default
   * 300000; `0` disables), by itself. `stop()` returns a `UIObservation` whose queries send the
   * frames and the final screenshot. One observer may record at a time per agent.
   *
   * @throws {RangeError} naming a bad `intervalMs`, `maxFrames` (an integer >= 2) or `watchdogMs`.
   * @throws {Error} when this agent is already observing (naming `stop()`), or was destroyed.
   */
  async startObserving(options?: StartObservingOptions): Promise<UIObserver> {
    if (this.#destroyed) {
      throw new Error("startObserving: this agent was destroyed; create a new agent");
    }
    return await startObserving(
      {
        device: this.interface,
        screen: this.#screen,
        run: (api, prompt, intents, body, observed) =>
          this.#run(api, prompt, intents, body, undefined, observed),
        record: (api, prompt, body) => this.#exec(api, prompt, [], body),
        context: (api, callContext) => this.#context(api, callContext),
      },
      this.#observers,
      options,
    );
  }

  /**
   * Unfreezes the page context (spec 3.2): later calls read the live page again. Does nothing when
   * the context is not frozen.
   */
  unfreezePageContext(): Promise<void> {
    this.#frozen = undefined;
    return Promise.resolve();
  }

  // Interaction methods must not run on a frozen context: the model could not see what they do.
  /**
   * Runs a platform agent's own method (MobileA's `launch`, `back`, ...) as one recorded call
   * with one `Action` step named `action` (with `param`): it appears in the report and
   * `_unstableLogContent()` with `apiName`, `title`, its status, error and output. No model
   * call, no `waitAfterAction`; `body`'s result is returned.
   */
  protected async recordedCall<T>(
    apiName: string,
    title: string,
    action: string,
    param: Record<string, unknown>,
    body: () => Promise<T>,
  ): Promise<T> {
    this.#checkLive(apiName);
    return await this.#run(apiName, title, [], async (s) => {
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

  #checkLive(api: string): void {
    if (this.#frozen) {
      throw new Error(
        `${api} cannot run while the page context is frozen (freezePageContext()): the model would not see the page change. Call unfreezePageContext() first.`,
      );
    }
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
   * Disposes the agent (spec 3.1): stops a recording observer and removes the frames of every
   * observation not yet disposed (spec 3.3), calls the device's `destroy()`, then finalizes the
   * report even when that cleanup fails, then rejects with the cleanup error. Later calls do
   * nothing.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#observers.destroy();
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
