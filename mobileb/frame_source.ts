/**
 * WDA's MJPEG stream as the observer's frame source of one device (`driverMjpegFrameSource`):
 * the streams it started, so that destroying the device stops them.
 *
 * @module
 */

import type { FrameStream, FrameStreamOptions } from "@sdk/core";
import { warn } from "./log.ts";
import { startMjpegStream } from "./mjpeg.ts";
import type { WdaSession } from "./session.ts";

/** The MJPEG streams of one device. Private to the package. */
export class MjpegFrameSource {
  readonly #session: WdaSession;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #streams = new Set<FrameStream>();

  /** Streams from WDA's MJPEG server at `host`:`port`, waiting `connectTimeoutMs` for it. */
  constructor(session: WdaSession, host: string, port: number, connectTimeoutMs: number) {
    this.#session = session;
    this.#connectTimeoutMs = connectTimeoutMs;
    // An IPv6 literal needs brackets in a URL.
    this.#url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/`;
  }

  /** Starts a stream, stopped by its own `stop()` or by {@link MjpegFrameSource.stopAll}. */
  async start(options: FrameStreamOptions): Promise<FrameStream> {
    this.#session.checkLive();
    const stream = await startMjpegStream(
      this.#url,
      options,
      (error) => warn("the MJPEG frame source stopped", error),
      this.#connectTimeoutMs,
    );
    const tracked: FrameStream = {
      stop: async () => {
        this.#streams.delete(tracked);
        await stream.stop();
      },
    };
    this.#streams.add(tracked);
    return tracked;
  }

  /** Stops every stream still running; failures are logged. */
  async stopAll(): Promise<void> {
    const streams = [...this.#streams];
    this.#streams.clear();
    for (const stream of streams) {
      await stream.stop().catch((e) => warn("stopping the MJPEG stream failed", e));
    }
  }
}
