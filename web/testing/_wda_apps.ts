/**
 * Apps as the WDA front reports them (private to `@sdk/web/testing`): the phone's packages are
 * bundle ids, except the simulator's launcher, which is iOS's SpringBoard, and its browser, which
 * is Safari. App states are XCUIApplicationState's numbers.
 *
 * @module
 */

import { BROWSER_PACKAGE, LAUNCHER_PACKAGE, type VirtualPhone } from "./virtual_phone.ts";
import { WdaError } from "./_wda_protocol.ts";

/** SpringBoard: the home screen and app switcher, as WDA reports it. */
export const SPRINGBOARD = "com.apple.springboard";
/** Safari: where web URLs open. */
export const SAFARI = "com.apple.mobilesafari";

/** XCUIApplicationState: unknown (not installed), not running, background, foreground. */
export const APP_STATE = { unknown: 0, notRunning: 1, background: 3, foreground: 4 } as const;

/** The phone's package for a bundle id. */
export function packageOf(bundleId: string): string {
  if (bundleId === SPRINGBOARD) return LAUNCHER_PACKAGE;
  if (bundleId === SAFARI) return BROWSER_PACKAGE;
  return bundleId;
}

/** The bundle id for a phone's package. */
export function bundleIdOf(packageName: string): string {
  if (packageName === LAUNCHER_PACKAGE) return SPRINGBOARD;
  if (packageName === BROWSER_PACKAGE) return SAFARI;
  return packageName;
}

/** Installed bundle ids, SpringBoard and Safari included. */
export function installedBundleIds(phone: VirtualPhone): string[] {
  return phone.packages().map(bundleIdOf);
}

/**
 * Checks that an app is installed.
 *
 * @throws {WdaError} `invalid argument` when `bundleId` is not a string, `unknown error` naming
 * the installed apps when it is not installed.
 */
export function requireInstalled(phone: VirtualPhone, bundleId: unknown): string {
  if (typeof bundleId !== "string" || !bundleId) {
    throw new WdaError("invalid argument", `'bundleId' must be a non-empty string`);
  }
  const installed = installedBundleIds(phone);
  if (!installed.includes(bundleId)) {
    throw new WdaError(
      "unknown error",
      `The application '${bundleId}' is not installed on the simulator. Installed: ` +
        `${installed.join(", ")} (install apps with startVirtualPhone's apps option)`,
    );
  }
  return bundleId;
}

/** The app in front, as a bundle id (SpringBoard for the home screen and app switcher). */
export function activeBundleId(phone: VirtualPhone): string {
  return bundleIdOf(phone.foregroundApp().packageName);
}

/** The XCUIApplicationState of an app. */
export function appState(phone: VirtualPhone, bundleId: string): number {
  if (!installedBundleIds(phone).includes(bundleId)) return APP_STATE.unknown;
  if (activeBundleId(phone) === bundleId) return APP_STATE.foreground;
  if (bundleId === SPRINGBOARD) return APP_STATE.background;
  return phone.runningApps().includes(packageOf(bundleId))
    ? APP_STATE.background
    : APP_STATE.notRunning;
}

/** A process id for an app that stays the same while the front runs (not a real process). */
export function pidOf(bundleId: string): number {
  let hash = 0;
  for (const char of bundleId) hash = (hash * 31 + char.codePointAt(0)!) % 60000;
  return 1000 + hash;
}
