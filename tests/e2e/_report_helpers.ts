/**
 * Helpers of the report e2e tests: where reports go, and reading a report the way a person does,
 * by opening it in Chromium from `file://`.
 *
 * @module
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import type { ReportExecution, ReportMeta } from "@sdk/core/report";
import type { E2eEnv } from "./_setup.ts";

/** What the viewer exposes as `window.__SDK_REPORT__`. */
export interface ReportData {
  /** The report header. */
  meta: ReportMeta & { format?: number };
  /** The executions, folded from the data tags. */
  executions: ReportExecution[];
  /** Ids of the screenshots stored in the report. */
  screenshotIds: string[];
}

/** A report opened in the browser. */
export interface OpenedReport {
  /** The page showing the report. */
  page: Page;
  /** Messages of JavaScript dialogs (`alert`, ...) the report opened: should stay empty. */
  dialogs: string[];
  /** Uncaught page errors and console errors. */
  errors: string[];
}

/** The reports directory: `$SDK_RUN_DIR/report`, or `sdk_run/report` under the working directory. */
export function reportDir(): string {
  return resolve(Deno.env.get("SDK_RUN_DIR") || "sdk_run", "report");
}

/** Whether a file exists. */
export async function exists(file: string): Promise<boolean> {
  try {
    await Deno.stat(file);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Opens a report file in a fresh page via `file://`, recording dialogs and errors. */
export async function openReport(
  env: E2eEnv,
  file: string,
  size: { width: number; height: number } = { width: 1440, height: 900 },
): Promise<OpenedReport> {
  const page = await env.open("about:blank", size);
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => document.querySelector("#hdr")?.childElementCount);
  return { page, dialogs, errors };
}

/** `window.__SDK_REPORT__` of an opened report. */
export function reportData(page: Page): Promise<ReportData> {
  return page.evaluate(() =>
    (globalThis as unknown as { __SDK_REPORT__: unknown }).__SDK_REPORT__
  ) as Promise<ReportData>;
}

/**
 * Scrolls every screenshot of the shown detail into view (they load lazily) and waits until each
 * has loaded; returns each `<img>`'s natural width, in document order.
 */
export async function loadAllScreenshots(page: Page): Promise<number[]> {
  const count = await page.locator("#detail img").count();
  for (let i = 0; i < count; i++) {
    const img = page.locator("#detail img").nth(i);
    await img.scrollIntoViewIfNeeded();
    await img.evaluate((el) => {
      const image = el as HTMLImageElement;
      return image.complete && image.naturalWidth > 0 ? undefined : image.decode().catch(() => {});
    });
  }
  await page.evaluate(() => scrollTo(0, 0));
  return await page.locator("#detail img").evaluateAll((els) =>
    els.map((el) => (el as HTMLImageElement).naturalWidth)
  );
}
