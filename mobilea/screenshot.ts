/**
 * MobileA screenshots: the mirror stream's latest frame when it runs, else a PNG captured with
 * `screencap` (or the yadb helper), each way tried when the one before fails.
 *
 * @module
 */

import { ConnectionError, DeviceNotFoundError, encodeBase64, ToolError } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";
import { withPrefix } from "./errors.ts";
import { displayArgs } from "./input.ts";
import type { Mirror } from "./mirror.ts";
import { scalePngToMaxSize } from "./mirror_scale.ts";
import { yadbCommand, type YadbHelper } from "./yadb.ts";

/** Default of `minScreenshotBufferSize`, bytes (spec 8). */
export const DEFAULT_MIN_SCREENSHOT_BUFFER_SIZE = 1024;

// Where a capture is written when it is not read straight from `screencap`'s output.
const DEVICE_CAPTURE_PATH = "/data/local/tmp/sdk_screencap.png";
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** How the device captures, from its options. */
export interface CaptureSettings {
  /** The display to capture (`-d <id>`), when set. */
  readonly displayId: number | undefined;
  /** Only the yadb helper (`screenshotStrategy: 'always-helper'`). */
  readonly helperOnly: boolean;
  /** Captures smaller than this many bytes count as failed (`minScreenshotBufferSize`). */
  readonly minBytes: number;
}

/**
 * The screen as a data URI: the mirror's latest frame (JPEG) when it has one, else `capture`'s PNG
 * (scaled to the mirror's `maxSize` when the mirror is enabled).
 */
export async function screenshotDataUri(
  mirror: Mirror,
  capture: () => Promise<Uint8Array>,
): Promise<string> {
  const frame = await mirror.frame();
  if (frame) return `data:image/jpeg;base64,${encodeBase64(frame.jpeg)}`;
  const png = await capture();
  const { enabled, maxSize } = mirror.settings;
  const scaled = enabled && maxSize > 0 ? await scalePngToMaxSize(png, maxSize) : png;
  return `data:image/png;base64,${encodeBase64(scaled)}`;
}

/**
 * A PNG of the screen: `exec:screencap -p`, then `screencap -p` to a file read back, then the
 * yadb helper (only the helper with `helperOnly`), each tried when the one before fails (an error,
 * an empty or too small buffer, or data that is not a PNG).
 *
 * @throws {ToolError} naming each way's failure when all fail; with `helperOnly`, the helper's
 * own error (a `MissingDependencyError` when it is not on the device).
 * @throws {ConnectionError} / {DeviceNotFoundError} at once when the device is gone (or was
 * destroyed): no other way is tried then.
 */
export async function capturePng(
  shell: BridgeShell,
  yadb: YadbHelper,
  settings: CaptureSettings,
): Promise<Uint8Array> {
  const d = displayArgs(settings.displayId);
  const attempts: [string, () => Promise<Uint8Array>][] = settings.helperOnly ? [] : [
    ["exec:screencap -p", () => shell.exec(`screencap -p${d}`)],
    ["screencap to a file", async () => {
      await shell.shellOk(`screencap -p${d} ${DEVICE_CAPTURE_PATH}`);
      return await shell.exec(`cat ${DEVICE_CAPTURE_PATH}`);
    }],
  ];
  attempts.push(["the yadb helper", async () => {
    await yadb.require("take a screenshot with it");
    await shell.shellOk(`${yadbCommand("-screenshot")} ${DEVICE_CAPTURE_PATH}`);
    return await shell.exec(`cat ${DEVICE_CAPTURE_PATH}`);
  }]);
  const failures: string[] = [];
  const prefix = `Cannot take a screenshot of Android device ${JSON.stringify(shell.deviceId)}: `;
  for (const [name, capture] of attempts) {
    try {
      const png = await capture();
      checkScreenshot(png, settings.minBytes);
      return png;
    } catch (error) {
      if (
        shell.destroyed || error instanceof ConnectionError || error instanceof DeviceNotFoundError
      ) {
        throw error;
      }
      // One way only (the helper): its own error, a missing helper included.
      if (attempts.length === 1) throw withPrefix(error, `${prefix}${name}: `);
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }
  const output = failures.join("; ");
  throw new ToolError(`${prefix}${output}`, { tool: "adb", output });
}

function checkScreenshot(png: Uint8Array, minBytes: number): void {
  const bad = (why: string) => new ToolError(why, { tool: "adb", output: why });
  if (png.length === 0) throw bad("the capture is empty");
  if (png.length < minBytes) {
    throw bad(
      `the capture has ${png.length} bytes, fewer than minScreenshotBufferSize (${minBytes})`,
    );
  }
  if (png.length < 8 || PNG_SIGNATURE.some((b, i) => png[i] !== b)) {
    throw bad("the capture is not a PNG image");
  }
}
