/**
 * Runs once before the test suite (`deno task test`): makes sure a Chromium, adb, ffmpeg and the
 * desktop tools (Xvfb, Tk, FreeRDP, nut-js) are there, installing Debian's packages when they are missing, so that parallel test files do not
 * race to install them.
 *
 * @module
 */

import { execFile } from "node:child_process";
import process from "node:process";
import { ensureAdb } from "./helpers/adb.ts";
import { findChromium } from "./helpers/browser.ts";
import { ensureDesktopTools } from "./helpers/desktop.ts";

const FFMPEG_MISSING = "ffmpeg is needed by the device simulator's scrcpy server and MobileA's " +
  "mirror stream tests: install it (Debian/Ubuntu: apt-get install --no-install-recommends ffmpeg)";

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) =>
    execFile(
      command,
      args,
      { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } },
      (error) => resolve(error ? 1 : 0),
    )
  );
}

/** Installs Debian's ffmpeg package when `ffmpeg` is not on `PATH` (as root only). */
async function ensureFfmpeg(): Promise<void> {
  if ((await run("ffmpeg", ["-version"])) === 0) {
    console.log("ffmpeg for the tests: on PATH");
    return;
  }
  if (process.getuid?.() !== 0) throw new Error(FFMPEG_MISSING);
  console.log("No ffmpeg found; installing Debian's ffmpeg package with apt-get ...");
  for (
    const args of [["update", "-q"], ["install", "-y", "-q", "--no-install-recommends", "ffmpeg"]]
  ) {
    if ((await run("apt-get", args)) !== 0) {
      throw new Error(`apt-get ${args.join(" ")} failed. ${FFMPEG_MISSING}`);
    }
  }
  if ((await run("ffmpeg", ["-version"])) !== 0) throw new Error(FFMPEG_MISSING);
}

console.log(`Chromium for the tests: ${await findChromium()}`);
await ensureAdb();
await ensureFfmpeg();
await ensureDesktopTools();
console.log("Desktop tools for the tests: Xvfb, Tk, xrandr, FreeRDP, nut-js");
