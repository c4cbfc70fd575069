/**
 * Target checks on the three phones (docs/model-protocol.md, "Target checks"), each through its
 * simulator front: MobileA through a private real adb server and the adb front (`uiautomator
 * dump`), MobileB through the WDA front (`GET /source`), MobileC through the hdc front (`uitest
 * dumpLayout`), all on the inbox fixture app, where Refresh puts a new message on top of the list
 * and every row below moves down one row.
 *
 * For each phone: `targetsAt` names a row's subject and the Archive button in it (their row
 * telling them from the other rows'), and after Refresh the same points name another row; and a
 * plan of two actions, [tap Refresh, open the second message], acts only on what was planned: the
 * second tap is dropped (its point now holds the message above it), the model is asked again and
 * opens the right message from the new screen, and the history of that call names the dropped
 * action and why. Each phone's time per `targetsAt` is printed (docs/mobilea.md, ...).
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import {
  type AbstractInterface,
  type Agent,
  type Point,
  targetDifference,
  type TargetIdentity,
} from "@sdk/core";
import { startTestModel } from "@sdk/core/testing";
import type { PlanCall, PlanReply, TestModel } from "@sdk/core/testing";
import { MobileAAgent, MobileADevice } from "@sdk/mobilea";
import { MobileBAgent, MobileBDevice } from "@sdk/mobileb";
import { MobileCAgent, MobileCDevice } from "@sdk/mobilec";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { startAdbFront } from "@sdk/mobilea/testing";
import { startWdaFront } from "@sdk/mobileb/testing";
import { startHdcFront } from "@sdk/mobilec/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { PHONE_AGENT_OPTIONS, phoneBox } from "../helpers/phone.ts";

const INBOX = "com.example.inbox";

/** One phone platform on its simulator: its device, agents, and the kinds its tree names. */
interface Rig {
  name: string;
  phone: VirtualPhone;
  device: AbstractInterface & {
    targetsAt(points: readonly Point[]): Promise<(TargetIdentity | undefined)[]>;
  };
  /** An agent of this platform over a new device, talking to `model`. */
  agent(model: TestModel): Agent;
  /** The kind of a text element (a row's subject) and of a button. */
  kinds: { text: string; button: string };
  /** Closes the front (and the adb server). */
  close(): Promise<void>;
}

let browser: Browser;
let apps: StaticServer;
let adbServer: PrivateAdbServer;
const rigs: Rig[] = [];
const models: TestModel[] = [];
const agents: Agent[] = [];
const timings: Record<string, number> = {};

async function phoneOf(width: number, height: number, density: number): Promise<VirtualPhone> {
  return await startVirtualPhone({
    browser,
    width,
    height,
    density,
    apps: { [INBOX]: { url: `${apps.url}inbox/index.html`, label: "Inbox" } },
    startApp: INBOX,
  });
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  // MobileA: 1080 x 2400 at 420 dpi, through a private real adb server.
  const a = await phoneOf(1080, 2400, 2.625);
  const adbFront = await startAdbFront(a);
  adbServer = await startPrivateAdbServer();
  await adbServer.connect(adbFront.serial);
  const deviceA = () => new MobileADevice(adbFront.serial, { remoteBridgePort: adbServer.port });
  rigs.push({
    name: "MobileA",
    phone: a,
    device: deviceA() as Rig["device"],
    agent: (model) =>
      new MobileAAgent(deviceA(), { modelConfig: model.modelConfig(), ...PHONE_AGENT_OPTIONS }),
    kinds: { text: "android.widget.TextView", button: "android.widget.Button" },
    close: () => adbFront.close(),
  });
  // MobileB: an iPhone 14's 1170 x 2532 at scale 3 (390 x 844 points).
  const b = await phoneOf(1170, 2532, 3);
  const wda = await startWdaFront(b);
  const deviceB = () =>
    new MobileBDevice({
      driverHost: "127.0.0.1",
      driverPort: wda.port,
      driverMjpegPort: wda.mjpegPort,
    });
  rigs.push({
    name: "MobileB",
    phone: b,
    device: deviceB(),
    agent: (model) =>
      new MobileBAgent(deviceB(), { modelConfig: model.modelConfig(), ...PHONE_AGENT_OPTIONS }),
    kinds: { text: "XCUIElementTypeStaticText", button: "XCUIElementTypeButton" },
    close: () => wda.close(),
  });
  // MobileC: 1260 x 2720 at density 3.25.
  const c = await phoneOf(1260, 2720, 3.25);
  const hdc = await startHdcFront(c);
  const deviceC = () => new MobileCDevice(hdc.connectKey, { toolPath: hdc.toolPath });
  rigs.push({
    name: "MobileC",
    phone: c,
    device: deviceC(),
    agent: (model) =>
      new MobileCAgent(deviceC(), { modelConfig: model.modelConfig(), ...PHONE_AGENT_OPTIONS }),
    kinds: { text: "Text", button: "Button" },
    close: () => hdc.close(),
  });
});

after(async () => {
  if (Object.keys(timings).length) {
    console.log(`ms per targetsAt (median of 5): ${JSON.stringify(timings)}`);
  }
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(rigs.map((r) => r.device.destroy?.()));
  await Promise.allSettled(models.map((m) => m.close()));
  await adbServer?.close();
  await Promise.allSettled(rigs.map((r) => r.close()));
  await Promise.allSettled(rigs.map((r) => r.phone.close()));
  await apps?.close();
  await browser?.close();
});

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The inbox, freshly started, on its list. */
async function freshInbox(phone: VirtualPhone): Promise<void> {
  await phone.stopApp(INBOX);
  await phone.launchApp(INBOX);
  await waitFor(() => phone.foregroundPage().locator("#msg-2").isVisible(), "the inbox list");
}

/** The center of an element in logical pixels (CSS pixels of the page, on all three phones). */
async function centerOf(phone: VirtualPhone, selector: string): Promise<Point> {
  const box = await phoneBox(phone, selector);
  return [box.left + box.width / 2, box.top + box.height / 2];
}

/** What the inbox did: the messages opened, archived, and how often it refreshed. */
function inboxState(phone: VirtualPhone) {
  return phone.foregroundPage().evaluate(() =>
    (globalThis as unknown as {
      inbox: { opened: string[]; archived: string[]; refreshed: number };
    }).inbox
  );
}

const rig = (name: string) => rigs.find((r) => r.name === name)!;

for (const name of ["MobileA", "MobileB", "MobileC"]) {
  test(`${name}: targetsAt names a row's subject and its Archive button; after Refresh the same points name another row`, async () => {
    const { phone, device, kinds } = rig(name);
    await freshInbox(phone);
    const subject = await centerOf(phone, "#msg-2 .subject");
    const archive = await centerOf(phone, "#msg-2 button");
    const [text, button] = await device.targetsAt([subject, archive]);
    assert.equal(text?.kind, kinds.text);
    assert.equal(text?.name, "Invoice 42");
    assert.equal(text?.context, "Invoice 42 Archive", "the row's text");
    assert.equal(button?.kind, kinds.button);
    assert.equal(button?.name, "Archive");
    assert.equal(button?.context, "Invoice 42 Archive", "the row tells its Archive button apart");
    // The identity's box is the element's, in logical pixels.
    const box = await phoneBox(phone, "#msg-2 .subject");
    assert.ok(Math.abs(text!.box.top - box.top) <= 1, `${text!.box.top} vs ${box.top}`);
    assert.ok(Math.abs(text!.box.left - box.left) <= 1, `${text!.box.left} vs ${box.left}`);
    // Unchanged screen, same identities.
    const again = await device.targetsAt([subject, archive]);
    assert.equal(targetDifference(text!, again[0]), undefined);
    assert.equal(targetDifference(button!, again[1]), undefined);
    // Refresh (a tap on the phone): a new message on top pushes every row down one row.
    const [rx, ry] = await centerOf(phone, "#refresh");
    await phone.tap(Math.round(rx * phone.density), Math.round(ry * phone.density));
    await waitFor(async () => (await inboxState(phone)).refreshed === 1, "the refresh");
    const [text2, button2] = await device.targetsAt([subject, archive]);
    assert.equal(text2?.name, "Lunch on Friday");
    assert.match(
      targetDifference(text!, text2)!,
      /"Lunch on Friday".* is at its point instead of .*"Invoice 42"/,
    );
    assert.match(targetDifference(button!, button2)!, /in "Lunch on Friday Archive"/);
    // The time of one check, on this simulator.
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await device.targetsAt([subject, archive]);
      ms.push(performance.now() - start);
    }
    timings[name] = Math.round(ms.sort((x, y) => x - y)[2]);
  });

  test(`${name}: a plan [Refresh, open Invoice 42] drops the second tap when its row moved; the model opens it from the new screen`, async () => {
    const r = rig(name);
    const { phone } = r;
    await freshInbox(phone);
    const tap = async (selector: string, log: string) => ({
      type: "Tap",
      param: { locate: { prompt: log, box: await phoneBox(phone, selector) } },
      log,
    });
    const plan = async (call: PlanCall): Promise<PlanReply> => {
      if (call.history.length === 0) {
        return {
          log: "refresh, then open Invoice 42",
          actions: [
            await tap("#refresh", "tap Refresh"),
            await tap("#msg-2", "open Invoice 42"),
          ],
        };
      }
      if (await phone.foregroundPage().locator("#msg-2").isVisible()) {
        return { log: "open Invoice 42", action: await tap("#msg-2", "open Invoice 42") };
      }
      return { log: "done", finished: true, output: "opened Invoice 42" };
    };
    const model = await startTestModel({ script: { plan }, imagePixelsPerCssPixel: phone.density });
    models.push(model);
    const agent = r.agent(model);
    agents.push(agent);
    const output = await agent.aiAct("refresh the inbox, then open Invoice 42");
    assert.equal(output, "opened Invoice 42");
    // The second tap of the plan did not land on the row that moved under its point.
    const state = await inboxState(phone);
    assert.deepEqual(state.opened, ["Invoice 42"], "only the planned message was opened");
    assert.equal(state.refreshed, 1);
    // Asked again: the history names the dropped action and that another row is at its point.
    const plans = model.calls.filter((c) => c.kind === "plan");
    assert.equal(plans.length, 3);
    const second = plans[1].call!;
    assert.ok(second.kind === "plan");
    assert.equal(second.history[0], "tap Refresh");
    assert.match(
      second.history[1],
      /^\(not done: open Invoice 42; its target changed: .*"Lunch on Friday".* is at its point instead of .*"Invoice 42"/,
    );
    const steps = agent._unstableLogContent().executions.at(-1)!.steps;
    const dropped = steps.filter((s) => s.kind === "Log" && s.title.startsWith("Not performed:"));
    assert.deepEqual(dropped.map((s) => s.title), ["Not performed: open Invoice 42"]);
  });
}
