/**
 * The planning dialects on the three phone simulators, end to end: the test model answers in
 * UI-TARS (`press_back()`, `press_home()`, `open_app(...)`) and AutoGLM (`do(action="Back")`,
 * `"Home"`, `"Launch"`), and the phone goes back, home and into the app through each platform's
 * own actions (MobileA/MobileC `...BackButton`, `...HomeButton`, MobileB `MobileBHomeButton`,
 * `Launch`). An iPhone has no back: `press_back()` and `do(action="Back")` fail naming the
 * dialect's action and the platform, and the phone is left as it was.
 *
 * One Chromium holds the three virtual phones; MobileA goes through a private real adb server
 * to the adb front, MobileB through HTTP to the WDA front, MobileC through the hdc front.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { type AbstractInterface, Agent, type AgentOptions, PlanningError } from "@sdk/core";
import { MobileADevice } from "@sdk/mobilea";
import { MobileBDevice } from "@sdk/mobileb";
import { MobileCDevice } from "@sdk/mobilec";
import { type PlanReply, startTestModel, type TestModel } from "@sdk/core/testing";
import {
  LAUNCHER_ACTIVITY,
  LAUNCHER_PACKAGE,
  startVirtualPhone,
  type VirtualPhone,
} from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";

let browser: Browser;
let apps: StaticServer;
let adbServer: PrivateAdbServer;
let adbFront: AdbFront;
let wdaFront: WdaFront;
let hdcFront: HdcFront;
const phones: Record<
  string,
  { phone: VirtualPhone; scale: number; device: () => AbstractInterface }
> = {};
const closers: (() => Promise<unknown>)[] = [];

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  const phone = (width: number, height: number, density: number, abilities = false) =>
    startVirtualPhone({
      browser,
      width,
      height,
      density,
      apps: {
        [NOTES]: {
          url: `${apps.url}notes/index.html`,
          label: "Notes",
          ...(abilities ? { activity: "EntryAbility" } : {}),
        },
        [SETTINGS]: {
          url: `${apps.url}settings/index.html`,
          label: "Settings",
          ...(abilities ? { activity: "MainAbility" } : {}),
        },
      },
      startApp: NOTES,
    });
  const a = await phone(1080, 2400, 2.625);
  adbFront = await startAdbFront(a);
  adbServer = await startPrivateAdbServer();
  await adbServer.connect(adbFront.serial);
  phones.MobileA = {
    phone: a,
    scale: 2.625,
    device: () => new MobileADevice(adbFront.serial, { remoteBridgePort: adbServer.port }),
  };
  const b = await phone(1170, 2532, 3);
  wdaFront = await startWdaFront(b);
  phones.MobileB = {
    phone: b,
    scale: 3,
    device: () => new MobileBDevice({ driverHost: "127.0.0.1", driverPort: wdaFront.port }),
  };
  const c = await phone(1260, 2720, 3.25, true);
  hdcFront = await startHdcFront(c);
  phones.MobileC = {
    phone: c,
    scale: 3.25,
    device: () => new MobileCDevice(hdcFront.connectKey, { toolPath: hdcFront.toolPath }),
  };
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await adbServer?.close();
  await adbFront?.close();
  await wdaFront?.close();
  await hdcFront?.close();
  for (const p of Object.values(phones)) await p.phone.close();
  await apps?.close();
  await browser?.close();
});

/** The notes app on its detail screen of note 2 (one step into the app's history). */
async function onNoteDetail(phone: VirtualPhone): Promise<void> {
  await phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  await waitFor(() => phone.foregroundPage().url().endsWith("index.html"), "the notes list");
  await phone.foregroundPage().evaluate(() => location.hash = "#/note/2");
  await waitFor(() => phone.foregroundPage().url().endsWith("#/note/2"), "note 2");
}

/** Where the phone is: `home`, or the app in front with its page's path and hash. */
function where(phone: VirtualPhone): string {
  const app = phone.foregroundApp();
  if (app.packageName === LAUNCHER_PACKAGE || app.activity === LAUNCHER_ACTIVITY) return "home";
  const url = new URL(phone.foregroundPage().url());
  return `${app.packageName}${url.pathname.slice(url.pathname.lastIndexOf("/"))}${url.hash}`;
}

/** An agent on `label`'s phone whose test model answers `replies` in `family`'s dialect. */
async function dialectAgent(
  label: string,
  family: "vlm-ui-tars" | "auto-glm",
  replies: PlanReply[],
  seen: string[],
): Promise<{ agent: Agent; model: TestModel }> {
  const { phone, scale, device } = phones[label];
  let n = 0;
  const model = await startTestModel({
    family,
    imagePixelsPerCssPixel: scale,
    script: {
      plan: () => {
        seen.push(where(phone));
        return replies[n++] ?? { log: "done", output: "done" };
      },
    },
  });
  closers.push(() => model.close());
  const options: AgentOptions = {
    modelConfig: model.modelConfig(),
    waitAfterAction: 100,
    generateReport: false,
    autoPrintReportMsg: false,
  };
  const agent = new Agent(device(), options);
  closers.push(() => agent.destroy());
  return { agent, model };
}

const DIALECTS = {
  "vlm-ui-tars": {
    back: { log: "go back", action: { type: "press_back" } },
    home: { log: "go home", action: { type: "press_home" } },
    launch: { log: "open notes", action: { type: "open_app", param: { app_name: NOTES } } },
  },
  "auto-glm": {
    back: { log: "go back", action: { type: "Back" } },
    home: { log: "go home", action: { type: "Home" } },
    launch: { log: "open notes", action: { type: "Launch", param: { app: NOTES } } },
  },
} as const;

for (const label of ["MobileA", "MobileC"]) {
  for (const family of ["vlm-ui-tars", "auto-glm"] as const) {
    test(
      `${family} on ${label}: back leaves the note, home shows the launcher, launch opens the app`,
      {
        timeout: 60_000,
      },
      async () => {
        const { phone } = phones[label];
        await onNoteDetail(phone);
        const d = DIALECTS[family];
        const seen: string[] = [];
        const { agent, model } = await dialectAgent(
          label,
          family,
          [d.back, d.home, d.launch],
          seen,
        );
        assert.equal(await agent.aiAct("go back, go home, then open the notes app"), "done");
        // The state before each planning call: the note, the list after back, the launcher after
        // home, the notes app after launch.
        assert.deepEqual(seen, [
          `${NOTES}/index.html#/note/2`,
          `${NOTES}/index.html`,
          "home",
          `${NOTES}/index.html`,
        ]);
        // The model answered in its dialect, and each answer became the platform's own action.
        const answers = model.calls.filter((c) => c.kind === "plan").map((c) => c.answer ?? "");
        assert.match(answers[0], family === "auto-glm" ? /do\(action="Back"\)/ : /press_back\(\)/);
        const steps = agent._unstableLogContent().executions.at(-1)!.steps;
        assert.deepEqual(
          steps.filter((s) => s.kind === "Action").map((s) => s.title),
          [`${label}BackButton`, `${label}HomeButton`, "Launch"],
        );
      },
    );
  }
}

for (const family of ["vlm-ui-tars", "auto-glm"] as const) {
  test(
    `${family} on MobileB: home and launch work; back, which an iPhone lacks, fails naming the action and "ios"`,
    {
      timeout: 60_000,
    },
    async () => {
      const { phone } = phones.MobileB;
      await onNoteDetail(phone);
      const d = DIALECTS[family];
      const seen: string[] = [];
      const { agent } = await dialectAgent("MobileB", family, [d.home, d.launch], seen);
      assert.equal(await agent.aiAct("go home, then open the notes app"), "done");
      // iOS resumes a running app where it was: the note again.
      assert.deepEqual(seen, [
        `${NOTES}/index.html#/note/2`,
        "home",
        `${NOTES}/index.html#/note/2`,
      ]);
      await onNoteDetail(phone);
      const back = await dialectAgent("MobileB", family, [d.back], []);
      await assert.rejects(back.agent.aiAct("go back"), (e: unknown) => {
        assert.ok(e instanceof PlanningError, String(e));
        assert.match(
          e.message,
          family === "auto-glm" ? /"Back \(do\(action="Back"\)\)"/ : /"press_back\(\)"/,
        );
        assert.match(e.message, /"ios"/);
        assert.match(e.message, /MobileBHomeButton, MobileBAppSwitcher/);
        return true;
      });
      assert.equal(where(phone), `${NOTES}/index.html#/note/2`);
    },
  );
}

test(
  "a script written with the platform's own actions runs in both dialects: the test model speaks the dialect, the SDK maps it back",
  {
    timeout: 60_000,
  },
  async () => {
    for (const family of ["vlm-ui-tars", "auto-glm"] as const) {
      const { phone } = phones.MobileC;
      await onNoteDetail(phone);
      const seen: string[] = [];
      const { agent, model } = await dialectAgent("MobileC", family, [
        { log: "back", action: { type: "MobileCBackButton" } },
        { log: "home", action: { type: "MobileCHomeButton" } },
        { log: "open", action: { type: "Launch", param: { uri: NOTES } } },
      ], seen);
      assert.equal(await agent.aiAct("go back, go home, open notes"), "done");
      assert.deepEqual(seen, [
        `${NOTES}/index.html#/note/2`,
        `${NOTES}/index.html`,
        "home",
        `${NOTES}/index.html`,
      ], family);
      const answers = model.calls.filter((c) => c.kind === "plan").map((c) => c.answer ?? "");
      assert.match(answers[2], family === "auto-glm" ? /do\(action="Launch", app=/ : /open_app\(/);
    }
  },
);
