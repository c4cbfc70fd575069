/**
 * The options of `MobileCDevice` (spec 4.10) and their check: each wrong value is refused with a
 * message naming it, before anything runs; the rest get their defaults.
 *
 * @module
 */

import type { DeviceAction, InputStrategy } from "@sdk/core";
import {
  checkBooleanOptions,
  checkInputOptions,
  checkOneOfOption,
  checkTypeDelayOption,
  SdkRangeError,
  SdkTypeError,
} from "@sdk/core";
import { DEFAULT_TOOL_TIMEOUT_MS, type ToolOptions } from "./tool.ts";
import type { KeyboardDismissStrategy, TypingSettings } from "./typing.ts";

/** Options of `MobileCDevice` (device.ts; spec 4.10), after the device id. */
export interface MobileCDeviceOptions extends ToolOptions {
  /** Hide the on-screen keyboard after `Input` and `ClearInput`. Default `true`. */
  autoDismissKeyboard?: boolean;
  /**
   * Key that hides the keyboard: `'esc-first'` (default) sends Escape; `'back-first'` sends Back
   * (which navigates back when no keyboard is up).
   */
  keyboardDismissStrategy?: "esc-first" | "back-first";
  /**
   * Delay between typed code points, ms (finite, >= 0). A positive value makes `'legacy'` typing
   * send one code point per `uitest uiInput text` call.
   */
  keyboardTypeDelay?: number;
  /**
   * `'legacy'` (default): one `uitest uiInput text` call per text (per code point with a delay);
   * `'sequential'`: one call per code point; `'bulk'`: one call, needs the delay 0 or unset.
   */
  inputStrategy?: InputStrategy;
  /** Deprecated and removed: no effect. Use the agent's `screenshotShrinkFactor`. */
  screenshotResizeScale?: number;
  /**
   * `false` removes `RunToolShell` from the action space, so the model cannot run device shell
   * commands, and makes `MobileCDevice.runToolShell` (device.ts), the agent's `runToolShell` and
   * YAML `runToolShell` items throw `UnsupportedActionError`. Default `true` (spec 4.10): a model
   * that holds the device shell obeys what the screen shows it, prompt injections included
   * (docs/security.md).
   */
  exposeRunToolShellAction?: boolean;
  /** Extra actions after the built-in ones. */
  // deno-lint-ignore no-explicit-any
  customActions?: DeviceAction<any>[];
  /**
   * How long one hdc run may take, ms (finite, > 0); a run that takes longer is stopped and its
   * call fails naming the command. Default {@link DEFAULT_TOOL_TIMEOUT_MS} (60 s). Not in spec
   * 4.10: a hung device or hdc server should fail a step, not hold it forever.
   */
  toolTimeout?: number;
}

/** The device's options, checked, with their defaults. */
export interface MobileCSettings {
  readonly toolOptions: ToolOptions;
  readonly toolTimeout: number;
  readonly autoDismissKeyboard: boolean;
  readonly exposeRunToolShellAction: boolean;
  readonly keyboardDismissStrategy: KeyboardDismissStrategy;
  readonly typing: TypingSettings;
}

/**
 * Checks the device's options (not `customActions`) in the order of their errors, and settles
 * their defaults.
 *
 * @throws {SdkTypeError} for an empty `toolPath`, a non-boolean flag, or an unknown
 * `keyboardDismissStrategy`.
 * @throws {SdkRangeError} for a `toolTimeout` that is not a finite number > 0, a negative or
 * non-finite `keyboardTypeDelay`, an unknown `inputStrategy`, or `'bulk'` with a positive delay.
 */
export function readMobileCOptions(options: MobileCDeviceOptions): MobileCSettings {
  if (
    options.toolPath !== undefined &&
    (typeof options.toolPath !== "string" || options.toolPath.trim() === "")
  ) {
    throw new SdkTypeError(
      `Cannot create MobileCDevice as 'toolPath' must be a non-empty path to hdc: current ` +
        `value is ${JSON.stringify(options.toolPath)}`,
    );
  }
  const timeout = options.toolTimeout ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (!(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
    throw new SdkRangeError(
      `Cannot create MobileCDevice as 'toolTimeout' must be a finite number of ms > 0: ` +
        `current value is ${JSON.stringify(options.toolTimeout)}`,
    );
  }
  checkBooleanOptions("MobileCDevice", options, [
    "autoDismissKeyboard",
    "exposeRunToolShellAction",
  ]);
  const strategy = checkOneOfOption(
    "MobileCDevice",
    "keyboardDismissStrategy",
    // null counts as unset here (as it always has on MobileC).
    options.keyboardDismissStrategy ?? undefined,
    ["esc-first", "back-first"],
    "esc-first",
  );
  const delay = checkTypeDelayOption("MobileCDevice", options.keyboardTypeDelay);
  checkInputOptions(options);
  return {
    toolOptions: { toolPath: options.toolPath },
    toolTimeout: timeout,
    autoDismissKeyboard: options.autoDismissKeyboard ?? true,
    exposeRunToolShellAction: options.exposeRunToolShellAction ?? true,
    keyboardDismissStrategy: strategy,
    typing: { typeDelay: delay, inputStrategy: options.inputStrategy ?? "legacy" },
  };
}
