/**
 * The agent's lifecycle (spec 3.1, 3.2): its internals, made from checked options; freezing the
 * page context; destroying the agent.
 *
 * @module
 */

import { InvalidStateError, SdkRangeError, SdkTypeError } from "../errors.ts";
import { checkModelConfigKeys } from "../model/config.ts";
import type { AbstractInterface } from "../device/types.ts";
import { checkNonNegative } from "../device/options.ts";
import { resolveScreenshotEncoding } from "../image/encoding.ts";
import { ModelCaller } from "../model/caller.ts";
import { ObserverRegistry } from "../observe/registry.ts";
import type { ReportWriter } from "../report/writer.ts";
import type { AIUsageInfo, ReportExecution } from "../report/types.ts";
import { resolveCacheSettings } from "../session/cache_options.ts";
import type { CacheSettings } from "../session/cache_options.ts";
import type { TaskCache } from "../session/cache_store.ts";
import { ContextStore } from "../session/context.ts";
import { ActionJournal } from "../session/action_journal.ts";
import { errorMessage, type ExecutionRecorder } from "../session/execution.ts";
import { MetricsCollector } from "./metrics.ts";
import type { AgentOptions } from "../session/options.ts";
import type { ScreenSettings } from "../session/screen.ts";
import { freezeContext } from "../session/session.ts";
import { TypedSecrets } from "../session/secrets.ts";
import type { FrozenContext } from "../session/session.ts";

/** What an agent holds; the functions behind its public methods take it. */
export interface AgentState {
  /** The device the agent acts on (`agent.interface`). */
  readonly device: AbstractInterface;
  readonly options: AgentOptions;
  readonly contexts: ContextStore;
  readonly metrics: MetricsCollector;
  readonly caller: ModelCaller;
  /** The records of every call (no image data: screenshots are ids), for _unstableLogContent(). */
  readonly executions: ReportExecution[];
  /** How screenshots are encoded and shrunk (screenshotFormat, screenshotQuality, shrink factor). */
  readonly screen: ScreenSettings;
  /** The recording observer and the observations whose frames still exist (spec 3.3). */
  readonly observers: ObserverRegistry;
  /** The cache settings (spec 2.2). */
  readonly cacheSettings: CacheSettings | undefined;
  /** The cache file's records, once a call needed them. */
  cache?: Promise<TaskCache>;
  /** The report writer, made at the first call. */
  writer?: Promise<ReportWriter>;
  /** `agent.reportFile`. */
  reportFile: string | undefined;
  destroyed: boolean;
  /** The snapshot of freezePageContext() (spec 3.2); undefined while live. */
  frozen: FrozenContext | undefined;
  /** The recorders of the calls running now, in the order they started. */
  readonly running: ExecutionRecorder[];
  /** Ends the subscription to the device's events (`onDeviceEvent`), when there is one. */
  stopDeviceEvents?: () => void;
  /** Device events reported between calls, being recorded as calls of their own. */
  readonly deviceEvents: Set<Promise<void>>;
  /** Values typed as secrets: `***` in the report, the run log, the cache and the history. */
  readonly secrets: TypedSecrets;
  /** Every call with the actions it performed, for `exportScript()`. */
  readonly journal: ActionJournal;
}

/**
 * Checks the options and makes a new agent's internals (the `Agent` constructor).
 *
 * @throws {RangeError} / {TypeError} as documented on the `Agent` constructor.
 */
export function createAgentState(device: AbstractInterface, options: AgentOptions): AgentState {
  const shrink = options.screenshotShrinkFactor;
  if (shrink !== undefined && !(Number.isFinite(shrink) && shrink >= 1)) {
    throw new SdkRangeError(
      `'screenshotShrinkFactor' must be a finite number >= 1: current value is ${shrink}`,
    );
  }
  checkNonNegative("waitAfterAction", options.waitAfterAction);
  const maxActions = options.maxActionsPerPlan;
  if (maxActions !== undefined && !(Number.isInteger(maxActions) && maxActions > 0)) {
    throw new SdkRangeError(
      `'maxActionsPerPlan' must be a positive integer (1 plans one action per model call): ` +
        `current value is ${maxActions}`,
    );
  }
  const limit = options.replanningCycleLimit;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new SdkRangeError(
      `'replanningCycleLimit' must be a positive integer: current value is ${limit}`,
    );
  }
  checkModelConfigKeys(options.modelConfig);
  if (options.persistExecutionDump && options.generateReport === false) {
    throw new SdkTypeError("persistExecutionDump requires generateReport to be true");
  }
  const screen = {
    encoding: resolveScreenshotEncoding(options.screenshotFormat, options.screenshotQuality),
    shrinkFactor: shrink ?? 1,
  };
  const cacheSettings = resolveCacheSettings(options);
  const metrics = new MetricsCollector();
  return {
    device,
    options,
    contexts: new ContextStore(options),
    metrics,
    caller: new ModelCaller({
      modelConfig: options.modelConfig,
      createModelClient: options.createModelClient,
      onUsage: (u: AIUsageInfo) => {
        metrics.add(u);
        try {
          options.onLLMUsage?.(u);
        } catch (e) {
          console.warn(`onLLMUsage threw: ${errorMessage(e)}`);
        }
      },
    }),
    executions: [],
    screen,
    observers: new ObserverRegistry(),
    cacheSettings,
    reportFile: undefined,
    destroyed: false,
    frozen: undefined,
    running: [],
    deviceEvents: new Set(),
    secrets: new TypedSecrets(),
    journal: new ActionJournal(),
  };
}

/**
 * `freezePageContext()`: snapshots the page; the agent stays as it was when that fails.
 *
 * @throws {Error} when the agent was destroyed, or the device fails to give the snapshot.
 */
export async function freezeAgent(state: AgentState): Promise<void> {
  if (state.destroyed) {
    throw new InvalidStateError("freezePageContext: this agent was destroyed; create a new agent");
  }
  state.frozen = await freezeContext(state.device, state.screen);
}

/**
 * `destroy()`: stops observing and removes observed frames, destroys the device, then finalizes
 * the report even when that cleanup failed, and rejects with the first error. Later calls do
 * nothing.
 */
export async function destroyAgent(state: AgentState): Promise<void> {
  if (state.destroyed) return;
  state.destroyed = true;
  state.stopDeviceEvents?.();
  await Promise.allSettled(state.deviceEvents);
  await state.observers.destroy();
  let failure: unknown;
  let failed = false;
  try {
    await state.device.destroy?.();
  } catch (e) {
    failure = e;
    failed = true;
  }
  if (state.writer) {
    try {
      state.reportFile = await (await state.writer).finalize();
    } catch (e) {
      if (!failed) [failure, failed] = [e, true];
    }
  }
  if (failed) throw failure;
}
