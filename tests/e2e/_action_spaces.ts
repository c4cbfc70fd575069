/**
 * The real action spaces of every platform, built without a device: the phone devices connect
 * lazily (nothing runs in their constructors, and `actionSpace()` needs no connection), and the
 * web page's comes from a page agent over headless Chromium (the fixture app's blank page).
 *
 * @module
 */

import { MobileADevice } from "@sdk/mobilea";
import { MobileBDevice } from "@sdk/mobileb";
import { MobileCDevice } from "@sdk/mobilec";
import type { DeviceAction } from "@sdk/core";
import type { E2eEnv } from "./_setup.ts";

/** One platform's action space, as its device gives it. */
export interface PlatformSpace {
  /** A label for assertion messages. */
  label: string;
  /** The device's `interfaceType` (what errors name). */
  platform: string;
  /** Its actions. */
  actions: DeviceAction[];
}

/** The phones' action spaces, from devices that never connect. */
export async function phoneSpaces(): Promise<PlatformSpace[]> {
  const a = new MobileADevice("emulator-5554");
  const b = new MobileBDevice({ driverPort: 1 });
  const c = new MobileCDevice("127.0.0.1:1");
  try {
    return [
      { label: "MobileA", platform: a.interfaceType, actions: a.actionSpace() },
      { label: "MobileB", platform: b.interfaceType, actions: b.actionSpace() },
      { label: "MobileC", platform: c.interfaceType, actions: c.actionSpace() },
    ];
  } finally {
    await Promise.allSettled([a.destroy(), b.destroy(), c.destroy()]);
  }
}

/** The web page's action spaces, without and with touch events. */
export async function webSpaces(env: E2eEnv): Promise<PlatformSpace[]> {
  const page = await env.open("actions.html");
  const spaces: PlatformSpace[] = [];
  for (const touch of [false, true]) {
    const { agent } = await env.agent(page, {}, {
      enableTouchEventsInActionSpace: touch,
      generateReport: false,
    });
    spaces.push({
      label: touch ? "web (touch)" : "web",
      platform: agent.interface.interfaceType,
      actions: agent.interface.actionSpace(),
    });
  }
  return spaces;
}
