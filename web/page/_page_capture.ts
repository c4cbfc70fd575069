/**
 * What the web page device shows of the page (private to `@sdk/web`): viewport screenshots as
 * data URIs, and the DevTools-protocol screencast as a frame stream.
 *
 * @module
 */

import type { FrameStream, FrameStreamOptions, ScreenshotEncoding } from "../_core.ts";
import { encodeBase64, SdkRangeError, sleep, UnsupportedActionError } from "../_core.ts";
import type { PageDriver } from "./page_driver.ts";

// JPEG quality of streamed frames when the observer does not say.
const DEFAULT_STREAM_QUALITY = 80;
// Chromium's "Unable to capture screenshot" on a busy renderer: asked this many times in all.
const SCREENSHOT_ATTEMPTS = 3;
const SCREENSHOT_RETRY_MS = 100;

/**
 * The driver's viewport screenshot as a `data:image/jpeg;base64,...` or (the default)
 * `data:image/png;base64,...` URI, as `encoding` asks.
 */
export async function screenshotDataUri(
  driver: PageDriver,
  encoding?: ScreenshotEncoding,
): Promise<string> {
  const mime = encoding?.format === "jpeg" ? "image/jpeg" : "image/png";
  return `data:${mime};base64,${encodeBase64(await capture(driver, encoding))}`;
}

/**
 * The driver's screenshot, asked again (up to {@link SCREENSHOT_ATTEMPTS} times, a short pause
 * between) when Chromium answers "Unable to capture screenshot": a busy renderer sometimes has
 * no frame ready, and the next request gets one. Other errors are thrown at once.
 */
async function capture(driver: PageDriver, encoding?: ScreenshotEncoding): Promise<Uint8Array> {
  for (let attempt = 1;; attempt++) {
    try {
      return await driver.screenshot(encoding);
    } catch (error) {
      const transient = /Unable to capture screenshot/i.test(String((error as Error)?.message));
      if (!transient || attempt >= SCREENSHOT_ATTEMPTS) throw error;
      await sleep(SCREENSHOT_RETRY_MS);
    }
  }
}

/**
 * Starts the driver's screencast as a frame stream (`WebPageDevice.startFrameStream`). The stream
 * is in `streams` until it stops, so the device can stop those still running when destroyed.
 *
 * @throws {SdkRangeError} when `quality` is not a number from 1 to 100.
 * @throws {UnsupportedActionError} when the driver has no screencast.
 */
export async function startScreencastStream(
  driver: PageDriver,
  options: FrameStreamOptions,
  streams: Set<FrameStream>,
): Promise<FrameStream> {
  const quality = options.quality ?? DEFAULT_STREAM_QUALITY;
  if (typeof quality !== "number" || !(quality >= 1 && quality <= 100)) {
    throw new SdkRangeError(
      `Cannot start the frame stream as 'quality' must be a number from 1 to 100: current ` +
        `value is ${JSON.stringify(quality)}`,
    );
  }
  if (!driver.startScreencast) {
    throw new UnsupportedActionError(
      "Cannot start the frame stream: this page's driver has no screencast",
      "startFrameStream",
    );
  }
  const onFrame = options.onFrame;
  const screencast = await driver.startScreencast({
    quality: Math.round(quality),
    minIntervalMs: options.minIntervalMs,
    onFrame: (data, timestamp) => onFrame({ data, format: "jpeg", timestamp }),
  });
  let stopping: Promise<void> | undefined;
  const stream: FrameStream = {
    stop: () =>
      stopping ??= screencast.stop().finally(() => {
        streams.delete(stream);
      }),
  };
  streams.add(stream);
  return stream;
}
