import type { Browser } from "puppeteer-core";
import { launchChromiumDriverA } from "../_test_support.ts";
import { testPageDriverContract } from "../page/_page_driver_contract.ts";
import { DriverAPageDriver } from "./puppeteer_driver.ts";

let browser: Browser | undefined;

testPageDriverContract("DriverAPageDriver", {
  async launch() {
    browser = await launchChromiumDriverA();
  },
  async open({ width, height, dpr }) {
    const context = await browser!.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height, deviceScaleFactor: dpr });
    return { driver: new DriverAPageDriver(page), close: () => context.close() };
  },
  async close() {
    await browser?.close();
  },
});
