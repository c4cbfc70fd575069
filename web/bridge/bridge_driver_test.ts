/**
 * The {@link PageDriver} contract (web/page/_page_driver_contract.ts) against
 * {@link BridgePageDriver}: headless Chromium (`--headless=new`) with the built SDK Bridge
 * extension, whose service worker connects to a {@link BridgeServer} in this process. Each
 * contract page is a new tab the extension opens and attaches `chrome.debugger` to; its viewport
 * size and device pixel ratio are set over the bridge (`Emulation.setDeviceMetricsOverride`),
 * except for the screencast's frame test, which runs on the tab's own viewport.
 */

import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext } from "playwright-core";
import { launchWithBridgeExtension } from "../../tests/helpers/bridge_extension.ts";
import { testPageDriverContract } from "../page/_page_driver_contract.ts";
import { BridgePageDriver } from "./bridge_driver.ts";
import { BridgeServer } from "./_server.ts";

let tmp: string;
let context: BrowserContext | undefined;
let server: BridgeServer | undefined;

const TOKEN = "contract-pairing-token-4411";

testPageDriverContract("BridgePageDriver", {
  async launch() {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-contract-"));
    server = new BridgeServer({ host: "127.0.0.1", port: 0, token: TOKEN });
    await server.listen();
    // The helper's browser has no "SDK Bridge started debugging this browser" bar: in headless
    // Chromium it covers the top 56 px of the view without resizing the page, so the screencast's
    // frames came out 780x437 for a 780x493 viewport.
    ({ context } = await launchWithBridgeExtension(tmp, { port: server.port!, token: TOKEN }));
    // Playwright, which only launched the browser, would dismiss the tabs' native dialogs when
    // nothing listens: a listener that leaves them alone lets the driver under test answer them.
    context.on("dialog", () => {});
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
    // The override reaches the page's layout a frame later: wait for it, so that no test reads
    // (or screencasts) the window's size instead.
    for (let i = 0; i < 100; i++) {
      const seen = await driver.evaluate("[innerWidth, innerHeight]") as number[];
      if (seen[0] === width && seen[1] === height) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return {
      driver,
      close: async () => {
        for (const off of offs) off();
        await bridge.call("closeTab");
      },
      // Through chrome.debugger the screencast shows the tab's real surface (the window's size,
      // 780x493 here), not the viewport emulated above. A real tab has no emulation: the frame
      // test drops it, and the frames must then be the tab's own CSS viewport, as on the other
      // drivers.
      async screencastViewport() {
        await bridge.call("cdp", { method: "Emulation.clearDeviceMetricsOverride", params: {} });
        // The surface is resized and painted again a frame or two later; a screencast started
        // before that sent one black frame and nothing after it on a loaded machine (the page
        // was still). Two animation frames (at most 1 s) let the repaint land first.
        await driver.evaluate(() =>
          new Promise((done) => {
            const g = globalThis as unknown as {
              requestAnimationFrame(f: () => void): number;
            };
            setTimeout(done, 1000);
            g.requestAnimationFrame(() => g.requestAnimationFrame(() => done(null)));
          })
        );
        return await driver.evaluate(() => {
          const g = globalThis as unknown as { innerWidth: number; innerHeight: number };
          return { width: g.innerWidth, height: g.innerHeight };
        });
      },
    };
  },
  async close() {
    await context?.close();
    await server?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  },
});
