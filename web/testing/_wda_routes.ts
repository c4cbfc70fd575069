/**
 * The routes of the WDA front (private to `@sdk/web/testing`), as WebDriverAgent registers them
 * (FBSessionCommands, FBCustomCommands, FBElementCommands, FBScreenshotCommands,
 * FBDebugCommands, FBOrientationCommands, FBFindElementCommands, FBActionsCommands): a route under `/session/:id` needs
 * the active session, a route without one does not, some exist both ways. Coordinates are in
 * points; the phone takes physical pixels (points times the scale).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { KEYCODE, type VirtualPhone } from "./virtual_phone.ts";
import { WdaError } from "./_wda_protocol.ts";
import {
  compileW3cActions,
  dragPlan,
  type GesturePlan,
  holdPlan,
  playGesture,
} from "./_wda_actions.ts";
import { typeKeys } from "./_wda_keys.ts";
import { pageSource, sourceJson, sourceXml } from "./_wda_source.ts";
import type { MjpegSettings } from "./_wda_mjpeg.ts";
import {
  activeBundleId,
  appState,
  installedBundleIds,
  packageOf,
  pidOf,
  requireInstalled,
  SPRINGBOARD,
} from "./_wda_apps.ts";

/** The active session. */
export interface WdaSession {
  id: string;
  /** The app the session launched (capability `bundleId`), if any. */
  bundleId?: string;
  /** Whether deleting the session terminates its app (capability `shouldTerminateApp`). */
  shouldTerminateApp: boolean;
}

/** What a route's handler works on. */
export interface WdaState {
  phone: VirtualPhone;
  /** Physical pixels per point. */
  scale: number;
  /** iOS version reported. */
  osVersion: string;
  /** URL scheme (without `:`) -> bundle id of the app that opens it. */
  urlSchemes: Record<string, string>;
  mjpeg: MjpegSettings;
  session?: WdaSession;
  /** Launch arguments and environment per bundle id, for activeAppInfo. */
  processArguments: Map<string, { args: string[]; env: Record<string, string> }>;
  /** When the front started, for `/status`'s build time. */
  started: string;
  /** Element references handed out by `/element/active`: id -> the page it was focused in. */
  elements: Map<string, Page>;
}

/** The W3C key of an element reference. */
const ELEMENT_KEY = "element-6066-11e4-a23f-4fbf4cda1c3a";

/** One request as a handler sees it. */
export interface WdaRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  state: WdaState;
}

type Handler = (request: WdaRequest) => Promise<unknown> | unknown;

/** `session`: only under `/session/:id`; `bare`: only without; `both`: both ways. */
export interface WdaRoute {
  method: "GET" | "POST" | "DELETE";
  path: string;
  where: "session" | "bare" | "both";
  handler: Handler;
}

const number = (body: Record<string, unknown>, key: string, unit = "points"): number => {
  const value = body[key];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new WdaError(
      "invalid argument",
      `'${key}' must be a number of ${unit}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
};

const seconds = (body: Record<string, unknown>): number => {
  const value = body.duration ?? 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new WdaError(
      "invalid argument",
      `'duration' must be a non-negative number of seconds, got ${JSON.stringify(value)}`,
    );
  }
  return value;
};

const play = (state: WdaState, plan: GesturePlan) => playGesture(state.phone, state.scale, plan);

/** Screen size in points. */
function screenPoints(state: WdaState): { width: number; height: number } {
  return { width: state.phone.width / state.scale, height: state.phone.height / state.scale };
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

async function screenshot({ state }: WdaRequest): Promise<string> {
  return Buffer.from(await state.phone.screenshot()).toString("base64");
}

function screen({ state }: WdaRequest): unknown {
  // The simulator draws no status bar, so its size is zero, as WDA reports a missing one.
  return {
    screenSize: screenPoints(state),
    statusBarSize: { width: 0, height: 0 },
    scale: state.scale,
  };
}

function activeAppInfo({ state }: WdaRequest): unknown {
  const bundleId = activeBundleId(state.phone);
  return {
    pid: pidOf(bundleId),
    bundleId,
    name: "",
    processArguments: state.processArguments.get(bundleId) ?? { args: [], env: {} },
  };
}

async function source({ state, query }: WdaRequest): Promise<unknown> {
  const format = (query.get("format") ?? "xml").toLowerCase();
  if (format !== "xml" && format !== "json") {
    throw new WdaError(
      "unsupported operation",
      `Unknown source format '${format}'. The simulator gives the xml and json formats`,
    );
  }
  const page = state.phone.foregroundPage();
  const tree = await pageSource(page, await page.title(), state.phone.density / state.scale);
  return format === "xml" ? sourceXml(tree) : sourceJson(tree);
}

function settings({ state }: WdaRequest): unknown {
  return { ...state.mjpeg };
}

function updateSettings(request: WdaRequest): unknown {
  const changes = request.body.settings;
  if (typeof changes !== "object" || changes === null) {
    throw new WdaError("invalid argument", `'settings' must be an object of setting -> value`);
  }
  const limits: Record<keyof MjpegSettings, [number, number]> = {
    mjpegServerFramerate: [1, 60],
    mjpegServerScreenshotQuality: [1, 100],
    mjpegScalingFactor: [1, 100],
  };
  for (const [key, [min, max]] of Object.entries(limits) as [keyof MjpegSettings, number[]][]) {
    const value = (changes as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value >= min && value <= max)) {
      throw new WdaError("invalid argument", `'${key}' must be a number from ${min} to ${max}`);
    }
    request.state.mjpeg[key] = value;
  }
  return settings(request);
}

async function openUrl({ state, body }: WdaRequest): Promise<null> {
  const url = body.url;
  if (typeof url !== "string" || !url) throw new WdaError("invalid argument", "URL is required");
  const scheme = url.split(":", 1)[0].toLowerCase();
  if (scheme === "http" || scheme === "https") {
    await state.phone.openUrl(url);
    return null;
  }
  const bundleId = state.urlSchemes[scheme];
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
  const keys: Record<string, number> = {
    home: KEYCODE.HOME,
    volumeup: KEYCODE.VOLUME_UP,
    volumedown: KEYCODE.VOLUME_DOWN,
  };
  const name = String(body.name);
  const key = keys[name.toLowerCase()];
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

async function dismissKeyboard({ state }: WdaRequest): Promise<null> {
  // Back hides the keyboard and nothing else while it is up; without a keyboard there is
  // nothing to do, as in WDA.
  if (await state.phone.keyboardShown()) await state.phone.keyEvent(KEYCODE.BACK);
  return null;
}

async function keys({ state, body }: WdaRequest): Promise<null> {
  const value = body.value;
  if (!Array.isArray(value) && typeof value !== "string") {
    throw new WdaError(
      "invalid argument",
      `'value' must be an array of strings to type, got ${JSON.stringify(value)}`,
    );
  }
  await typeKeys(state.phone, Array.isArray(value) ? value.join("") : value);
  return null;
}

async function activeElement({ state }: WdaRequest): Promise<unknown> {
  const page = state.phone.foregroundPage();
  if (!(await state.phone.keyboardShown())) {
    throw new WdaError("no such element", "No element is currently focused for text input");
  }
  const id = randomUUID().toUpperCase();
  state.elements.set(id, page);
  return { ELEMENT: id, [ELEMENT_KEY]: id };
}

async function clearElement({ state, params }: WdaRequest): Promise<null> {
  // Only the focused text field is known to the simulator: clearing works while it is still
  // the one in front with the keyboard up.
  const page = state.elements.get(params.uuid);
  if (!page || page !== state.phone.foregroundPage() || !(await state.phone.keyboardShown())) {
    throw new WdaError(
      "stale element reference",
      `The element '${params.uuid}' is no longer focused on screen; get it again with ` +
        `GET /session/:id/element/active`,
    );
  }
  await state.phone.clearText();
  return null;
}

async function tap({ state, body }: WdaRequest): Promise<null> {
  const [x, y] = [number(body, "x"), number(body, "y")];
  await state.phone.tap(x * state.scale, y * state.scale);
  return null;
}

async function doubleTap({ state, body }: WdaRequest): Promise<null> {
  const [x, y] = [number(body, "x"), number(body, "y")];
  await state.phone.tap(x * state.scale, y * state.scale);
  await state.phone.tap(x * state.scale, y * state.scale);
  return null;
}

async function appsLaunch({ state, body }: WdaRequest): Promise<null> {
  const bundleId = requireInstalled(state.phone, body.bundleId);
  await launchOrActivate(state, bundleId, body.arguments, body.environment);
  return null;
}

/** WDA's session information: the session id and its capabilities. */
export function sessionInformation(state: WdaState): unknown {
  const bundleId = state.session?.bundleId;
  return {
    sessionId: state.session?.id ?? null,
    capabilities: {
      device: "iPhone",
      sdkVersion: state.osVersion,
      browserName: bundleId ?? null,
      CFBundleIdentifier: bundleId ?? null,
    },
  };
}

/** Creates the session (the previous one is deleted first, as WDA keeps one). */
export type CreateSession = (request: WdaRequest) => Promise<unknown>;
/** Deletes the active session. */
export type DeleteSession = (state: WdaState) => Promise<void>;

/** Every route, in WDA's paths (without the `/session/:sessionID` prefix). */
export function wdaRoutes(create: CreateSession, remove: DeleteSession): WdaRoute[] {
  return [
    {
      method: "GET",
      path: "/status",
      where: "bare",
      handler: ({ state }) => ({
        ready: true,
        message: "WebDriverAgent is ready to accept commands",
        state: "success",
        os: {
          name: "iOS",
          version: state.osVersion,
          sdkVersion: state.osVersion,
          testmanagerdVersion: 28,
        },
        ios: { ip: "127.0.0.1" },
        build: {
          time: state.started,
          productBundleIdentifier: "com.facebook.WebDriverAgentRunner",
        },
        device: "iPhone",
      }),
    },
    { method: "POST", path: "/session", where: "bare", handler: create },
    {
      method: "GET",
      path: "",
      where: "session",
      handler: ({ state }) => sessionInformation(state),
    },
    {
      method: "DELETE",
      path: "",
      where: "session",
      handler: async ({ state }) => {
        await remove(state);
        return null;
      },
    },
    { method: "GET", path: "/screenshot", where: "both", handler: screenshot },
    {
      method: "GET",
      path: "/window/size",
      where: "session",
      handler: ({ state }) => screenPoints(state),
    },
    { method: "GET", path: "/wda/screen", where: "both", handler: screen },
    { method: "GET", path: "/orientation", where: "both", handler: () => "PORTRAIT" },
    { method: "GET", path: "/wda/locked", where: "both", handler: () => false },
    { method: "POST", path: "/wda/tap", where: "session", handler: tap },
    { method: "POST", path: "/wda/tap/:uuid", where: "session", handler: tap },
    { method: "POST", path: "/wda/doubleTap", where: "session", handler: doubleTap },
    {
      method: "POST",
      path: "/wda/touchAndHold",
      where: "session",
      handler: async ({ state, body }) => {
        const at = { x: number(body, "x"), y: number(body, "y") };
        await play(state, holdPlan(at, seconds(body)));
        return null;
      },
    },
    {
      method: "POST",
      path: "/wda/dragfromtoforduration",
      where: "session",
      handler: async ({ state, body }) => {
        const from = { x: number(body, "fromX"), y: number(body, "fromY") };
        const to = { x: number(body, "toX"), y: number(body, "toY") };
        await play(state, dragPlan(from, to, seconds(body)));
        return null;
      },
    },
    {
      method: "POST",
      path: "/actions",
      where: "session",
      handler: async ({ state, body }) => {
        await play(state, compileW3cActions(body.actions));
        return null;
      },
    },
    {
      method: "DELETE",
      path: "/actions",
      where: "session",
      handler: async ({ state }) => {
        await state.phone.multiTouch([]);
        return null;
      },
    },
    { method: "POST", path: "/wda/keys", where: "session", handler: keys },
    { method: "POST", path: "/wda/keyboard/dismiss", where: "session", handler: dismissKeyboard },
    { method: "GET", path: "/element/active", where: "session", handler: activeElement },
    { method: "POST", path: "/element/:uuid/clear", where: "session", handler: clearElement },
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
          .filter((bundleId) => appState(state.phone, bundleId) >= 3)
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
    { method: "GET", path: "/source", where: "both", handler: source },
    { method: "GET", path: "/appium/settings", where: "session", handler: settings },
    { method: "POST", path: "/appium/settings", where: "session", handler: updateSettings },
    { method: "POST", path: "/timeouts", where: "session", handler: () => null },
  ];
}
