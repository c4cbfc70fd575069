/**
 * The screen routes of the WDA front (private to `@sdk/mobileb/testing`), as WDA's
 * FBScreenshotCommands, FBElementCommands, FBCustomCommands, FBDebugCommands,
 * FBOrientationCommands and FBSessionCommands register them: screenshots in physical pixels,
 * sizes in points, the page source, orientation, and the MJPEG settings.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { WdaError } from "./_wda_protocol.ts";
import { pageSource, sourceJson, sourceXml } from "./_wda_source.ts";
import { activeAppName } from "./_wda_apps.ts";
import { MJPEG_SETTING_LIMITS, type MjpegSettings } from "./_wda_mjpeg.ts";
import { screenPoints, type WdaRequest, type WdaRoute } from "./_wda_state.ts";

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

async function source({ state, query }: WdaRequest): Promise<unknown> {
  const format = (query.get("format") ?? "xml").toLowerCase();
  if (format !== "xml" && format !== "json") {
    throw new WdaError(
      "unsupported operation",
      `Unknown source format '${format}'. The simulator gives the xml and json formats`,
    );
  }
  const page = state.phone.foregroundPage();
  const tree = await pageSource(
    page,
    activeAppName(state.phone),
    state.phone.density / state.scale,
  );
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
  for (
    const [key, [min, max]] of Object.entries(MJPEG_SETTING_LIMITS) as [
      keyof MjpegSettings,
      readonly [number, number],
    ][]
  ) {
    const value = (changes as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value >= min && value <= max)) {
      throw new WdaError("invalid argument", `'${key}' must be a number from ${min} to ${max}`);
    }
    request.state.mjpeg[key] = value;
  }
  return settings(request);
}

/** The screen routes. */
export function screenRoutes(): WdaRoute[] {
  return [
    { method: "GET", path: "/screenshot", where: "both", handler: screenshot },
    // FBElementCommands: the size under a session and without one, the rect under a session.
    {
      method: "GET",
      path: "/window/size",
      where: "both",
      handler: ({ state }) => screenPoints(state),
    },
    {
      method: "GET",
      path: "/window/rect",
      where: "session",
      handler: ({ state }) => ({ x: 0, y: 0, ...screenPoints(state) }),
    },
    { method: "GET", path: "/wda/screen", where: "both", handler: screen },
    { method: "GET", path: "/orientation", where: "both", handler: () => "PORTRAIT" },
    { method: "GET", path: "/wda/locked", where: "both", handler: () => false },
    { method: "GET", path: "/source", where: "both", handler: source },
    { method: "GET", path: "/appium/settings", where: "session", handler: settings },
    { method: "POST", path: "/appium/settings", where: "session", handler: updateSettings },
  ];
}
