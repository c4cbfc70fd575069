/// <reference lib="dom" />
/**
 * The three phones on their simulators with the inbox fixture app (tests/fixtures/mobile/inbox),
 * for the cache's end-to-end tests and `bench/cache.ts`: MobileA through a private real adb
 * server and the adb front, MobileB through the WDA front, MobileC through the hdc front, all on
 * one Chromium. Also the inbox task both use: archive "Invoice 42", then open "Flight to Oslo".
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import type { Agent, AgentOptions } from "@sdk/core";
import type { PlanReply, TestModel } from "@sdk/core/testing";
import { MobileAAgent, MobileADevice } from "@sdk/mobilea";
import { MobileBAgent, MobileBDevice } from "@sdk/mobileb";
import { MobileCAgent, MobileCDevice } from "@sdk/mobilec";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { startAdbFront } from "@sdk/mobilea/testing";
import { startWdaFront } from "@sdk/mobileb/testing";
import { startHdcFront } from "@sdk/mobilec/testing";
import { startPrivateAdbServer } from "./adb.ts";
import { serveStatic } from "./static_server.ts";
import { PHONE_AGENT_OPTIONS, phoneBox } from "./phone.ts";

/** The inbox app's package. */
export const INBOX = "com.example.inbox";

/** The task the tests and the bench repeat. */
export const INBOX_TASK = 'archive "Invoice 42", then open "Flight to Oslo"';

/** One phone platform on its simulator. */
export interface InboxPhone {
  /** `MobileA`, `MobileB` or `MobileC`. */
  name: string;
  /** The virtual phone. */
  phone: VirtualPhone;
  /** An agent of this platform over a new device. */
  agent(model: TestModel, options?: Partial<AgentOptions>): Agent;
  /** This platform's xpath of the Refresh button, in its own tree's words. */
  refreshXpath: string;
}

/** The phones, and how to close them all. */
export interface InboxPhones {
  /** MobileA, MobileB, MobileC. */
  phones: InboxPhone[];
  /** Closes the agents made, the fronts, the adb server, the phones and the app server. */
  close(): Promise<void>;
}

/** Starts the three phones on `browser`, each showing the inbox. */
export async function startInboxPhones(browser: Browser): Promise<InboxPhones> {
  const apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  const cleanup: (() => Promise<unknown>)[] = [() => apps.close()];
  const agents: Agent[] = [];
  const phoneOf = async (width: number, height: number, density: number) => {
    const phone = await startVirtualPhone({
      browser,
      width,
      height,
      density,
      apps: { [INBOX]: { url: `${apps.url}inbox/index.html`, label: "Inbox" } },
      startApp: INBOX,
    });
    cleanup.unshift(() => phone.close());
    return phone;
  };
  const made = <A extends Agent>(agent: A): A => {
    agents.push(agent);
    return agent;
  };
  const options = (model: TestModel, extra: Partial<AgentOptions> = {}) => ({
    modelConfig: model.modelConfig(),
    ...PHONE_AGENT_OPTIONS,
    ...extra,
  });
  // MobileA: 1080 x 2400 at 420 dpi, through a private real adb server.
  const a = await phoneOf(1080, 2400, 2.625);
  const adbFront = await startAdbFront(a);
  cleanup.unshift(() => adbFront.close());
  const adbServer = await startPrivateAdbServer();
  cleanup.unshift(() => adbServer.close());
  await adbServer.connect(adbFront.serial);
  // MobileB: an iPhone 14's 1170 x 2532 at scale 3 (390 x 844 points).
  const b = await phoneOf(1170, 2532, 3);
  const wda = await startWdaFront(b);
  cleanup.unshift(() => wda.close());
  // MobileC: 1260 x 2720 at density 3.25.
  const c = await phoneOf(1260, 2720, 3.25);
  const hdc = await startHdcFront(c);
  cleanup.unshift(() => hdc.close());
  const phones: InboxPhone[] = [
    {
      name: "MobileA",
      phone: a,
      agent: (model, extra) =>
        made(
          new MobileAAgent(
            new MobileADevice(adbFront.serial, { remoteBridgePort: adbServer.port }),
            options(model, extra),
          ),
        ),
      refreshXpath: '//android.widget.Button[@text="Refresh"]',
    },
    {
      name: "MobileB",
      phone: b,
      agent: (model, extra) =>
        made(
          new MobileBAgent(
            new MobileBDevice({
              driverHost: "127.0.0.1",
              driverPort: wda.port,
              driverMjpegPort: wda.mjpegPort,
            }),
            options(model, extra),
          ),
        ),
      refreshXpath: '//XCUIElementTypeButton[@label="Refresh"]',
    },
    {
      name: "MobileC",
      phone: c,
      agent: (model, extra) =>
        made(
          new MobileCAgent(
            new MobileCDevice(hdc.connectKey, { toolPath: hdc.toolPath }),
            options(model, extra),
          ),
        ),
      refreshXpath: '//Button[@text="Refresh"]',
    },
  ];
  return {
    phones,
    close: async () => {
      await Promise.allSettled(agents.map((agent) => agent.destroy()));
      for (const step of cleanup) await step().catch(() => {});
    },
  };
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The inbox, freshly started, on its list. */
export async function freshInbox(phone: VirtualPhone): Promise<void> {
  await phone.stopApp(INBOX);
  await phone.launchApp(INBOX);
  await waitFor(() => phone.foregroundPage().locator("#msg-2").isVisible(), "the inbox list");
}

/** What the inbox did: the messages opened and archived, and how often it refreshed. */
export function inboxState(
  phone: VirtualPhone,
): Promise<{ opened: string[]; archived: string[]; refreshed: number }> {
  return phone.foregroundPage().evaluate(() =>
    (globalThis as unknown as {
      inbox: { opened: string[]; archived: string[]; refreshed: number };
    }).inbox
  );
}

/**
 * The layout change of the tests and the bench: the Archive button of "Invoice 42" moves 120
 * pixels to the left (nothing else moves).
 */
export async function moveArchiveButton(phone: VirtualPhone): Promise<void> {
  await phone.foregroundPage().evaluate(() => {
    const button = document.querySelector<HTMLElement>("#msg-2 button")!;
    button.style.transform = "translateX(-120px)";
  });
}

/** "Flight to Oslo" is renamed: its cached location no longer names it. */
export async function renameFlight(phone: VirtualPhone): Promise<void> {
  await phone.foregroundPage().evaluate(() => {
    document.querySelector("#msg-3 .subject")!.textContent = "Flight to Oslo, moved to Monday";
  });
}

/**
 * The planner of {@link INBOX_TASK}, as a model would plan it from the phone's screen: tap the
 * Archive button of "Invoice 42", tap "Flight to Oslo", then finish.
 */
export function inboxPlanner(phone: VirtualPhone): () => Promise<PlanReply> {
  return async () => {
    const state = await inboxState(phone);
    if (!state.archived.includes("Invoice 42")) {
      return {
        log: "archive Invoice 42",
        action: {
          type: "Tap",
          param: {
            locate: {
              prompt: "the Archive button of Invoice 42",
              box: await phoneBox(phone, "#msg-2 button"),
            },
          },
        },
      };
    }
    if (!state.opened.includes("Flight to Oslo")) {
      return {
        log: "open Flight to Oslo",
        action: {
          type: "Tap",
          param: {
            locate: { prompt: "Flight to Oslo", box: await phoneBox(phone, "#msg-3 .subject") },
          },
        },
      };
    }
    return { log: "done", finished: true, output: "archived and opened" };
  };
}

/** Answers a locate call on the inbox as a model would: by what the description names. */
export async function inboxLocate(
  phone: VirtualPhone,
  target: string,
): Promise<{ left: number; top: number; width: number; height: number } | null> {
  if (/Flight to Oslo|Oslo/.test(target)) return await phoneBox(phone, "#msg-3 .subject");
  if (/Archive/.test(target)) return await phoneBox(phone, "#msg-2 button");
  if (/Refresh/.test(target)) return await phoneBox(phone, "#refresh");
  return null;
}
