/**
 * The Android device state of the adb front's shell (private to `@sdk/mobilea/testing`), beside
 * the phone shell's files and command table, and what the Android command families share.
 *
 * @module
 */

import type { ShellCommand, ShellDevice } from "@sdk/web/testing";
import type { LocalSocketListener } from "./_scrcpy_server.ts";

/** An Android device behind the adb front: properties, settings and simulated processes' state. */
export interface AndroidDevice extends ShellDevice {
  /** System properties (`getprop`). */
  properties: Map<string, string>;
  /** `settings` values, by `namespace/key`. */
  settings: Map<string, string>;
  /** `localabstract:` sockets that processes listen on (the scrcpy server's), by name. */
  localSockets?: Map<string, LocalSocketListener>;
  /** In-band video resets of the running scrcpy servers. */
  videoResets?: Set<() => void>;
}

/** A command of the Android shell. */
export type AndroidCommand = ShellCommand<AndroidDevice>;

/** The input method the device has (and `ime` selects). */
export const LATIN_IME = "com.android.inputmethod.latin/.LatinIME";

/** The first `count` arguments as finite numbers; undefined when missing or not numbers. */
export function numbers(args: string[], count: number): number[] | undefined {
  if (args.length < count) return undefined;
  const values = args.slice(0, count).map(Number);
  return values.every(Number.isFinite) ? values : undefined;
}

/** `package/.Activity` when the activity is inside the package, else `package/full.Name`. */
export function shortComponent(packageName: string, activity: string): string {
  return activity.startsWith(`${packageName}.`)
    ? `${packageName}/${activity.slice(packageName.length)}`
    : `${packageName}/${activity}`;
}
