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

import { InvalidStateError } from "../errors.ts";
import type { FrozenContext } from "../session/session.ts";
import type { FrameStream, StreamFrame } from "../device/types.ts";
import { sourceEncoding } from "../session/screen.ts";
import type { TUserPrompt } from "../session/options.ts";
import { errorMessage } from "../session/execution.ts";
import { unrefTimer } from "../runtime/runtime.ts";
import { createFrameStore, splitDataUri } from "./frame_store.ts";
import type { FrameFormat, FrameStore } from "./frame_store.ts";
import type { ObserverHost } from "./host.ts";
import { type ObservedFrame, UIObservation } from "./observation.ts";
import {
  checkObservingOptions,
  type ObservationQueryOptions,
  type StartObservingOptions,
} from "./options.ts";
import type { ObserverRegistry } from "./registry.ts";

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
  const settings = checkObservingOptions(options);
  if (registry.active) {
    throw new InvalidStateError(
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
  return new InvalidStateError(
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
