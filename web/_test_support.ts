/**
 * Test helpers for `@sdk/web` (private; tests only): a headless Chromium (through DriverB or
 * DriverA), a tiny local HTTP server, element location by selector, PNG size.
 *
 * @module
 */

import type { Page } from "playwright-core";
import { type Browser as DriverABrowser, launch as launchDriverA } from "puppeteer-core";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LocatedElement } from "./_core.ts";
import { CHROMIUM_ARGS, findChromium } from "../tests/helpers/browser.ts";

/** The project's one way to find and launch the machine's Chromium. */
export { launchChromium } from "../tests/helpers/browser.ts";

/**
 * Launches the machine's Chromium (found like {@link launchChromium}) through DriverA
 * (`puppeteer-core`), headless, with the same flags. Close it with `browser.close()`.
 *
 * @param options `handleSignals: false` leaves Ctrl+C, SIGTERM and SIGHUP to the process (as
 *   `launchChromium`'s option does); default `true`, puppeteer's own handlers.
 */
export async function launchChromiumDriverA(
  options: { handleSignals?: boolean } = {},
): Promise<DriverABrowser> {
  const handle = options.handleSignals ?? true;
  return await launchDriverA({
    executablePath: await findChromium(),
    args: [...CHROMIUM_ARGS],
    headless: true,
    handleSIGINT: handle,
    handleSIGTERM: handle,
    handleSIGHUP: handle,
  });
}

/** A running local server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Drops every open connection (including requests never answered) and stops listening. */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and a free port. */
export async function startServer(
  handler: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Where the element matching `selector` is, in CSS pixels, as a device action receives it. */
export async function locate(page: Page, selector: string): Promise<LocatedElement> {
  const rect = await page.locator(selector).evaluate((element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
  return {
    description: selector,
    center: [rect.left + rect.width / 2, rect.top + rect.height / 2],
    rect,
  };
}

/** Width and height of a PNG, from its IHDR chunk; accepts bytes or a data URI. */
export function pngSize(png: Uint8Array | string): { width: number; height: number } {
  const bytes = typeof png === "string"
    ? Uint8Array.from(atob(png.slice(png.indexOf(",") + 1)), (c) => c.charCodeAt(0))
    : png;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
