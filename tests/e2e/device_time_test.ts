/// <reference lib="dom" />
/**
 * `useDeviceTime` (spec 2.1) on both drivers: the web page device reads the page's own clock and
 * time zone, and the agent stamps its executions with it.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page as PageB } from "playwright-core";
import type { Page as PageA } from "puppeteer-core";
import { Agent } from "@sdk/core";
import { DriverAPageDriver, DriverBPageDriver, WebPageDevice } from "@sdk/web";
import { driverTest, type E2e, type E2ePage } from "./_drivers.ts";

/** 2020-05-17 10:20:30 UTC, which is 15:50:30 in UTC+05:30. */
const PAGE_NOW = Date.UTC(2020, 4, 17, 10, 20, 30);

/** Sets the page's clock to `PAGE_NOW`, in a UTC+05:30 time zone (what the page's `Date` says). */
function shiftPageClock(page: E2ePage): Promise<void> {
  return page.evaluate((now: number) => {
    const RealDate = Date;
    class PageDate extends RealDate {
      constructor(...args: unknown[]) {
        super(...((args.length === 0 ? [now] : args) as [number]));
      }
      static override now(): number {
        return now;
      }
      override getTimezoneOffset(): number {
        return -330;
      }
    }
    (globalThis as { Date: DateConstructor }).Date = PageDate as DateConstructor;
  }, PAGE_NOW);
}

driverTest(
  "useDeviceTime stamps executions with the page's clock, read with its UTC offset",
  async (e2e) => {
    const page = await e2e.open("index.html");
    await shiftPageClock(page);
    const { agent } = await e2e.agent(page, { extract: () => "Fixture App" }, {
      useDeviceTime: true,
    });
    assert.equal(await agent.interface.getDeviceLocalTimeString(), "2020-05-17T15:50:30.000+05:30");

    await agent.recordToReport("clock check");
    assert.equal(await agent.aiString("the brand name"), "Fixture App");
    const executions = agent._unstableLogContent().executions;
    assert.deepEqual(executions.map((e) => e.startedAt), [PAGE_NOW, PAGE_NOW]);
    for (const e of executions) {
      // The end is on the same clock: a short call, not five years.
      const took = e.endedAt! - e.startedAt;
      assert.ok(took >= 0 && took < 10_000, `${e.apiName} took ${took} ms`);
    }
  },
);

driverTest(
  "without useDeviceTime executions use the system time, whatever the page's clock says",
  async (e2e) => {
    const page = await e2e.open("index.html");
    await shiftPageClock(page);
    const { agent } = await e2e.agent(page, {});
    const before = Date.now();
    await agent.recordToReport("clock check");
    const after = Date.now();
    const [execution] = agent._unstableLogContent().executions;
    assert.ok(
      execution.startedAt >= before && execution.startedAt <= after,
      `startedAt ${execution.startedAt} is not between ${before} and ${after}`,
    );
  },
);

/** Emulates a time zone in the page, through each driver's own API. */
async function emulateTimezone(e2e: E2e, page: E2ePage, timezoneId: string): Promise<void> {
  if (e2e.driver === "DriverA") {
    await (page.raw as PageA).emulateTimezone(timezoneId);
    return;
  }
  const raw = page.raw as PageB;
  const cdp = await raw.context().newCDPSession(raw);
  await cdp.send("Emulation.setTimezoneOverride", { timezoneId });
}

driverTest(
  "getDeviceLocalTimeString is now, with the offset of the page's emulated time zone",
  async (e2e) => {
    const page = await e2e.open("index.html");
    await emulateTimezone(e2e, page, "Asia/Kathmandu");
    const { agent } = await e2e.agent(page, {});
    const before = Date.now();
    const local = await agent.interface.getDeviceLocalTimeString();
    const after = Date.now();
    assert.match(local, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:45$/);
    const t = Date.parse(local);
    assert.ok(t >= before - 1 && t <= after + 1, `${local} is not now`);
    // The wall-clock part is the page's own local time.
    const pageHour = await page.evaluate(() => new Date().getHours());
    const hour = Number(local.slice(11, 13));
    assert.ok(
      hour === pageHour || (hour + 1) % 24 === pageHour,
      `${local} vs page hour ${pageHour}`,
    );
  },
);

driverTest(
  "useDeviceTime falls back to the system time, with a warning, when the page cannot tell its time",
  async (e2e) => {
    const page = await e2e.open("index.html");
    class NavigatingDevice extends WebPageDevice {
      override getDeviceLocalTimeString(): Promise<string> {
        return Promise.reject(new Error("Execution context was destroyed"));
      }
    }
    const driver = e2e.driver === "DriverA"
      ? new DriverAPageDriver(page.raw as PageA)
      : new DriverBPageDriver(page.raw as PageB);
    const agent = new Agent(new NavigatingDevice(driver), {
      useDeviceTime: true,
      generateReport: false,
    });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    const before = Date.now();
    try {
      await agent.recordToReport("clock check");
    } finally {
      console.warn = warn;
    }
    const [execution] = agent._unstableLogContent().executions;
    assert.ok(execution.startedAt >= before && execution.startedAt <= Date.now());
    assert.deepEqual(warnings, [
      "useDeviceTime: could not read the device time; using system time: Execution context was destroyed",
    ]);
    await agent.destroy();
  },
);
