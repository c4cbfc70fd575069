/**
 * The device routes of the WDA front (private to `@sdk/mobileb/testing`), as WDA's
 * FBCustomCommands and FBSessionCommands register them: `/wda/device/info` (with or without a
 * session), `/wda/batteryInfo` (under a session) and `/wda/healthcheck` (without one).
 *
 * @module
 */

import { KEYCODE } from "@sdk/web/testing";
import { WdaError } from "./_wda_protocol.ts";
import { pageSource } from "./_wda_source.ts";
import { activeAppName } from "./_wda_apps.ts";
import type { WdaRequest, WdaRoute } from "./_wda_state.ts";

/** UIDeviceBatteryState.full: the simulated phone is plugged in and charged. */
const BATTERY_FULL = 3;

/** The host's locale as NSLocale writes it (`en_US`); `en_US` when the host has none. */
function currentLocale(): string {
  const locale = new Intl.Locale(Intl.DateTimeFormat().resolvedOptions().locale || "en-US");
  return locale.region ? `${locale.language}_${locale.region}` : `${locale.language}_US`;
}

function deviceInfo({ state }: WdaRequest): unknown {
  return {
    currentLocale: currentLocale(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    name: state.phone.model,
    model: "iPhone",
    uuid: state.deviceUuid,
    userInterfaceIdiom: 0, // UIUserInterfaceIdiomPhone
    userInterfaceStyle: "light",
    isSimulator: false,
    thermalState: 0, // NSProcessInfoThermalStateNominal
  };
}

/**
 * WDA's health check: the app in front has an element tree, then the home button is pressed.
 *
 * @throws {WdaError} `unknown error` (`Health check failed`) when the page on screen has no tree.
 */
async function healthcheck({ state }: WdaRequest): Promise<null> {
  const page = state.phone.foregroundPage();
  const tree = await pageSource(page, activeAppName(state.phone), state.phone.density / state.scale)
    .catch(() => undefined);
  if (!tree) throw new WdaError("unknown error", "Health check failed");
  await state.phone.keyEvent(KEYCODE.HOME);
  return null;
}

/** The device routes. */
export function deviceRoutes(): WdaRoute[] {
  return [
    { method: "GET", path: "/wda/device/info", where: "both", handler: deviceInfo },
    {
      method: "GET",
      path: "/wda/batteryInfo",
      where: "session",
      handler: () => ({ level: 1, state: BATTERY_FULL }),
    },
    { method: "GET", path: "/wda/healthcheck", where: "bare", handler: healthcheck },
  ];
}
