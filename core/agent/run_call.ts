/**
 * Running one public call of the agent and recording it (spec 2.8): the model configuration
 * checked first, an execution in the report and the agent's log, the report file made current
 * and the run log flushed after it. The agent's other calls and observation go through here.
 *
 * @module
 */

import { InvalidStateError } from "../errors.ts";
import type { ModelIntent } from "../model/config.ts";
import type { ObservedCallInput, ObserverHost } from "../observe/host.ts";
import { ReportWriter } from "../report/writer.ts";
import { reportValue } from "../report/report_value.ts";
import { logger, runLog } from "../log/run_log.ts";
import { SDK_VERSION } from "../version.ts";
import { TaskCache } from "../session/cache_store.ts";
import type { AIContextApiName } from "../session/context.ts";
import { errorMessage, ExecutionRecorder } from "../session/execution.ts";
import type { AgentState } from "./lifecycle.ts";
import type { ResolvedPrompt } from "../session/prompt_input.ts";
import type { CallSession } from "../session/session.ts";

const log = logger("sdk:agent");

/**
 * Runs one public call: checks, records, reports. A resolved prompt's images go to every model
 * request of the call and to the report. A cache the body used is written after it.
 */
export async function runCall<T>(
  state: AgentState,
  apiName: string,
  prompt: string | ResolvedPrompt,
  intents: readonly ModelIntent[],
  body: (s: CallSession) => Promise<T>,
  signal?: AbortSignal,
  observed?: ObservedCallInput,
): Promise<T> {
  if (state.destroyed) {
    throw new InvalidStateError(`${apiName}: this agent was destroyed; create a new agent`);
  }
  return await execCall(state, apiName, prompt, intents, body, signal, observed);
}

/**
 * {@link runCall} without the destroyed check (the observer's report at `destroy()`). An
 * observation query (`observed`) reads its final screenshot through the frozen-context path
 * and sends its frames before the prompt's images.
 */
export async function execCall<T>(
  state: AgentState,
  apiName: string,
  prompt: string | ResolvedPrompt,
  intents: readonly ModelIntent[],
  body: (s: CallSession) => Promise<T>,
  signal?: AbortSignal,
  observed?: ObservedCallInput,
): Promise<T> {
  // A call keeps the context it started in, even if unfreezePageContext() runs meanwhile.
  const frozen = observed?.frozen ?? state.frozen;
  // A missing or invalid model configuration fails here, before any action.
  for (const intent of intents) state.caller.config(intent);
  const { text, images } = typeof prompt === "string" ? { text: prompt, images: [] } : prompt;
  await state.options.onTaskStartTip?.(state.secrets.mask(`${apiName}: ${text}`));
  const writer = await reportWriter(state);
  const startedAt = await deviceNow(state);
  // The end is read on the same clock as the start (the device's, with useDeviceTime).
  const clockOffset = startedAt - Date.now();
  const recorder = new ExecutionRecorder(
    writer,
    apiName,
    text,
    startedAt,
    (record) => state.secrets.maskInPlace(record),
  );
  log("start", { api: apiName, prompt: text, images: images.length });
  if (images.length) {
    // Inlined images go to the screenshot store (once per content), so the report shows them.
    recorder.record.promptImages = images.map(({ name, url }) =>
      url.startsWith("data:") ? { name, screenshot: writer.addScreenshot(url) } : { name, url }
    );
  }
  if (frozen && !observed) recorder.record.frozenContext = true;
  state.executions.push(recorder.record);
  state.running.push(recorder);
  const journal = state.journal.begin(apiName, text);
  const s: CallSession = {
    device: state.device,
    caller: state.caller,
    secrets: state.secrets,
    recorder,
    report: writer,
    screen: state.screen,
    waitAfterAction: state.options.waitAfterAction ?? 300,
    signal,
    promptImages: observed ? [...observed.images, ...images] : images,
    frozen,
    journal,
  };
  try {
    const out = await body(s);
    recorder.record.status = journal.status = "passed";
    // The caller gets the result whole; the report a copy of bounded depth.
    if (out !== undefined) recorder.record.output = reportValue(out);
    return out;
  } catch (e) {
    recorder.record.status = journal.status = "failed";
    recorder.record.error = errorMessage(e);
    throw e;
  } finally {
    state.running.splice(state.running.indexOf(recorder), 1);
    recorder.record.endedAt = Date.now() + clockOffset;
    const ms = recorder.record.endedAt - startedAt;
    if (recorder.record.status === "failed") {
      log("error", { api: apiName, ms, error: recorder.record.error });
    } else log("end", { api: apiName, ms });
    await s.cache?.store.flush();
    try {
      await recorder.flush();
      const firstFile = state.reportFile === undefined && writer.file;
      state.reportFile = writer.file;
      if (firstFile && state.options.autoPrintReportMsg !== false) {
        console.log(`SDK report: ${writer.file}`);
      }
    } catch (e) {
      console.warn(`Could not write the report: ${errorMessage(e)}`);
    }
    // One write per call: a crash loses at most the call in progress.
    runLog().flush();
  }
}

function reportWriter(state: AgentState): Promise<ReportWriter> {
  return state.writer ??= ReportWriter.create({
    name: state.options.reportFileName,
    generateReport: state.options.generateReport !== false,
    outputFormat: state.options.outputFormat,
    persistExecutionDump: state.options.persistExecutionDump,
    meta: { sdkVersion: SDK_VERSION, interfaceType: state.device.interfaceType },
  });
}

async function deviceNow(state: AgentState): Promise<number> {
  if (!state.options.useDeviceTime) return Date.now();
  if (!state.device.getDeviceLocalTimeString) {
    console.warn("useDeviceTime: this device has no getDeviceLocalTimeString; using system time");
    return Date.now();
  }
  // A page that is navigating cannot tell its time; the call goes on with the system's.
  let local: string;
  try {
    local = await state.device.getDeviceLocalTimeString();
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
export async function useCache(
  state: AgentState,
  s: CallSession,
  cacheable: boolean | undefined,
): Promise<void> {
  const settings = state.cacheSettings;
  if (!settings || cacheable === false || s.promptImages?.length || s.frozen) return;
  const store = await (state.cache ??= TaskCache.open(settings));
  s.cache = { store, read: store.canRead, write: store.canWrite };
}

/** The effective context of a call (spec 2.4). */
export function contextFor(
  state: AgentState,
  api: AIContextApiName,
  callContext?: string,
): string | undefined {
  return state.contexts.resolve(api, callContext) || undefined;
}

/** Rejects an interaction method on a frozen context: the model could not see what it does. */
export function checkLive(state: AgentState, api: string): void {
  if (state.frozen) {
    throw new InvalidStateError(
      `${api} cannot run while the page context is frozen (freezePageContext()): the model would not see the page change. Call unfreezePageContext() first.`,
    );
  }
}

/** What an observer of the agent runs its calls through (`agent.startObserving()`). */
export function observerHost(state: AgentState): ObserverHost {
  return {
    device: state.device,
    screen: state.screen,
    run: (api, prompt, intents, body, observed) =>
      runCall(state, api, prompt, intents, body, undefined, observed),
    record: (api, prompt, body) => execCall(state, api, prompt, [], body),
    context: (api, callContext) => contextFor(state, api, callContext),
  };
}
