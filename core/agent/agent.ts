/**
 * The agent: the public `ai*` methods over one device (spec 4.2-4.5), its lifecycle (3.1),
 * contexts (2.4), metrics (2.7) and report (2.8).
 *
 * The class holds the public API and its documentation; each method hands the agent's state to a
 * function of this folder: `lifecycle.ts`, `run_call.ts` (every call and its report),
 * `interaction_calls.ts`, `instant_args.ts`, `query_calls.ts`, `record_calls.ts`.
 *
 * @module
 */

import { InvalidStateError } from "../errors.ts";
import type { AbstractInterface } from "../device/types.ts";
import { startObserving, type UIObserver } from "../observe/observer.ts";
import type { StartObservingOptions } from "../observe/options.ts";
import { runGherkinScenario as runScenario } from "../gherkin/run_scenario.ts";
import type { GherkinScenarioOptions } from "../gherkin/run_scenario.ts";
import { runYamlScript } from "../script/run_yaml.ts";
import type { RunYamlOptions, RunYamlResult } from "../script/run_yaml.ts";
import type { ReportExecution } from "../report/types.ts";
import type { AIContextApiName } from "../session/context.ts";
import { actCall, instantCall, longPressCall, pinchCall, tapCall } from "./interaction_calls.ts";
import { inputArgs, keyboardPressArgs, scrollArgs } from "./instant_args.ts";
import { subscribeDeviceEvents } from "./device_events.ts";
import { createAgentState, destroyAgent, freezeAgent } from "./lifecycle.ts";
import type { AgentState } from "./lifecycle.ts";
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
  RecordToReportOptions,
  ScrollParam,
  TUserPrompt,
} from "../session/options.ts";
import { assertCall, extractCall, locateCall, waitForCall } from "./query_calls.ts";
import { recordToReportCall, runRecordedCall } from "./record_calls.ts";
import { observerHost } from "./run_call.ts";
import { attachJournal } from "../session/action_journal.ts";
import { exportCall } from "./export_call.ts";
import type { ExportedScript, ExportScriptOptions } from "../script/script_export.ts";

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
  // Everything else the agent holds; the functions behind its methods take it.
  readonly #state: AgentState;

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
    this.#state = createAgentState(device, options);
    this.interface = device;
    attachJournal(this, this.#state.journal);
    subscribeDeviceEvents(this.#state);
  }

  /**
   * Path of the report file (spec 2.8): undefined before the first execution, when reports are
   * off, or in a browser runtime; the final path after `destroy()`.
   */
  get reportFile(): string | null | undefined {
    return this.#state.reportFile;
  }

  /** Usage accumulated since the agent was created (spec 2.7). */
  get metrics(): AgentMetrics {
    return this.#state.metrics.snapshot();
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
    return await actCall(this.#state, prompt, options);
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
    return await tapCall(this.#state, locate, options);
  }

  /** Moves the pointer over the element (web and desktop). */
  async aiHover(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await instantCall(this.#state, "aiHover", "Hover", locate, options);
  }

  /** Double-clicks the element. */
  async aiDoubleClick(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await instantCall(this.#state, "aiDoubleClick", "DoubleClick", locate, options);
  }

  /** Right-clicks the element (its own context-menu handler, not the browser's menu). */
  async aiRightClick(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await instantCall(this.#state, "aiRightClick", "RightClick", locate, options);
  }

  /** Clears the input field `locate` describes. */
  async aiClearInput(locate: TUserPrompt, options?: LocateOptions): Promise<void> {
    return await instantCall(this.#state, "aiClearInput", "ClearInput", locate, options);
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
    const { locate, options, param, context } = inputArgs(a, b, c);
    return await instantCall(this.#state, "aiInput", "Input", locate, options, param, context);
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
    const { locate, options, param } = keyboardPressArgs(a, b, c);
    return await instantCall(
      this.#state,
      "aiKeyboardPress",
      "KeyboardPress",
      locate,
      options,
      param,
    );
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
    const { locate, options, param } = scrollArgs(a, b, c);
    return await instantCall(this.#state, "aiScroll", "Scroll", locate, options, param);
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
    return await longPressCall(this.#state, locate, options);
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
    return await pinchCall(this.#state, locate, options);
  }

  /**
   * Locates an element (spec 2.6): `rect` and `center` in physical screenshot pixels, and `dpr`.
   * With `xpath`, a visible element it selects is used without a model call (spec 4.2).
   *
   * @throws {LocateError} when the element is not on the screen.
   * @throws {TypeError} naming an invalid `xpath`.
   */
  async aiLocate(locate: TUserPrompt, options?: AiLocateOptions): Promise<LocateResultValue> {
    return await locateCall(this.#state, locate, options);
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
    return (await extractCall(this.#state, "aiQuery", dataDemand, "any", options)) as T;
  }

  /** Answers a yes/no question about the screen. */
  async aiBoolean(prompt: TUserPrompt, options?: ExtractOptions): Promise<boolean> {
    return (await extractCall(this.#state, "aiBoolean", prompt, "boolean", options)) as boolean;
  }

  /** Reads a number from the screen. */
  async aiNumber(prompt: TUserPrompt, options?: ExtractOptions): Promise<number> {
    return (await extractCall(this.#state, "aiNumber", prompt, "number", options)) as number;
  }

  /** Reads a string from the screen; same as {@link aiAsk}. */
  async aiString(prompt: TUserPrompt, options?: ExtractOptions): Promise<string> {
    return (await extractCall(this.#state, "aiString", prompt, "string", options)) as string;
  }

  /** Asks a question about the screen; same as {@link aiString}. */
  async aiAsk(prompt: TUserPrompt, options?: ExtractOptions): Promise<string> {
    return (await extractCall(this.#state, "aiAsk", prompt, "string", options)) as string;
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
    return await assertCall(this.#state, assertion, errorMsg, options);
  }

  /**
   * Waits until an assertion holds (spec 4.4): a new check may start while less than `timeoutMs`
   * has passed; checks start at least `checkIntervalMs` apart.
   *
   * @throws {WaitForTimeoutError} with the last reason when the window closes first.
   */
  async aiWaitFor(assertion: string, options: AiWaitForOptions = {}): Promise<void> {
    return await waitForCall(this.#state, assertion, options);
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
   * Writes what this agent did so far as a YAML script of instant actions (docs/yaml-and-cli.md,
   * "Exported scripts"): each action an `aiAct` or an instant action performed becomes its flow
   * item (`aiTap`, `aiInput`, `aiKeyboardPress`, `aiScroll`, ...) with the element's `locator`
   * (its xpaths and identity) and its prompt. Running the file (`runYaml`, `sdk run`) makes no
   * model call while each locator still finds its element, and asks the model for a step that no
   * longer matches. A script this agent ran keeps its sections, tasks and comments; `${NAME}`
   * values stay `${NAME}`. Works after `destroy()` too.
   *
   * @param path the file to write (folders are created), relative to the working directory.
   * @param options `sections` (e.g. `{ web: { url } }`), `variables` (values written as
   *   `${NAME}`), `keepChecks`, `taskName`, `scriptDir`.
   * @returns the file's path and text, how many steps have a locator, and the prompts of those
   *   without one (the model locates them on every run).
   *
   * @example
   * ```ts ignore
   * await agent.aiAct("add the blue mug to the cart and open the cart");
   * await agent.exportScript("flows/cart.yaml", { sections: { web: { url: page.url() } } });
   * ```
   */
  async exportScript(path: string, options?: ExportScriptOptions): Promise<ExportedScript> {
    return await exportCall(this.#state, path, options);
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
    await recordToReportCall(this.#state, title, options);
  }

  /**
   * @deprecated The peer SDK's former name of {@link recordToReport}, which it calls (the report
   * names the call `recordToReport`).
   */
  async logScreenshot(title?: string, options?: RecordToReportOptions): Promise<void> {
    await this.recordToReport(title, options);
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
    await freezeAgent(this.#state);
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
    if (this.#state.destroyed) {
      throw new InvalidStateError("startObserving: this agent was destroyed; create a new agent");
    }
    return await startObserving(observerHost(this.#state), this.#state.observers, options);
  }

  /**
   * Unfreezes the page context (spec 3.2): later calls read the live page again. Does nothing when
   * the context is not frozen.
   */
  unfreezePageContext(): Promise<void> {
    this.#state.frozen = undefined;
    return Promise.resolve();
  }

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
    return await runRecordedCall(this.#state, apiName, title, action, param, body);
  }

  /**
   * The agent's log so far: every call with its steps, screenshots by id (spec 4.5). The shape is
   * unstable and may change between versions.
   */
  _unstableLogContent(): { executions: ReportExecution[] } {
    return { executions: structuredClone(this.#state.executions) };
  }

  /**
   * Sets or removes an agent context (spec 4.5): for an API, `''` blocks the shared default and
   * `undefined` removes the override; for `'default'`, `undefined` removes the shared fallback.
   */
  setAIContext(target: "default" | AIContextApiName, context: string | undefined): void {
    this.#state.contexts.set(target, context);
  }

  /** @deprecated Same as `setAIContext('aiAct', context)`. */
  setAIActContext(aiActContext: string): void {
    this.#state.contexts.set("aiAct", aiActContext);
  }

  /** @deprecated Older alias of {@link setAIActContext}. */
  setAIActionContext(aiActionContext: string): void {
    this.#state.contexts.set("aiAct", aiActionContext);
  }

  /**
   * Disposes the agent (spec 3.1): stops a recording observer and removes the frames of every
   * observation not yet disposed (spec 3.3), calls the device's `destroy()`, then finalizes the
   * report even when that cleanup fails, then rejects with the cleanup error. Later calls do
   * nothing.
   */
  async destroy(): Promise<void> {
    await destroyAgent(this.#state);
  }
}
