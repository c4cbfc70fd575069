import type { Browser } from "playwright-core";
import { launchChromium } from "../_test_support.ts";
import { testPageDriverContract } from "../page/_page_driver_contract.ts";
import { DriverBPageDriver } from "./playwright_driver.ts";

let browser: Browser | undefined;

testPageDriverContract("DriverBPageDriver", {
  async launch() {
    browser = await launchChromium();
  },
  async open({ width, height, dpr }) {
    const context = await browser!.newContext({
      viewport: { width, height },
      deviceScaleFactor: dpr,
    });
    const page = await context.newPage();
    return { driver: new DriverBPageDriver(page), close: () => context.close() };
  },
  async close() {
    await browser?.close();
  },
});
