/**
 * The adb client library chosen for the SDK, `@yume-chan/adb`, against the real adb server and
 * the device simulator: device listing with details, shell with exit codes and stderr (shell
 * protocol v2), `getprop`, and `screencap -p` as bytes. The chain is library -> private adb
 * server (`adb -P <free port>`) -> adb front -> virtual phone -> Chromium.
 *
 * The library talks to the adb server through a "server connector": `@yume-chan/adb-server-node-tcp`
 * (over `node:net`), as `@sdk/mobilea` does.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { AdbServerClient } from "@yume-chan/adb";
import { AdbServerNodeTcpConnector } from "@yume-chan/adb-server-node-tcp";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const NOTES = "com.example.notes";

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: AdbFront;
let server: PrivateAdbServer;
let client: AdbServerClient;

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    apps: { [NOTES]: `${apps.url}notes/index.html` },
    startApp: NOTES,
  });
  front = await startAdbFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(front.serial);
  client = new AdbServerClient(
    new AdbServerNodeTcpConnector({ host: "127.0.0.1", port: server.port }),
  );
  const deadline = Date.now() + 5000;
  while (!(await client.getDevices()).some((d) => d.serial === front.serial)) {
    if (Date.now() > deadline) throw new Error("the simulator did not come online");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

after(async () => {
  await server?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

test("@yume-chan/adb lists the simulator with its details from the adb server", async () => {
  const devices = await client.getDevices();
  const device = devices.find((d) => d.serial === front.serial);
  assert.ok(device);
  assert.equal(device.state, "device");
  assert.equal(device.model, "Simulator_Phone");
  assert.equal(device.product, "simulator_phone");
  assert.equal(device.device, "simulator");
});

test("@yume-chan/adb runs shell commands with stdout, stderr and exit codes", async () => {
  const adb = await client.createAdb({ serial: front.serial });
  try {
    assert.ok(adb.banner.features.includes("shell_v2"));
    const shell = adb.subprocess.shellProtocol;
    assert.ok(shell?.isSupported);
    assert.deepEqual(await shell.spawnWaitText("wm size"), {
      stdout: "Physical size: 1080x2400\n",
      stderr: "",
      exitCode: 0,
    });
    assert.deepEqual(await shell.spawnWaitText("xyz"), {
      stdout: "",
      stderr: "/system/bin/sh: xyz: inaccessible or not found\n",
      exitCode: 127,
    });
    assert.equal(await adb.getProp("ro.sf.lcd_density"), "420");
    const tap = await shell.spawnWaitText("input tap 540 300");
    assert.equal(tap.exitCode, 0);
    assert.deepEqual(phone.inputs.at(-1), { type: "tap", x: 540, y: 300 });
  } finally {
    await adb.close();
  }
});

test("@yume-chan/adb takes a screenshot: screencap -p as a PNG of 1080 x 2400", async () => {
  const adb = await client.createAdb({ serial: front.serial });
  try {
    const started = performance.now();
    const png = await adb.subprocess.noneProtocol.spawnWait("screencap -p");
    const ms = performance.now() - started;
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
    assert.deepEqual([view.getUint32(16), view.getUint32(20)], [1080, 2400]);
    console.log(`@yume-chan/adb screencap -p round trip: ${ms.toFixed(0)} ms`);
  } finally {
    await adb.close();
  }
});

test("@yume-chan/adb reads the framebuffer service: RGBA pixels of 1080 x 2400", async () => {
  const adb = await client.createAdb({ serial: front.serial });
  try {
    const frame = await adb.framebuffer();
    assert.deepEqual([frame.width, frame.height, frame.bpp], [1080, 2400, 32]);
    assert.equal(frame.data.length, 1080 * 2400 * 4);
    // The notes app's blue header at the top.
    const at = (70 * 1080 + 540) * 4;
    assert.deepEqual([...frame.data.subarray(at, at + 4)], [0x1a, 0x73, 0xe8, 0xff]);
  } finally {
    await adb.close();
  }
});
