/**
 * Chromium with a DevTools (CDP) endpoint on 127.0.0.1, as a grid node or a hosted browser service
 * runs it, for tests that attach to a browser they did not launch through Playwright.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHROMIUM_ARGS, findChromium } from "./browser.ts";

/** A running CDP Chromium. */
export interface CdpChromium {
  /** The browser process. */
  process: ChildProcess;
  /** Its `ws://127.0.0.1:<port>/devtools/browser/...` endpoint. */
  wsEndpoint: string;
  /** The endpoint's port (`http://127.0.0.1:<port>` answers `/json/version`). */
  port: number;
  /** Ends the browser and removes its profile. */
  close(): Promise<void>;
}

/** Starts headless Chromium with a CDP endpoint on a free port of 127.0.0.1. */
export async function startCdpChromium(): Promise<CdpChromium> {
  const profile = await mkdtemp(join(tmpdir(), "sdk-cdp-"));
  const child = spawn(await findChromium(), [
    ...CHROMIUM_ARGS,
    "--headless=new",
    "--window-size=1280,800",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
    `--user-data-dir=${profile}`,
    "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const wsEndpoint = await new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`Chromium exited (${code}): ${err}`)));
  });
  return {
    process: child,
    wsEndpoint,
    port: Number(new URL(wsEndpoint).port),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
      // Chromium's helpers may still write into the profile a moment after the browser exits
      // (profiles were left after loaded CI runs): remove it until it stays away.
      for (let i = 0; i < 5 && existsSync(profile); i++) {
        await rm(profile, { recursive: true, force: true }).catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
