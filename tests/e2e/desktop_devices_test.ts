/**
 * `sdk devices --display`: the monitors of an X display are listed as desktops (issue 39), here a
 * private Xvfb with two xrandr monitors, as a two-monitor desktop has; a display where nothing
 * answers is named on standard error and the rest still listed. Each entry carries the section
 * fields that select it and the display as its lock key.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { startTestDisplay, type TestDisplay } from "../helpers/desktop.ts";

const MAIN = fileURLToPath(new URL("../../cli/bin.ts", import.meta.url));
let x: TestDisplay;

before(async () => {
  x = await startTestDisplay("1920x1080x24", [
    { name: "LEFT", geometry: "1280x1080+0+0" },
    { name: "RIGHT", geometry: "640x480+1280+0" },
  ]);
});
after(() => x?.close());

test("sdk devices --display lists each monitor of the X display with its size, and names a display that does not answer", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      MAIN,
      "devices",
      "--display",
      x.display,
      "--display",
      ":987",
      "--json",
      "--adb-host",
      "127.0.0.2",
      "--hdc",
      "/nonexistent/hdc",
    ],
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  const devices = JSON.parse(stdout) as {
    platform: string;
    id: string;
    screen: unknown;
    section: unknown;
    lockKey?: string;
  }[];
  assert.deepEqual(devices.filter((d) => d.platform === "computer").map((d) => [d.id, d.screen]), [
    [`${x.display}/LEFT`, { width: 1280, height: 1080 }],
    [`${x.display}/RIGHT`, { width: 640, height: 480 }],
    [`${x.display}/screen`, { width: 1920, height: 1080 }],
  ]);
  // A pooled script drives that monitor of that display; the display is held as one.
  assert.deepEqual(devices.find((d) => d.id === `${x.display}/RIGHT`)?.section, {
    display: x.display,
    displayId: "RIGHT",
  });
  assert.deepEqual(
    new Set(devices.filter((d) => d.platform === "computer").map((d) => d.lockKey)),
    new Set([`computer-${x.display}`]),
  );
  assert.match(stderr, /device :987 does not answer, left out/);
  // A remote adb server is never started: one that does not answer is named.
  assert.match(stderr, /mobilea: not listed/);
  // A tool that is not there takes one line, not the list of places it was looked for.
  assert.match(
    stderr,
    /^sdk devices: mobilec: not listed: hdc was not found \(sdk devices --help says how/m,
  );
  assert.doesNotMatch(stderr, /Looked in/);
});
