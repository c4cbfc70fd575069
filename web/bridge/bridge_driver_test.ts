/**
 * The {@link PageDriver} contract (web/page/_page_driver_contract.ts) against
 * {@link BridgePageDriver}: headless Chromium (`--headless=new`) with the built SDK Bridge
 * extension, whose service worker connects to a {@link BridgeServer} in this process. Each
 * contract page is a new tab the extension opens and attaches `chrome.debugger` to; its viewport
 * size and device pixel ratio are set over the bridge (`Emulation.setDeviceMetricsOverride`).
 */

import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { chromium } from "playwright-core";
import type { BrowserContext } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../tests/helpers/browser.ts";
import { buildExtension } from "../../scripts/build_extension.ts";
import { testPageDriverContract } from "../page/_page_driver_contract.ts";
import { BridgePageDriver } from "./bridge_driver.ts";
import { BridgeServer } from "./_server.ts";

let tmp: string;
let context: BrowserContext | undefined;
let server: BridgeServer | undefined;

declare const chrome: {
  storage: { local: { set(items: Record<string, unknown>): Promise<void> } };
};

testPageDriverContract("BridgePageDriver", {
  // Through chrome.debugger, the screencast shows the tab's real surface (the window's size), not
  // the emulated viewport this harness sets: at an emulated 320x240 the frames are 780x493. A real
  // tab has no emulation, so its frames are its viewport's CSS size; the pacing test runs.
  skip: {
    "startScreencast() sends the current frame":
      "frame size under an emulated viewport: chrome.debugger screencasts the window's surface",
  },
  async launch() {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-contract-"));
    const extension = await buildExtension(path.join(tmp, "extension"));
    server = new BridgeServer({ host: "127.0.0.1", port: 0 });
    await server.listen();
    context = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
      executablePath: await findChromium(),
      headless: false,
      viewport: null,
      args: [
        ...CHROMIUM_ARGS,
        "--headless=new",
        `--disable-extensions-except=${extension}`,
        `--load-extension=${extension}`,
      ],
    });
    const worker = context.serviceWorkers()[0] ?? await context.waitForEvent("serviceworker");
    await worker.evaluate((port) => chrome.storage.local.set({ port }), server.port!);
    await server.waitForClient(15_000);
  },
  async open({ width, height, dpr }) {
    const bridge = server!;
    await bridge.call("connectNewTab", { url: "about:blank" });
    // Listeners end with the tab: a test that fails mid-screencast leaves none behind to ack
    // the next tab's frames.
    const offs = new Set<() => void>();
    const driver = new BridgePageDriver({
      send: (method, params) => bridge.call("cdp", { method, params: params ?? {} }),
      onEvent: (listener) => {
        const off = bridge.onEvent(listener);
        offs.add(off);
        return () => {
          offs.delete(off);
          off();
        };
      },
    });
    await driver.start();
    await bridge.call("cdp", {
      method: "Emulation.setDeviceMetricsOverride",
      params: { width, height, deviceScaleFactor: dpr, mobile: false },
    });
    return {
      driver,
      close: async () => {
        for (const off of offs) off();
        await bridge.call("closeTab");
      },
    };
  },
  async close() {
    await context?.close();
    await server?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  },
});
