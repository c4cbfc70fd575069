/**
 * The options of `MobileBDevice` (spec 4.9) and their check: each wrong value is refused with a
 * message naming it, before anything connects; the rest get their defaults.
 *
 * @module
 */

import type { DeviceAction, InputStrategy } from "@sdk/core";
import {
  checkBooleanOptions,
  checkInputOptions,
  checkTypeDelayOption,
  SdkRangeError,
  SdkTypeError,
} from "@sdk/core";
import type { TypingSettings } from "./typing.ts";
import { DEFAULT_DRIVER_CONNECT_TIMEOUT_MS } from "./wda.ts";

/** Default port of the WebDriverAgent HTTP service (spec 4.9 `driverPort`). */
export const DEFAULT_DRIVER_PORT = 8100;
/** Default host of the WebDriverAgent HTTP service (spec 4.9 `driverHost`). */
export const DEFAULT_DRIVER_HOST = "localhost";
/** Default port of WebDriverAgent's MJPEG server (spec 4.9 `driverMjpegPort`). */
export const DEFAULT_DRIVER_MJPEG_PORT = 9100;

/** `driverMjpegFrameSource` (spec 4.9). */
export interface DriverMjpegFrameSource {
  /**
   * Use WDA's MJPEG stream as the frame source of `startObserving()`. Default `false`:
   * screenshots per observer tick.
   */
  enabled?: boolean;
}

/** Options of `MobileBDevice` (device.ts; spec 4.9). Every option is optional. */
export interface MobileBDeviceOptions {
  /** Port of the WebDriverAgent service. Default 8100. */
  driverPort?: number;
  /** Host of the WebDriverAgent service. Default `'localhost'`. */
  driverHost?: string;
  /**
   * How long the connection check waits for WebDriverAgent's first answer (`GET /status`, before
   * the first request and after a request that failed for the connection), ms: a port that
   * accepts connections but never answers fails after this, with a `ConnectionError` of kind
   * `timeout`, instead of after a request's 60 s. A finite number > 0. Default 5000.
   */
  driverConnectTimeout?: number;
  /**
   * A module path (or npm specifier) whose device class replaces `MobileBDevice` in
   * `agentFromDeviceDriver` and `runMobileBYaml`; the module exports the class as its default
   * export or as a named export. `SDK_MOBILEB_DEVICE_CLASS_OVERRIDE` does the same; this option
   * wins. The constructor ignores it (it is already the class).
   */
  iOSDeviceClassOverride?: string;
  /**
   * An existing WDA session to use: no session is created, and `destroy()` detaches from it
   * instead of deleting it.
   */
  sessionId?: string;
  /** Port of WDA's MJPEG server. Default 9100. */
  driverMjpegPort?: number;
  /** The MJPEG stream as the observer's frame source. Default disabled. */
  driverMjpegFrameSource?: DriverMjpegFrameSource;
  /** Dismiss the keyboard after `Input` and `ClearInput`. Default `true`. */
  autoDismissKeyboard?: boolean;
  /**
   * Delay between typed code points, ms (finite, >= 0). With `'legacy'` a positive value types one
   * code point per call of WDA's keys endpoint.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default): one keys call per text, or one per code point with a delay;
   * `'sequential'`: one keys call per code point; `'bulk'`: one keys call with the whole text,
   * needs `keyboardTypeDelay` 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /**
   * `false` removes `RunDriverRequest` from the action space and makes
   * `MobileBDevice.runDriverRequest` (and the agent's, and the YAML item) throw
   * `UnsupportedActionError`: a model then cannot send raw requests to WebDriverAgent. Default
   * `true` (spec 4.9).
   */
  exposeRunDriverRequestAction?: boolean;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
}

/** The device's options, checked, with their defaults. */
export interface MobileBSettings {
  readonly driverHost: string;
  readonly driverPort: number;
  readonly driverMjpegPort: number;
  /** How long the connection check waits, ms. */
  readonly driverConnectTimeout: number;
  /** The session given as `sessionId`, trimmed. */
  readonly sessionId: string | undefined;
  readonly autoDismissKeyboard: boolean;
  /** Whether `RunDriverRequest` is in the action space and `runDriverRequest` works. */
  readonly exposeRunDriverRequestAction: boolean;
  /** Whether `driverMjpegFrameSource.enabled` is set. */
  readonly mjpegFrameSource: boolean;
  readonly typing: TypingSettings;
}

/**
 * Checks the device's options (not `customActions`) in the order of their errors, and settles
 * their defaults.
 *
 * @throws {SdkTypeError} for a `driverHost` or `sessionId` that is not a non-empty string, a flag
 * that is not a boolean, or a `driverMjpegFrameSource` that is not an object.
 * @throws {SdkRangeError} for a port that is not an integer 1-65535, a `driverConnectTimeout`
 * that is not a finite number > 0, a negative or non-finite `keyboardTypeDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
 */
export function readMobileBOptions(options: MobileBDeviceOptions): MobileBSettings {
  const host = options.driverHost ?? DEFAULT_DRIVER_HOST;
  if (typeof host !== "string" || host.trim() === "") {
    throw new SdkTypeError(
      `Cannot create MobileBDevice as 'driverHost' must be a non-empty string: current value is ${
        JSON.stringify(options.driverHost)
      }`,
    );
  }
  const driverPort = checkPort("driverPort", options.driverPort, DEFAULT_DRIVER_PORT);
  const driverMjpegPort = checkPort(
    "driverMjpegPort",
    options.driverMjpegPort,
    DEFAULT_DRIVER_MJPEG_PORT,
  );
  const connectTimeout = options.driverConnectTimeout ?? DEFAULT_DRIVER_CONNECT_TIMEOUT_MS;
  if (
    !(typeof connectTimeout === "number" && Number.isFinite(connectTimeout) && connectTimeout > 0)
  ) {
    throw new SdkRangeError(
      `Cannot create MobileBDevice as 'driverConnectTimeout' must be a finite number of ms > 0: ` +
        `current value is ${JSON.stringify(options.driverConnectTimeout)}`,
    );
  }
  const session = options.sessionId;
  if (session !== undefined && (typeof session !== "string" || session.trim() === "")) {
    throw new SdkTypeError(
      `Cannot create MobileBDevice as 'sessionId' must be a non-empty string: current value is ${
        JSON.stringify(session)
      }`,
    );
  }
  checkBooleanOptions("MobileBDevice", options, [
    "autoDismissKeyboard",
    "exposeRunDriverRequestAction",
  ]);
  const frameSource = options.driverMjpegFrameSource;
  if (frameSource !== undefined && (typeof frameSource !== "object" || frameSource === null)) {
    throw new SdkTypeError(
      `Cannot create MobileBDevice as 'driverMjpegFrameSource' must be an object { enabled }: ` +
        `current value is ${JSON.stringify(frameSource)}`,
    );
  }
  if (frameSource) {
    checkBooleanOptions("MobileBDevice", frameSource, ["enabled"]);
  }
  const delay = checkTypeDelayOption("MobileBDevice", options.keyboardTypeDelay);
  checkInputOptions(options);
  return {
    driverHost: host.trim(),
    driverPort,
    driverMjpegPort,
    driverConnectTimeout: connectTimeout,
    sessionId: session?.trim(),
    autoDismissKeyboard: options.autoDismissKeyboard ?? true,
    exposeRunDriverRequestAction: options.exposeRunDriverRequestAction ?? true,
    mjpegFrameSource: frameSource?.enabled === true,
    typing: { typeDelay: delay, inputStrategy: options.inputStrategy ?? "legacy" },
  };
}

function checkPort(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(typeof value === "number" && Number.isInteger(value) && value > 0 && value < 65536)) {
    throw new SdkRangeError(
      `Cannot create MobileBDevice as '${name}' must be an integer port 1-65535: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}
