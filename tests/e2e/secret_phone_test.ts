/**
 * Secrets typed on the phones (docs/security.md, "Secrets typed on screen"): a password typed into
 * a password field of the virtual phone, through the Android simulator (adb; the window dump's
 * `password="true"`) and the iOS simulator (WebDriverAgent; `XCUIElementTypeSecureTextField`),
 * reaches the field as given and is `***` in the report and the run log; a plain field's value
 * stays.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { type Agent, runLog } from "@sdk/core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { MobileAAgent, MobileADevice } from "@sdk/mobilea";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { MobileBAgent, MobileBDevice } from "@sdk/mobileb";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { launchChromium } from "../helpers/browser.ts";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { locateBy } from "../helpers/phone.ts";

const runDir = await Deno.makeTempDir({ prefix: "sdk_secret_phone_" });
Deno.env.set("SDK_RUN_DIR", runDir);

const LOGIN = "com.example.login";
const DENSITY = 3;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let adbFront: AdbFront;
let adb: PrivateAdbServer;
let wda: WdaFront;
const models: TestModel[] = [];

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1170,
    height: 2532,
    density: DENSITY,
    apps: { [LOGIN]: { url: `${apps.url}login/index.html`, label: "Sign in" } },
    startApp: LOGIN,
  });
  adbFront = await startAdbFront(phone);
  adb = await startPrivateAdbServer();
  await adb.connect(adbFront.serial);
  wda = await startWdaFront(phone, {});
});

after(async () => {
  await Promise.allSettled(models.map((m) => m.close()));
  await wda?.close();
  await adb?.close();
  await adbFront?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

async function model() {
  const m = await startTestModel({
    script: {
      locate: locateBy(phone, { "the password field": "#password", "the user field": "#username" }),
    },
    imagePixelsPerCssPixel: DENSITY,
  });
  models.push(m);
  return m;
}

const field = (selector: string) => phone.foregroundPage().inputValue(selector);

async function typeAndCheck(agent: Agent, password: string): Promise<void> {
  await agent.aiInput("the password field", { value: password });
  assert.equal(await field("#password"), password, "typed as given");
  await agent.aiInput("the user field", { value: "alice-plain" });
  assert.equal(await field("#username"), "alice-plain");
  const values = agent._unstableLogContent().executions.map((e) =>
    (e.steps.find((s) => s.kind === "Action")?.param as { value?: string } | undefined)?.value
  );
  assert.deepEqual(values, ["***", "alice-plain"]);
  await agent.destroy();
  await runLog().ready;
  runLog().flush();
  const report = await readFile(agent.reportFile!, "utf8");
  const log = await readFile(runLog().file!, "utf8");
  assert.ok(!report.includes(password), "the password is in the report");
  assert.ok(!log.includes(password), "the password is in the run log");
  assert.ok(report.includes("alice-plain"));
}

test("Android (adb): a password typed into a password field is *** in the report and the log", {
  timeout: 120_000,
}, async () => {
  const m = await model();
  const device = new MobileADevice(adbFront.serial, { remoteBridgePort: adb.port });
  const agent = new MobileAAgent(device, {
    modelConfig: m.modelConfig(),
    waitAfterAction: 50,
    autoPrintReportMsg: false,
  });
  await typeAndCheck(agent, "android-Hunter2-pw");
});

test(
  "iOS (WebDriverAgent): a password typed into a secure text field is *** in the report and the log",
  {
    timeout: 120_000,
  },
  async () => {
    const m = await model();
    const device = new MobileBDevice({
      driverHost: "127.0.0.1",
      driverPort: wda.port,
      driverMjpegPort: wda.mjpegPort,
    });
    const agent = new MobileBAgent(device, {
      modelConfig: m.modelConfig(),
      waitAfterAction: 50,
      autoPrintReportMsg: false,
    });
    await typeAndCheck(agent, "ios-Hunter2-pw");
  },
);
