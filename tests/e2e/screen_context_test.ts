/**
 * The phones' screen context (what the guard between a plan's actions compares,
 * docs/model-protocol.md "Several actions per plan"): MobileA reads the focused window through
 * adb, MobileB the foreground app through WebDriverAgent, MobileC the mission in front through
 * `aa dump -l`; each changes when another app comes to the front, on the device simulator.
 *
 * @module
 */

import { before } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { MobileADevice } from "@sdk/mobilea";
import { MobileBDevice } from "@sdk/mobileb";
import { MobileCDevice } from "@sdk/mobilec";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { after, test } from "../helpers/test.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let adbFront: AdbFront;
let wdaFront: WdaFront;
let hdcFront: HdcFront;
let server: PrivateAdbServer;

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1080,
    height: 2400,
    density: 2.625,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" },
      [SETTINGS]: { url: `${apps.url}settings/index.html`, label: "Settings" },
    },
    startApp: NOTES,
  });
  adbFront = await startAdbFront(phone);
  wdaFront = await startWdaFront(phone, {});
  hdcFront = await startHdcFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(adbFront.serial);
});

after(async () => {
  await server?.close();
  await wdaFront?.close();
  await hdcFront?.close();
  await adbFront?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

test("MobileA's screenContext names the focused app and changes when another comes to the front", async () => {
  const device = new MobileADevice(adbFront.serial, { remoteBridgePort: server.port });
  try {
    await phone.launchApp(NOTES);
    const notes = await device.screenContext();
    assert.match(notes, /^window com\.example\.notes\//);
    assert.equal(await device.screenContext(), notes, "the same screen, the same context");
    await phone.launchApp(SETTINGS);
    assert.match(await device.screenContext(), /^window com\.example\.settings\//);
  } finally {
    await device.destroy();
  }
});

test("MobileB's screenContext names the foreground app and changes when another comes to the front", async () => {
  const device = new MobileBDevice({ driverPort: wdaFront.port });
  try {
    await phone.launchApp(NOTES);
    assert.equal(await device.screenContext(), `app ${NOTES}`);
    await phone.launchApp(SETTINGS);
    assert.equal(await device.screenContext(), `app ${SETTINGS}`);
  } finally {
    await device.destroy();
  }
});

test("MobileC's screenContext names the app and ability in front, home on the home screen, and changes when another app comes to the front", async () => {
  const device = new MobileCDevice(hdcFront.connectKey, { toolPath: hdcFront.toolPath });
  try {
    await phone.launchApp(NOTES);
    const notes = await device.screenContext();
    assert.match(notes, /^app com\.example\.notes\/\S+$/);
    assert.equal(await device.screenContext(), notes, "the same screen, the same context");
    await phone.launchApp(SETTINGS);
    assert.match(await device.screenContext(), /^app com\.example\.settings\/\S+$/);
    await device.home();
    assert.equal(await device.screenContext(), "app home");
  } finally {
    await device.destroy();
  }
});
