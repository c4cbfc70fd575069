/**
 * The live screen of a playground: one frame stream from the agent's device, shared by every
 * open page, started with the first viewer and stopped after the last. A device with the
 * `startFrameStream` capability (the DevTools screencast on web) sends frames when the screen
 * changes; any other device is polled with screenshots, so every platform has a live screen.
 *
 * @module
 */

import type { AbstractInterface, FrameStream, StreamFrame } from "@sdk/core";
import { ConnectionError } from "@sdk/core";

/** Options of {@link ScreenFeed}. */
export interface ScreenFeedOptions {
  /** JPEG quality asked of the source, 1-100. Default 70. */
  quality?: number;
  /** Least time between two frames, ms. Default 100 (10 frames a second at most). */
  minIntervalMs?: number;
  /** Time between two screenshots when the device has no frame stream, ms. Default 500. */
  pollIntervalMs?: number;
}

/** Called with each new frame. */
export type FrameListener = (frame: StreamFrame) => void;

/** Shares one frame stream of a device among viewers. */
export class ScreenFeed {
  readonly #device: AbstractInterface;
  readonly #options: Required<ScreenFeedOptions>;
  readonly #listeners = new Set<FrameListener>();
  #latest: StreamFrame | undefined;
  #stream: Promise<FrameStream> | undefined;
  #closed = false;

  /** Creates the feed; nothing starts before the first {@link subscribe}. */
  constructor(device: AbstractInterface, options: ScreenFeedOptions = {}) {
    this.#device = device;
    this.#options = {
      quality: options.quality ?? 70,
      minIntervalMs: options.minIntervalMs ?? 100,
      pollIntervalMs: options.pollIntervalMs ?? 500,
    };
  }

  /**
   * Adds a viewer: it gets the latest frame at once (a quiet screen may send no other for a
   * long time), then each new one.
   *
   * @returns the function that removes the viewer; the stream stops with the last one.
   * @throws {ConnectionError} (`lost`) when the feed is closed; the device's error when its
   * stream fails to start.
   */
  async subscribe(listener: FrameListener): Promise<() => Promise<void>> {
    if (this.#closed) {
      throw new ConnectionError("the playground is closed", {
        kind: "lost",
        endpoint: "the playground",
      });
    }
    this.#listeners.add(listener);
    if (this.#latest) listener(this.#latest);
    try {
      await (this.#stream ??= this.#start());
    } catch (e) {
      this.#listeners.delete(listener);
      this.#stream = undefined;
      throw e;
    }
    return async () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      await this.#stop();
    };
  }

  /** Stops the stream and drops every viewer. Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    await this.#stop();
  }

  async #stop(): Promise<void> {
    const stream = this.#stream;
    this.#stream = undefined;
    await (await stream?.catch(() => undefined))?.stop();
  }

  #emit = (frame: StreamFrame) => {
    this.#latest = frame;
    for (const listener of this.#listeners) listener(frame);
  };

  #start(): Promise<FrameStream> {
    const { quality, minIntervalMs } = this.#options;
    if (this.#device.startFrameStream) {
      return this.#device.startFrameStream({ onFrame: this.#emit, quality, minIntervalMs });
    }
    return Promise.resolve(this.#poll());
  }

  /** Screenshots at a steady pace, for devices without a frame stream. */
  #poll(): FrameStream {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const uri = await this.#device.screenshotBase64({
          format: "jpeg",
          quality: this.#options.quality,
        });
        const [, format, data] = /^data:image\/(jpeg|png);base64,(.*)$/s.exec(uri) ?? [];
        if (!stopped && data) {
          this.#emit({ data, format: format as "jpeg" | "png", timestamp: Date.now() });
        }
      } catch {
        // A screen that cannot be read now (a page navigating) is tried again at the next tick.
      }
      if (!stopped) timer = setTimeout(tick, this.#options.pollIntervalMs);
    };
    void tick();
    return {
      stop() {
        stopped = true;
        clearTimeout(timer);
        return Promise.resolve();
      },
    };
  }
}
