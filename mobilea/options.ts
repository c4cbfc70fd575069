/**
 * The options of `MobileADevice` (spec 4.8) and their check: each wrong value is refused with a
 * message naming it, before anything connects; the rest get their defaults.
 *
 * @module
 */

import type { DeviceAction, InputStrategy } from "@sdk/core";
import {
  checkBooleanOptions,
  checkInputOptions,
  checkOneOfOption,
  checkTypeDelayOption,
  getEnv,
  SdkRangeError,
  SdkTypeError,
} from "@sdk/core";
import type { BridgeOptions } from "./bridge.ts";
import type { KeyboardDismissStrategy } from "./keyboard.ts";
import {
  DEFAULT_MIRROR_BIT_RATE,
  DEFAULT_MIRROR_IDLE_TIMEOUT_MS,
  DEFAULT_MIRROR_RESET_FRAME_TIMEOUT_MS,
  type MirrorSettings,
} from "./mirror.ts";
import { DEFAULT_SCRCPY_SERVER_PATH, DEFAULT_SCRCPY_SERVER_VERSION } from "./scrcpy.ts";
import { type CaptureSettings, DEFAULT_MIN_SCREENSHOT_BUFFER_SIZE } from "./screenshot.ts";
import type { TypingSettings } from "./typing.ts";

/**
 * Mirror stream settings (spec 4.8): screenshots from the scrcpy server's H.264 video, decoded
 * by ffmpeg. Needs the scrcpy server jar on the device (`scrcpyServerPath`) and ffmpeg here.
 */
export interface MirrorConfig {
  /** Enable mirror-stream screenshots. Default `false`. */
  enabled?: boolean;
  /**
   * Max screenshot width or height in pixels (an integer >= 0; the server's video takes the
   * multiple of 8 below it); also applied to fallback screenshots while the mirror is
   * unavailable. Default 0: no scaling.
   */
  maxSize?: number;
  /** H.264 bitrate, bits/s (> 0). Default 100000000. */
  videoBitRate?: number;
  /** Idle time (no screenshot, no frame consumer) before the stream disconnects, ms; 0 never. Default 30000. */
  idleTimeoutMs?: number;
  /** How long a screenshot waits for a fresh key frame after an in-band video reset, ms. Default 800. */
  videoResetFrameTimeoutMs?: number;
  /** The ffmpeg executable that decodes the video. Default `ffmpeg` on `PATH`. */
  ffmpegPath?: string;
}

/** Options of `MobileADevice` (device.ts; spec 4.8), after the device id. */
export interface MobileADeviceOptions extends BridgeOptions {
  /** Hide the on-screen keyboard after `Input`. Default `true`. */
  autoDismissKeyboard?: boolean;
  /**
   * Key order used to hide the keyboard: `'esc-first'` (default) presses ESCAPE, then BACK if the
   * keyboard is still up; `'back-first'` the other way. Keys are pressed only while it is up.
   */
  keyboardDismissStrategy?: "esc-first" | "back-first";
  /**
   * Delay between typed code points, ms (finite, >= 0). With `'legacy'` a positive value makes
   * the native `input text` path type one code point at a time; the helper path ignores it.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default): one call per text (native or helper); `'sequential'`: one call per code
   * point on both paths; `'bulk'`: one call, needs `keyboardTypeDelay` 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /**
   * `'helper-for-non-ascii'` (default): printable ASCII without `%` format specifiers goes
   * through `input text`, anything else (accents, Chinese, `%s`) through the yadb helper at
   * `YADB_PATH` (yadb.ts); `'always-helper'`: the helper for all text. `'always-yadb'` and
   * `'yadb-for-non-ascii'` are accepted as the same.
   */
  imeStrategy?: "always-helper" | "helper-for-non-ascii" | "always-yadb" | "yadb-for-non-ascii";
  /**
   * `'auto'` (default): `exec:screencap -p`, then `screencap` to a file read back, then the yadb
   * helper; `'always-helper'`: the helper only (default display only). Also set by
   * `SDK_MOBILEA_SCREENSHOT_STRATEGY=always-helper`.
   */
  screenshotStrategy?: "auto" | "always-helper";
  /** Display to target: passed as `-d <id>` to `input` and `screencap`. Default: none. */
  displayId?: number;
  /**
   * `false` removes `RunBridgeShell` from the action space and makes
   * `MobileADevice.runBridgeShell` (device.ts) throw. Default `true`.
   */
  exposeRunBridgeShellAction?: boolean;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /** Deprecated and removed: no effect. Use the agent's `screenshotShrinkFactor`. */
  screenshotResizeScale?: number;
  /**
   * Screenshots smaller than this many bytes count as failed captures. Default 1024; `0` skips
   * the size check (empty buffers and non-PNG data are still rejected).
   */
  minScreenshotBufferSize?: number;
  /** Query the screen size and density before every `size()`. Default `false` (once). */
  alwaysRefreshScreenInfo?: boolean;
  /** The mirror stream (see {@link MirrorConfig}). Default: disabled. */
  mirrorConfig?: MirrorConfig;
  /**
   * Where the scrcpy server jar is on the device, for the mirror stream and `Pinch` (push it
   * once: `adb push scrcpy-server.jar /data/local/tmp/scrcpy-server.jar`). Default
   * `SDK_MOBILEA_SCRCPY_SERVER_PATH`, else {@link DEFAULT_SCRCPY_SERVER_PATH}.
   */
  scrcpyServerPath?: string;
  /**
   * The jar's exact release (the server refuses another client version). Default
   * `SDK_MOBILEA_SCRCPY_SERVER_VERSION`, else {@link DEFAULT_SCRCPY_SERVER_VERSION}.
   */
  scrcpyServerVersion?: string;
}

/** The device's options, checked, with their defaults. */
export interface MobileASettings {
  readonly autoDismissKeyboard: boolean;
  readonly keyboardDismissStrategy: KeyboardDismissStrategy;
  readonly exposeRunBridgeShellAction: boolean;
  readonly alwaysRefreshScreenInfo: boolean;
  readonly displayId: number | undefined;
  readonly typing: TypingSettings;
  readonly capture: CaptureSettings;
  /** The scrcpy server jar's path and release. */
  readonly server: { path: string; version: string };
  readonly mirror: MirrorSettings;
}

/**
 * Checks the device's own options (not the bridge's, not `customActions`) in the order of their
 * errors, and settles their defaults (some from `SDK_MOBILEA_*`). The shared checks of
 * `@sdk/core` throw the built-in `TypeError` / `RangeError`; the device turns them into the
 * SDK's (`checked` of errors.ts).
 *
 * @throws {SdkTypeError} for a non-boolean flag, an unknown `keyboardDismissStrategy`,
 * `imeStrategy` or `screenshotStrategy`, or a bad `mirrorConfig`.
 * @throws {SdkRangeError} for a negative `keyboardTypeDelay` or `minScreenshotBufferSize`, an
 * unknown `inputStrategy`, `'bulk'` with a positive delay, a `displayId` that is not a
 * non-negative integer, or `screenshotStrategy: 'always-helper'` with a non-zero `displayId`.
 */
export function readMobileAOptions(options: MobileADeviceOptions): MobileASettings {
  checkBooleanOptions("MobileADevice", options, [
    "autoDismissKeyboard",
    "exposeRunBridgeShellAction",
    "alwaysRefreshScreenInfo",
  ]);
  const dismiss = checkOneOfOption(
    "MobileADevice",
    "keyboardDismissStrategy",
    options.keyboardDismissStrategy,
    ["esc-first", "back-first"],
    "esc-first",
  );
  const ime = checkOneOfOption("MobileADevice", "imeStrategy", options.imeStrategy, [
    "helper-for-non-ascii",
    "always-helper",
    "always-yadb",
    "yadb-for-non-ascii",
  ], "helper-for-non-ascii");
  const envStrategy = getEnv("SDK_MOBILEA_SCREENSHOT_STRATEGY");
  const shot = checkOneOfOption(
    "MobileADevice",
    "screenshotStrategy",
    options.screenshotStrategy ??
      (envStrategy === "always-helper" ? "always-helper" : undefined),
    ["auto", "always-helper"],
    "auto",
  );
  const display = options.displayId;
  if (display !== undefined && !(Number.isInteger(display) && display >= 0)) {
    throw new SdkRangeError(
      `Cannot create MobileADevice as 'displayId' must be an integer >= 0: current value is ${
        JSON.stringify(display)
      }`,
    );
  }
  if (shot === "always-helper" && (display ?? 0) !== 0) {
    throw new SdkRangeError(
      `Cannot create MobileADevice as screenshotStrategy 'always-helper' captures only the ` +
        `default display: current displayId is ${display}`,
    );
  }
  const min = options.minScreenshotBufferSize ?? DEFAULT_MIN_SCREENSHOT_BUFFER_SIZE;
  if (!(Number.isInteger(min) && min >= 0)) {
    throw new SdkRangeError(
      `Cannot create MobileADevice as 'minScreenshotBufferSize' must be an integer number of ` +
        `bytes >= 0: current value is ${JSON.stringify(options.minScreenshotBufferSize)}`,
    );
  }
  const delay = checkTypeDelayOption("MobileADevice", options.keyboardTypeDelay);
  checkInputOptions(options);
  const serverPath = checkText(
    "scrcpyServerPath",
    options.scrcpyServerPath ?? getEnv("SDK_MOBILEA_SCRCPY_SERVER_PATH"),
  ) ?? DEFAULT_SCRCPY_SERVER_PATH;
  const serverVersion = checkText(
    "scrcpyServerVersion",
    options.scrcpyServerVersion ?? getEnv("SDK_MOBILEA_SCRCPY_SERVER_VERSION"),
  ) ?? DEFAULT_SCRCPY_SERVER_VERSION;
  return {
    autoDismissKeyboard: options.autoDismissKeyboard ?? true,
    keyboardDismissStrategy: dismiss,
    exposeRunBridgeShellAction: options.exposeRunBridgeShellAction ?? true,
    alwaysRefreshScreenInfo: options.alwaysRefreshScreenInfo ?? false,
    displayId: display,
    typing: {
      alwaysHelper: ime === "always-helper" || ime === "always-yadb",
      typeDelay: delay,
      inputStrategy: options.inputStrategy ?? "legacy",
    },
    capture: { displayId: display, helperOnly: shot === "always-helper", minBytes: min },
    server: { path: serverPath, version: serverVersion },
    mirror: { ...checkMirrorConfig(options.mirrorConfig), serverPath, serverVersion },
  };
}

function checkText(name: string, value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new SdkTypeError(
      `Cannot create MobileADevice as '${name}' must be a non-empty string: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

// The mirror settings with their defaults (spec 8), or the error naming a wrong one.
function checkMirrorConfig(
  config: MirrorConfig | undefined,
): Omit<MirrorSettings, "serverPath" | "serverVersion"> {
  if (config !== undefined && (typeof config !== "object" || config === null)) {
    throw new SdkTypeError(
      `Cannot create MobileADevice as 'mirrorConfig' must be an object: current value is ${
        JSON.stringify(config)
      }`,
    );
  }
  const c = config ?? {};
  if (c.enabled !== undefined && typeof c.enabled !== "boolean") {
    throw new SdkTypeError(
      `Cannot create MobileADevice as 'mirrorConfig.enabled' must be a boolean: current value ` +
        `is ${JSON.stringify(c.enabled)}`,
    );
  }
  const number = (
    name: keyof MirrorConfig,
    fallback: number,
    ok: (v: number) => boolean,
    rule: string,
  ): number => {
    const value = c[name];
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !ok(value)) {
      throw new SdkRangeError(
        `Cannot create MobileADevice as 'mirrorConfig.${name}' must be ${rule}: current value ` +
          `is ${JSON.stringify(value)}`,
      );
    }
    return value;
  };
  const isInt = Number.isInteger;
  return {
    enabled: c.enabled === true,
    maxSize: number("maxSize", 0, (v) => isInt(v) && v >= 0, "an integer >= 0 (pixels)"),
    videoBitRate: number(
      "videoBitRate",
      DEFAULT_MIRROR_BIT_RATE,
      (v) => isInt(v) && v > 0,
      "an integer > 0 (bits/s)",
    ),
    idleTimeoutMs: number(
      "idleTimeoutMs",
      DEFAULT_MIRROR_IDLE_TIMEOUT_MS,
      (v) => Number.isFinite(v) && v >= 0,
      "a finite number of ms >= 0",
    ),
    videoResetFrameTimeoutMs: number(
      "videoResetFrameTimeoutMs",
      DEFAULT_MIRROR_RESET_FRAME_TIMEOUT_MS,
      (v) => isInt(v) && v > 0,
      "an integer number of ms > 0",
    ),
    ffmpegPath: checkText("mirrorConfig.ffmpegPath", c.ffmpegPath) ?? "ffmpeg",
  };
}
