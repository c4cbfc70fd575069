/**
 * Observation (spec 2.9, 3.3, 4.4): `agent.startObserving()` samples the screen at an even
 * interval into a bounded frame buffer on disk; `stop()` captures the final screenshot and returns
 * a {@link UIObservation} whose queries send the frames, in time order, plus that screenshot.
 *
 * Sampling. Every `intervalMs` a tick fires. With the device's `startFrameStream` (a source that
 * may send frames only when the screen changes), a tick keeps the latest frame delivered if it is
 * newer than the last one kept, and adds nothing otherwise: a quiet screen costs no frames, and
 * the frame's own timestamp is its time. The very first frame delivered is kept at once. Without
 * a stream, a tick takes a screenshot in the agent's encoding (the first one at start), and a tick
 * that comes while the previous capture still runs is skipped.
 *
 * Thinning. Frames sit on a grid of ticks (tick 0, `stride`, `2 * stride`, ...). When the buffer
 * would exceed `maxFrames`, the stride doubles and every frame off the new grid is dropped (its
 * file deleted), except the first and the newest; later ticks off the new grid are not sampled,
 * so frames stay evenly spaced over the whole recording.
 *
 * @module
 */

import type { CallSession, FrozenContext } from "../agent/session.ts";
import type { AbstractInterface, FrameStream, StreamFrame } from "../device/types.ts";
import type { ScreenSettings } from "../agent/screen.ts";
import { sourceEncoding } from "../agent/screen.ts";
import { resolvePrompt } from "../agent/prompt_input.ts";
import type { ResolvedPrompt } from "../agent/prompt_input.ts";
import type { ResolvedPromptImage } from "../model/prompt_images.ts";
import type { AIContextApiName } from "../agent/context.ts";
import type { TUserPrompt } from "../agent/options.ts";
import { errorMessage } from "../agent/execution.ts";
import { AssertionError } from "../errors.ts";
import { checkAssertion, extractData } from "../insight/extract.ts";
import type { ModelIntent } from "../model/config.ts";
import { observationText } from "../model/prompts.ts";
import type { ExtractReturnType } from "../model/prompts.ts";
import { unrefTimer } from "../runtime/runtime.ts";
import { createFrameStore, splitDataUri } from "./frame_store.ts";
import type { FrameFormat, FrameStore } from "./frame_store.ts";

/** Options of `agent.startObserving()` (spec 4.4). */
export interface StartObservingOptions {
  /** Sampling interval in ms. Default 1000; minimum 200 (5 frames per second). */
  intervalMs?: number;
  /**
   * Most frames kept, an integer >= 2 (so the first and the newest both fit). Default 30. The
   * buffer thins itself evenly when full (see {@link UIObserver}).
   */
  maxFrames?: number;
  /**
   * Stops recording by itself after this many ms when `stop()` was not called. Default 300000
   * (5 minutes); `0` disables it.
   */
  watchdogMs?: number;
}

/**
 * Options of an observation query: as for `agent.aiQuery` (spec 4.3) without `domIncluded`,
 * since observations read only recorded frames (spec 4.4 rule 2).
 */
export interface ObservationQueryOptions {
  /** Send the final screenshot. Default `true`; the frames are always sent. */
  screenshotIncluded?: boolean;
  /** Per-call context. */
  context?: string;
  /**
   * Not supported: any value but `false` throws a `TypeError` (spec 4.4 rule 2, spec 7).
   * @deprecated Never pass it; observations have no DOM.
   */
  domIncluded?: false;
}

/** One kept frame of an observation (no image data: the image is in a file until `dispose()`). */
export interface ObservedFrame {
  /** Its position in the observation, 1-based, in time order. */
  index: number;
  /** When it was captured (or produced by the frame stream), ms since the epoch. */
  timestamp: number;
  /** `timestamp - startedAt`, ms (never negative). */
  offsetMs: number;
  /** The name it carries in model requests, e.g. `"frame 2 at +0.41 s"`. */
  name: string;
}

/** What an observation query adds to a call: the final screen and the frames (internal). */
export interface ObservedCallInput {
  /** The final screenshot as a frozen context (spec 3.2 path): the call's screenshot. */
  frozen: FrozenContext;
  /** The frames as named images, sent before the prompt's own images. */
  images: readonly ResolvedPromptImage[];
}

/** What the observer needs of its agent (internal). */
export interface ObserverHost {
  /** The device observed. */
  readonly device: AbstractInterface;
  /** The agent's screenshot settings. */
  readonly screen: ScreenSettings;
  /** Runs a public call (report, metrics); rejects when the agent was destroyed. */
  run<T>(
    apiName: string,
    prompt: string | ResolvedPrompt,
    intents: readonly ModelIntent[],
    body: (s: CallSession) => Promise<T>,
    observed?: ObservedCallInput,
  ): Promise<T>;
  /** Records an execution without a model, also while the agent is being destroyed. */
  record(apiName: string, prompt: string, body: (s: CallSession) => Promise<void>): Promise<void>;
  /** The effective context of a call. */
  context(api: AIContextApiName, callContext: string | undefined): string | undefined;
}

/** The agent's observers: at most one recording, and every observation not yet disposed. */
export class ObserverRegistry {
  /** The observer recording now, if any. */
  active: UIObserver | undefined;
  /** Observations whose images still exist. */
  readonly observations: Set<UIObservation> = new Set();

  /**
   * For `agent.destroy()` (spec 3.1, 3.3): stops the recording observer, then disposes every
   * observation's images. Failures are warned about, never thrown.
   */
  async destroy(): Promise<void> {
    const active = this.active;
    if (active) {
      try {
        await active.stop();
      } catch (e) {
        console.warn(`Could not stop the observer: ${errorMessage(e)}`);
      }
    }
    for (const observation of [...this.observations]) {
      try {
        await observation.dispose();
      } catch (e) {
        console.warn(`Could not remove observed frames: ${errorMessage(e)}`);
      }
    }
  }
}

const MIN_INTERVAL_MS = 200;
const MAX_TIMER_MS = 2 ** 31 - 1;

function checkOptions(options: StartObservingOptions | undefined): Required<StartObservingOptions> {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(
      `startObserving: options must be an object such as { intervalMs: 500 }, got ${
        JSON.stringify(options)
      }`,
    );
  }
  const intervalMs = options?.intervalMs ?? 1000;
  if (
    typeof intervalMs !== "number" || !Number.isFinite(intervalMs) || intervalMs < MIN_INTERVAL_MS
  ) {
    throw new RangeError(
      `startObserving: 'intervalMs' must be a finite number >= ${MIN_INTERVAL_MS} (5 frames per second at most): current value is ${intervalMs}`,
    );
  }
  const maxFrames = options?.maxFrames ?? 30;
  if (!Number.isInteger(maxFrames) || maxFrames < 2) {
    throw new RangeError(
      `startObserving: 'maxFrames' must be an integer >= 2: current value is ${maxFrames}`,
    );
  }
  const watchdogMs = options?.watchdogMs ?? 300000;
  if (
    typeof watchdogMs !== "number" || !Number.isFinite(watchdogMs) || watchdogMs < 0 ||
    watchdogMs > MAX_TIMER_MS
  ) {
    throw new RangeError(
      `startObserving: 'watchdogMs' must be a number from 0 (no watchdog) to ${MAX_TIMER_MS}: current value is ${watchdogMs}`,
    );
  }
  return { intervalMs, maxFrames, watchdogMs };
}

/**
 * Starts observing (spec 4.4) for the agent whose `host` and `registry` these are.
 *
 * @throws {RangeError} naming a bad `intervalMs`, `maxFrames` or `watchdogMs`.
 * @throws {Error} when an observer of this agent is still recording (naming `stop()`).
 */
export async function startObserving(
  host: ObserverHost,
  registry: ObserverRegistry,
  options?: StartObservingOptions,
): Promise<UIObserver> {
  const settings = checkOptions(options);
  if (registry.active) {
    throw new Error(
      "startObserving: this agent is already observing; call stop() on the current observer first (one observer at a time)",
    );
  }
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const store = await createFrameStore(id);
  const observer = new UIObserver(host, registry, store, settings);
  registry.active = observer;
  try {
    await observer._start();
  } catch (e) {
    registry.active = undefined;
    await store.clear();
    throw e;
  }
  return observer;
}

interface BufferedFrame {
  /** Frame number (file name), never reused. */
  n: number;
  /** Tick it was sampled at. */
  tick: number;
  timestamp: number;
}

function notStopped(api: string): Error {
  return new Error(
    `${api}: the observer is still recording; call stop() first and query the UIObservation it returns (spec 4.4 rule 1)`,
  );
}

/**
 * A running observation (spec 2.9, 3.3): samples the screen until {@link stop} (or the watchdog).
 * Created by `agent.startObserving()`.
 */
export class UIObserver {
  readonly #host: ObserverHost;
  readonly #registry: ObserverRegistry;
  readonly #store: FrameStore;
  readonly #settings: Required<StartObservingOptions>;
  #startedAt = 0;
  #frames: BufferedFrame[] = [];
  #stride = 1;
  #tick = 0;
  #nextN = 1;
  #timer: ReturnType<typeof setInterval> | undefined;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #stream: FrameStream | undefined;
  #latest: StreamFrame | undefined;
  #latestSeq = 0;
  #keptSeq = 0;
  #capturing = false;
  #chain: Promise<void> = Promise.resolve();
  #stopping: Promise<UIObservation> | undefined;
  #stopped = false;
  #autoStopped = false;

  /** @internal Use `agent.startObserving()`. */
  constructor(
    host: ObserverHost,
    registry: ObserverRegistry,
    store: FrameStore,
    settings: Required<StartObservingOptions>,
  ) {
    this.#host = host;
    this.#registry = registry;
    this.#store = store;
    this.#settings = settings;
  }

  /** @internal Starts the source, the ticks and the watchdog. */
  async _start(): Promise<void> {
    this.#startedAt = Date.now();
    const device = this.#host.device;
    if (device.startFrameStream) {
      this.#stream = await device.startFrameStream({
        onFrame: (frame) => this.#onFrame(frame),
        quality: this.#host.screen.encoding.quality,
        // Fresher than a tick needs, without the source's full frame rate (up to 60 a second).
        minIntervalMs: this.#settings.intervalMs / 2,
      });
    } else {
      // The initial state: startObserving() resolves once it is stored.
      this.#sample(0);
      await this.#chain;
    }
    this.#timer = setInterval(() => this.#onTick(), this.#settings.intervalMs);
    unrefTimer(this.#timer);
    if (this.#settings.watchdogMs > 0) {
      this.#watchdog = setTimeout(() => {
        this.#autoStopped = true;
        this.stop().catch((e) => console.warn(`Observer watchdog stop failed: ${errorMessage(e)}`));
      }, this.#settings.watchdogMs);
      unrefTimer(this.#watchdog);
    }
  }

  /**
   * @internal For tests: runs one tick now (as the interval would) and resolves when the frames
   * it and earlier ticks took are stored.
   */
  async _tick(): Promise<void> {
    this.#onTick();
    await this.#chain;
  }

  /** Frames buffered so far (at most `maxFrames`). */
  get bufferedFrameCount(): number {
    return this.#frames.length;
  }

  /** @deprecated The earlier listing's name (spec 2.9) of {@link bufferedFrameCount}. */
  get frameCount(): number {
    return this.#frames.length;
  }

  /** Whether recording has ended (by `stop()`, the watchdog or `agent.destroy()`). */
  get stopped(): boolean {
    return this.#stopped;
  }

  #onFrame(frame: StreamFrame): void {
    if (this.#stopped) return;
    this.#latest = frame;
    this.#latestSeq++;
    // The first frame is the initial state: kept at once, not at the next tick.
    if (this.#keptSeq === 0 && this.#nextN === 1) this.#sample(this.#tick);
  }

  #onTick(): void {
    const tick = ++this.#tick;
    if (tick % this.#stride === 0) this.#sample(tick);
  }

  #sample(tick: number): void {
    if (this.#stopped) return;
    if (this.#stream) {
      const frame = this.#latest;
      if (!frame || this.#latestSeq === this.#keptSeq) return;
      this.#keptSeq = this.#latestSeq;
      const body = frame.data.startsWith("data:") ? splitDataUri(frame.data) : undefined;
      this.#enqueue(() =>
        this.#keep(
          tick,
          body?.format ?? frame.format,
          body?.base64 ?? frame.data,
          frame.timestamp,
        )
      );
      return;
    }
    if (this.#capturing) return;
    this.#capturing = true;
    const at = Date.now();
    this.#enqueue(async () => {
      try {
        const shot = await this.#host.device.screenshotBase64(this.#host.screen.encoding);
        const { format, base64 } = splitDataUri(shot);
        await this.#keep(tick, format, base64, at);
      } finally {
        this.#capturing = false;
      }
    });
  }

  #enqueue(task: () => Promise<void>): void {
    this.#chain = this.#chain.then(task).catch((e) =>
      console.warn(`Observer: a frame could not be recorded: ${errorMessage(e)}`)
    );
  }

  async #keep(tick: number, format: FrameFormat, base64: string, timestamp: number) {
    // The stride may have doubled since the tick was taken.
    if (tick % this.#stride !== 0) return;
    const n = this.#nextN++;
    await this.#store.put(n, format, base64);
    this.#frames.push({ n, tick, timestamp: Math.max(timestamp, this.#startedAt) });
    while (this.#frames.length > this.#settings.maxFrames) {
      this.#stride *= 2;
      const last = this.#frames.length - 1;
      const keep: BufferedFrame[] = [];
      const drop: BufferedFrame[] = [];
      this.#frames.forEach((f, i) =>
        (i === 0 || i === last || f.tick % this.#stride === 0 ? keep : drop).push(f)
      );
      this.#frames = keep;
      for (const f of drop) await this.#store.remove(f.n);
    }
  }

  /**
   * Stops recording (spec 3.3): stops the source, waits for frames being written, captures the
   * final representative screenshot, and writes a `startObserving` execution to the report with
   * one `Observed` step per frame. Later calls (and a call after the watchdog stopped it) return
   * the same observation.
   *
   * @throws the device's error when the final screenshot cannot be taken (the frames are then
   * removed).
   */
  stop(): Promise<UIObservation> {
    return this.#stopping ??= this.#stop();
  }

  async #stop(): Promise<UIObservation> {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#watchdog);
    try {
      await this.#stream?.stop();
    } catch (e) {
      console.warn(`Observer: the frame stream did not stop cleanly: ${errorMessage(e)}`);
    }
    await this.#chain;
    const endedAt = Date.now();
    const { device, screen } = this.#host;
    let final: FrozenContext;
    try {
      const [screenshot, logical] = await Promise.all([
        device.screenshotBase64(sourceEncoding(screen)),
        device.size(),
      ]);
      final = { screenshot, logical };
    } catch (e) {
      if (this.#registry.active === this) this.#registry.active = undefined;
      await this.#store.clear();
      throw e;
    }
    const startedAt = this.#startedAt;
    const frames: readonly ObservedFrame[] = Object.freeze(this.#frames.map((f, i) => {
      const offsetMs = f.timestamp - startedAt;
      return Object.freeze({
        index: i + 1,
        timestamp: f.timestamp,
        offsetMs,
        name: `frame ${i + 1} at +${(offsetMs / 1000).toFixed(2)} s`,
      });
    }));
    const numbers = this.#frames.map((f) => f.n);
    const observation = new UIObservation(
      this.#host,
      this.#registry,
      this.#store,
      { frames, numbers, final, startedAt, endedAt },
    );
    this.#registry.observations.add(observation);
    if (this.#registry.active === this) this.#registry.active = undefined;
    await this.#report(frames, numbers);
    return observation;
  }

  async #report(frames: readonly ObservedFrame[], numbers: readonly number[]): Promise<void> {
    const { intervalMs, maxFrames, watchdogMs } = this.#settings;
    const title = `intervalMs ${intervalMs}, maxFrames ${maxFrames}, watchdogMs ${watchdogMs}` +
      (this.#autoStopped ? " (stopped by the watchdog)" : "");
    try {
      await this.#host.record("startObserving", title, async (s) => {
        s.recorder.record.startedAt = this.#startedAt;
        for (const [i, frame] of frames.entries()) {
          const id = s.report.addScreenshot(await this.#store.read(numbers[i]));
          const step = s.recorder.begin(
            "Observed",
            `Observed +${(frame.offsetMs / 1000).toFixed(2)} s`,
            { screenshot: id, param: { frame: frame.index, timestamp: frame.timestamp } },
          );
          s.recorder.end(step);
          step.startedAt = step.endedAt = frame.timestamp;
        }
      });
    } catch (e) {
      console.warn(`Observer: could not report the observed frames: ${errorMessage(e)}`);
    }
  }

  /**
   * Earlier listing (spec 4.4 rule 2): `aiAssert` on the observer. Valid only once `stop()` was
   * called; then the same as {@link UIObservation.aiAssert} on the observation `stop()` returns.
   *
   * @throws {Error} naming `stop()` while recording.
   */
  async aiAssert(
    assertion: TUserPrompt,
    errorMsg?: string,
    options?: ObservationQueryOptions,
  ): Promise<void> {
    if (!this.#stopping) throw notStopped("aiAssert");
    return await (await this.#stopping).aiAssert(assertion, errorMsg, options);
  }

  /**
   * Earlier listing (spec 4.4 rule 2): `aiBoolean` on the observer. Valid only once `stop()` was
   * called; then the same as {@link UIObservation.aiBoolean}.
   *
   * @throws {Error} naming `stop()` while recording.
   */
  async aiBoolean(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<boolean> {
    if (!this.#stopping) throw notStopped("aiBoolean");
    return await (await this.#stopping).aiBoolean(prompt, options);
  }
}

interface ObservationData {
  frames: readonly ObservedFrame[];
  numbers: readonly number[];
  final: FrozenContext;
  startedAt: number;
  endedAt: number;
}

function checkQueryOptions(api: string, options: ObservationQueryOptions | undefined): void {
  const dom = (options as { domIncluded?: unknown } | undefined)?.domIncluded;
  if (dom !== undefined && dom !== false) {
    throw new TypeError(
      `${api}: 'domIncluded' is not supported on an observation, which reads only recorded frames (spec 4.4 rule 2); leave domIncluded unset: current value is ${
        JSON.stringify(dom)
      }`,
    );
  }
}

/**
 * A stopped observation (spec 2.9): the frames (fixed), the final screenshot, and queries that
 * send both to the model (docs/model-protocol.md, "Observation"). Each query is an execution in
 * the report like the agent's own extraction calls.
 */
export class UIObservation {
  /** When recording started, ms since the epoch. */
  readonly startedAt: number;
  /** When recording stopped, ms since the epoch. */
  readonly endedAt: number;
  /** The kept frames in time order; frozen. */
  readonly frames: readonly ObservedFrame[];
  readonly #host: ObserverHost;
  readonly #registry: ObserverRegistry;
  readonly #store: FrameStore;
  readonly #numbers: readonly number[];
  #final: FrozenContext | undefined;
  #disposed = false;

  /** @internal Returned by `UIObserver.stop()`. */
  constructor(
    host: ObserverHost,
    registry: ObserverRegistry,
    store: FrameStore,
    data: ObservationData,
  ) {
    this.#host = host;
    this.#registry = registry;
    this.#store = store;
    this.frames = data.frames;
    this.#numbers = data.numbers;
    this.#final = data.final;
    this.startedAt = data.startedAt;
    this.endedAt = data.endedAt;
  }

  /** Number of kept frames (at most `maxFrames`). */
  get frameCount(): number {
    return this.frames.length;
  }

  /** The directory holding the frame files; undefined without a file system or after dispose. */
  get framesDir(): string | undefined {
    return this.#disposed ? undefined : this.#store.dir;
  }

  /**
   * Removes the frame images (spec 3.3); later queries reject. `agent.destroy()` does this for
   * every observation not yet disposed. Calling it again does nothing.
   */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#final = undefined;
    this.#registry.observations.delete(this);
    await this.#store.clear();
  }

  async #input(api: string): Promise<ObservedCallInput> {
    if (this.#disposed || !this.#final) {
      throw new Error(`${api}: this observation was disposed; its frames are gone`);
    }
    const final = this.#final;
    const images = await Promise.all(
      this.frames.map(async (f, i) => ({
        name: f.name,
        url: await this.#store.read(this.#numbers[i]),
      })),
    );
    return { frozen: final, images };
  }

  async #extract(
    api: AIContextApiName,
    demand: TUserPrompt,
    returnType: ExtractReturnType,
    options: ObservationQueryOptions | undefined,
  ): Promise<unknown> {
    checkQueryOptions(api, options);
    const prompt = await resolvePrompt(demand, `${api} prompt`);
    const input = await this.#input(api);
    const note = observationText(
      this.frames.map((f) => f.name),
      options?.screenshotIncluded !== false,
    );
    return await this.#host.run(
      api,
      prompt,
      ["insight"],
      (s) =>
        extractData(s, prompt.text, returnType, {
          context: this.#host.context(api, options?.context),
          screenshotIncluded: options?.screenshotIncluded,
          observation: note,
        }),
      input,
    );
  }

  /**
   * Extracts data in the shape `dataDemand` describes from the frames and the final screenshot
   * (spec 4.3, 4.4).
   *
   * @throws {TypeError} naming `domIncluded` when it is passed.
   * @throws {Error} after {@link dispose} or `agent.destroy()`.
   */
  async aiQuery<T = unknown>(
    dataDemand: TUserPrompt,
    options?: ObservationQueryOptions,
  ): Promise<T> {
    return (await this.#extract("aiQuery", dataDemand, "any", options)) as T;
  }

  /** Answers a yes/no question about what was observed. */
  async aiBoolean(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<boolean> {
    return (await this.#extract("aiBoolean", prompt, "boolean", options)) as boolean;
  }

  /** Reads a number from what was observed. */
  async aiNumber(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<number> {
    return (await this.#extract("aiNumber", prompt, "number", options)) as number;
  }

  /** Reads a string from what was observed; same as {@link aiAsk}. */
  async aiString(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<string> {
    return (await this.#extract("aiString", prompt, "string", options)) as string;
  }

  /** Asks a question about what was observed; same as {@link aiString}. */
  async aiAsk(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<string> {
    return (await this.#extract("aiAsk", prompt, "string", options)) as string;
  }

  /**
   * Checks an assertion against the frames and the final screenshot (spec 4.4 rule 1): the text
   * says whether something appeared at any point, the final state, or an ordered change.
   *
   * @throws {AssertionError} carrying `errorMsg` and the model's `reason` when it is false.
   * @throws {TypeError} naming `domIncluded` when it is passed.
   */
  async aiAssert(
    assertion: TUserPrompt,
    errorMsg?: string,
    options?: ObservationQueryOptions,
  ): Promise<void> {
    checkQueryOptions("aiAssert", options);
    const prompt = await resolvePrompt(assertion, "aiAssert assertion");
    const input = await this.#input("aiAssert");
    const text = prompt.text;
    const note = observationText(
      this.frames.map((f) => f.name),
      options?.screenshotIncluded !== false,
    );
    return await this.#host.run("aiAssert", prompt, ["insight"], async (s) => {
      const check = await checkAssertion(
        s,
        text,
        this.#host.context("aiAssert", options?.context),
        {
          screenshotIncluded: options?.screenshotIncluded,
          observation: note,
        },
      );
      if (!check.pass) throw new AssertionError(text, errorMsg, check.thought);
    }, input);
  }
}
