/**
 * Apps in the WDA front (private to `@sdk/mobileb/testing`), and their routes as WDA's
 * FBSessionCommands and FBCustomCommands register them: the phone's packages are bundle ids,
 * except the simulator's launcher, which is iOS's SpringBoard, and its browser, which is Safari.
 * App states are XCUIApplicationState's numbers.
 *
 * @module
 */

import { BROWSER_PACKAGE, KEYCODE, LAUNCHER_PACKAGE, type VirtualPhone } from "@sdk/web/testing";
import { WdaError } from "./_wda_protocol.ts";
import type { WdaRequest, WdaRoute, WdaState } from "./_wda_state.ts";

/** SpringBoard: the home screen and app switcher, as WDA reports it. */
export const SPRINGBOARD = "com.apple.springboard";
/** Safari: where web URLs open. */
const SAFARI = "com.apple.mobilesafari";

/**
 * The name of the app in front, as WDA's `activeAppInfo` and the source's Application element give
 * it: the app's label (`SimulatedApp.label`), `Safari` for the browser, `SpringBoard` for the home
 * screen and the app switcher.
 */
export function activeAppName(phone: VirtualPhone): string {
  const packageName = phone.foregroundApp().packageName;
  if (packageName === LAUNCHER_PACKAGE) return "SpringBoard";
  if (packageName === BROWSER_PACKAGE) return "Safari";
  return phone.labelOf(packageName) ?? packageName;
}

/** XCUIApplicationState: unknown (not installed), not running, background, foreground. */
const APP_STATE = { unknown: 0, notRunning: 1, background: 3, foreground: 4 } as const;

/** The phone's package for a bundle id. */
function packageOf(bundleId: string): string {
  if (bundleId === SPRINGBOARD) return LAUNCHER_PACKAGE;
  if (bundleId === SAFARI) return BROWSER_PACKAGE;
  return bundleId;
}

/** The bundle id for a phone's package. */
function bundleIdOf(packageName: string): string {
  if (packageName === LAUNCHER_PACKAGE) return SPRINGBOARD;
  if (packageName === BROWSER_PACKAGE) return SAFARI;
  return packageName;
}

/** Installed bundle ids, SpringBoard and Safari included. */
function installedBundleIds(phone: VirtualPhone): string[] {
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
function activeBundleId(phone: VirtualPhone): string {
  return bundleIdOf(phone.foregroundApp().packageName);
}

/** The XCUIApplicationState of an app. */
function appState(phone: VirtualPhone, bundleId: string): number {
  if (!installedBundleIds(phone).includes(bundleId)) return APP_STATE.unknown;
  if (activeBundleId(phone) === bundleId) return APP_STATE.foreground;
  if (bundleId === SPRINGBOARD) return APP_STATE.background;
  return phone.runningApps().includes(packageOf(bundleId))
    ? APP_STATE.background
    : APP_STATE.notRunning;
}

/** A process id for an app that stays the same while the front runs (not a real process). */
function pidOf(bundleId: string): number {
  let hash = 0;
  for (const char of bundleId) hash = (hash * 31 + char.codePointAt(0)!) % 60000;
  return 1000 + hash;
}

/** Launches an app when it is not running, otherwise brings it to the front (FBSession). */
export async function launchOrActivate(
  state: WdaState,
  bundleId: string,
  args: unknown = [],
  env: unknown = {},
): Promise<void> {
  const { phone } = state;
  if (bundleId === SPRINGBOARD) return await phone.keyEvent(KEYCODE.HOME);
  if (!phone.runningApps().includes(packageOf(bundleId))) {
    state.processArguments.set(bundleId, {
      args: Array.isArray(args) ? args.map(String) : [],
      env: typeof env === "object" && env !== null ? env as Record<string, string> : {},
    });
  }
  await phone.launchApp(packageOf(bundleId));
}

/** Terminates an app; true when it was running. SpringBoard cannot be terminated. */
export async function terminate(state: WdaState, bundleId: string): Promise<boolean> {
  const { phone } = state;
  if (bundleId === SPRINGBOARD || !phone.runningApps().includes(packageOf(bundleId))) {
    return false;
  }
  await phone.stopApp(packageOf(bundleId));
  state.processArguments.delete(bundleId);
  return true;
}

async function appsLaunch({ state, body }: WdaRequest): Promise<null> {
  const bundleId = requireInstalled(state.phone, body.bundleId);
  await launchOrActivate(state, bundleId, body.arguments, body.environment);
  return null;
}

function activeAppInfo({ state }: WdaRequest): unknown {
  const bundleId = activeBundleId(state.phone);
  return {
    pid: pidOf(bundleId),
    bundleId,
    name: activeAppName(state.phone),
    processArguments: state.processArguments.get(bundleId) ?? { args: [], env: {} },
  };
}

async function openUrl({ state, body }: WdaRequest): Promise<null> {
  const url = body.url;
  if (typeof url !== "string" || !url) throw new WdaError("invalid argument", "URL is required");
  const scheme = url.split(":", 1)[0].toLowerCase();
  if (scheme === "http" || scheme === "https") {
    await state.phone.openUrl(url);
    return null;
  }
  const bundleId = Object.hasOwn(state.urlSchemes, scheme) ? state.urlSchemes[scheme] : undefined;
  if (!bundleId) {
    throw new WdaError(
      "unknown error",
      `The URL '${url}' cannot be opened: no app on the simulator handles '${scheme}:' URLs ` +
        `(map schemes to bundle ids with startWdaFront's urlSchemes option)`,
    );
  }
  await launchOrActivate(state, requireInstalled(state.phone, bundleId));
  return null;
}

async function pressButton({ state, body }: WdaRequest): Promise<null> {
  const keys = new Map([
    ["home", KEYCODE.HOME],
    ["volumeup", KEYCODE.VOLUME_UP],
    ["volumedown", KEYCODE.VOLUME_DOWN],
  ]);
  const name = String(body.name);
  const key = keys.get(name.toLowerCase());
  if (key === undefined) {
    throw new WdaError(
      "unknown error",
      `The button '${name}' is unknown. Only the following button names are supported: ` +
        `home, volumeUp, volumeDown`,
    );
  }
  await state.phone.keyEvent(key);
  return null;
}

/** The app routes. */
export function appRoutes(): WdaRoute[] {
  return [
    { method: "POST", path: "/wda/apps/launch", where: "session", handler: appsLaunch },
    {
      method: "POST",
      path: "/wda/apps/activate",
      where: "session",
      handler: async ({ state, body }) => {
        await launchOrActivate(state, requireInstalled(state.phone, body.bundleId));
        return null;
      },
    },
    {
      method: "POST",
      path: "/wda/apps/terminate",
      where: "session",
      handler: ({ state, body }) => terminate(state, requireInstalled(state.phone, body.bundleId)),
    },
    {
      method: "POST",
      path: "/wda/apps/state",
      where: "session",
      handler: ({ state, body }) => {
        if (typeof body.bundleId !== "string") {
          throw new WdaError("invalid argument", `'bundleId' must be a non-empty string`);
        }
        return appState(state.phone, body.bundleId);
      },
    },
    {
      method: "GET",
      path: "/wda/apps/list",
      where: "session",
      handler: ({ state }) =>
        installedBundleIds(state.phone)
          .filter((bundleId) => appState(state.phone, bundleId) >= APP_STATE.background)
          .map((bundleId) => ({ pid: pidOf(bundleId), bundleId })),
    },
    {
      method: "POST",
      path: "/wda/homescreen",
      where: "bare",
      handler: async ({ state }) => {
        await state.phone.keyEvent(KEYCODE.HOME);
        return null;
      },
    },
    { method: "POST", path: "/wda/pressButton", where: "session", handler: pressButton },
    { method: "GET", path: "/wda/activeAppInfo", where: "both", handler: activeAppInfo },
    { method: "POST", path: "/url", where: "session", handler: openUrl },
  ];
}
