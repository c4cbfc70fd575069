/**
 * What one API call works with: the device, the model caller, its recorder, and the agent's
 * settings. Insight and planning functions take this instead of the agent, so they stay small and
 * testable.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type { AbstractInterface, ElementsDescriptionOptions, Size } from "../device/types.ts";
import type { ModelCaller } from "../model/caller.ts";
import type { ModelIntent } from "../model/config.ts";
import type { ReportScreenshotSink } from "../report/types.ts";
import type { CallCache } from "./cache_store.ts";
import type { JournalCall } from "./action_journal.ts";
import type { ExecutionRecorder } from "./execution.ts";
import type { TypedSecrets } from "./secrets.ts";
import type { ResolvedPromptImage } from "../model/prompt_images.ts";
import { captureScreen, screenFromRaw, sourceEncoding } from "./screen.ts";
import type { Screen, ScreenSettings } from "./screen.ts";

/** Everything a call needs. */
export interface CallSession {
  /** The device acted on. */
  device: AbstractInterface;
  /** The model caller. */
  caller: ModelCaller;
  /** The agent's secrets typed on screen; unset in sessions without an agent (tests). */
  secrets?: TypedSecrets;
  /** The execution being recorded. */
  recorder: ExecutionRecorder;
  /** Screenshot store of the report. */
  report: ReportScreenshotSink;
  /** How screenshots are encoded and shrunk. */
  screen: ScreenSettings;
  /** `waitAfterAction`, ms. */
  waitAfterAction: number;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** The frozen page context (spec 3.2) when the call runs frozen: the screen is read from it. */
  frozen?: FrozenContext;
  /**
   * Images of the call's prompt object (spec 2.5), sent with every model request of the call;
   * unset or empty when the prompt has none.
   */
  promptImages?: readonly ResolvedPromptImage[];
  /**
   * The agent's cache as this call may use it (spec 2.2); unset when caching is off, the call is
   * not `cacheable`, its prompt has images, or the context is frozen.
   */
  cache?: CallCache;
  /** The agent's record of this call, for `agent.exportScript()`; unset outside an agent. */
  journal?: JournalCall;
}

/**
 * A page snapshot taken by `freezePageContext()` (spec 3.2), all at the moment of freezing: while
 * the agent is frozen every call reads the screen and the element tree from here.
 */
export interface FrozenContext {
  /**
   * The raw screenshot (data URI, physical pixels), before any shrinking or padding: in the
   * agent's encoding, or PNG when the agent shrinks screenshots.
   */
  screenshot: string;
  /** Logical size and dpr when it was taken. */
  logical: Size;
  /**
   * Both element descriptions (`domIncluded: true` and `'visible-only'`), when the device has
   * `getElementsDescription`.
   */
  elements?: { all: string; visibleOnly: string };
}

/** Takes the snapshot of a frozen page context: screenshot, size and element descriptions. */
export async function freezeContext(
  device: AbstractInterface,
  settings: ScreenSettings,
): Promise<FrozenContext> {
  const describe = device.getElementsDescription?.bind(device);
  const [screenshot, logical, all, visibleOnly] = await Promise.all([
    device.screenshotBase64(sourceEncoding(settings)),
    device.size(),
    describe?.({ visibleOnly: false }),
    describe?.({ visibleOnly: true }),
  ]);
  const elements = all !== undefined && visibleOnly !== undefined
    ? { all, visibleOnly }
    : undefined;
  return { screenshot, logical, elements };
}

/**
 * Captures the screen as the model of `intent` should see it: from the frozen snapshot when the
 * call runs frozen (prepared anew for the family and shrink factor), else from the device.
 */
export function captureFor(s: CallSession, intent: ModelIntent): Promise<Screen> {
  const family = s.caller.config(intent).family;
  if (s.frozen) {
    return screenFromRaw(s.frozen.screenshot, s.frozen.logical, family, s.screen, s.report);
  }
  return captureScreen(s.device, family, s.screen, s.report);
}

/**
 * The device's element description for `domIncluded` (spec 4.3); the frozen one when the call
 * runs frozen.
 *
 * @throws {TypeError} naming `domIncluded` when the device has no `getElementsDescription`.
 */
export async function elementsFor(
  s: CallSession,
  options: ElementsDescriptionOptions,
): Promise<string> {
  const frozen = s.frozen?.elements;
  if (frozen) return options.visibleOnly ? frozen.visibleOnly : frozen.all;
  if (!s.device.getElementsDescription) {
    throw new SdkTypeError(
      `domIncluded needs a device that can describe its elements (getElementsDescription), and this ${
        JSON.stringify(s.device.interfaceType)
      } device cannot; leave domIncluded unset`,
    );
  }
  return await s.device.getElementsDescription(options);
}
