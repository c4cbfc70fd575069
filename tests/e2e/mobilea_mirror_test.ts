/**
 * `@sdk/mobilea`'s mirror stream end to end, with no Android anywhere: SDK -> `@yume-chan/adb` +
 * `@yume-chan/adb-scrcpy` -> a private real adb server -> the adb front of the device
 * **simulator**, whose simulated scrcpy server (3.3.3) encodes the virtual phone's screen to H.264
 * with a real ffmpeg -> the SDK's ffmpeg decoder -> screenshots. The scrcpy server jar is a
 * stand-in file pushed with `adb push` (no Java runs in the simulator).
 *
 * One browser, one phone and one adb server serve the file.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import {
  DEFAULT_SCRCPY_SERVER_PATH,
  MobileAAgent,
  MobileADevice,
  type MobileADeviceOptions,
} from "@sdk/mobilea";
import { startTestModel, type TestModel, type TestModelScript } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { phoneAgent } from "../helpers/phone.ts";

const NOTES = "com.example.notes";
const WIDTH = 1080;
const HEIGHT = 2400;
const DENSITY = 2.625;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: AdbFront;
let server: PrivateAdbServer;
let jarDir: string;
const devices: MobileADevice[] = [];
const agents: MobileAAgent[] = [];
const models: TestModel[] = [];

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Pushes a stand-in scrcpy server jar to `path` on the phone. */
async function pushJar(path: string): Promise<void> {
  const push = await server.run(["-s", front.serial, "push", join(jarDir, "scrcpy-server"), path]);
  assert.equal(push.code, 0, push.stderr);
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: WIDTH,
    height: HEIGHT,
    density: DENSITY,
    apps: { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } },
    startApp: NOTES,
  });
  front = await startAdbFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(front.serial);
  jarDir = await mkdtemp(join(tmpdir(), "sdk-mirror-"));
  await writeFile(join(jarDir, "scrcpy-server"), "a stand-in for scrcpy-server-v3.3.3");
  await pushJar(DEFAULT_SCRCPY_SERVER_PATH);
});

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(devices.map((d) => d.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  await server?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
  if (jarDir) await rm(jarDir, { recursive: true, force: true });
});

function mirrorDevice(options: MobileADeviceOptions = {}): MobileADevice {
  const device = new MobileADevice(front.serial, {
    remoteBridgePort: server.port,
    ...options,
    mirrorConfig: { enabled: true, ...options.mirrorConfig },
  });
  devices.push(device);
  return device;
}

interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

function decode(dataUri: string): Pixels & { format: string } {
  const match = /^data:image\/(png|jpeg);base64,(.*)$/.exec(dataUri);
  assert.ok(match, `not an image data URI: ${dataUri.slice(0, 40)}`);
  const bytes = Buffer.from(match[2], "base64");
  if (match[1] === "png") {
    const png = PNG.sync.read(bytes);
    return { format: "png", width: png.width, height: png.height, rgba: png.data };
  }
  const image = jpeg.decode(bytes, { useTArray: true });
  return { format: "jpeg", width: image.width, height: image.height, rgba: image.data };
}

/** Mean absolute difference of the RGB channels, 0-255. */
function meanDifference(a: Pixels, b: Pixels): number {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += Math.abs(a.rgba[i + c] - b.rgba[i + c]);
  }
  return sum / (a.width * a.height * 3);
}

function screencaps(): number {
  return front.commands.filter((c) => c.startsWith("screencap")).length;
}

test("the mirror connects and its screenshot shows the screen as screencap does", async () => {
  phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  const device = mirrorDevice();
  assert.deepEqual(device.getMirrorStatus(), {
    enabled: true,
    connected: false,
    lastError: undefined,
    retryAfter: undefined,
  });
  const before = screencaps();
  const shot = decode(await device.screenshotBase64());
  assert.equal(shot.format, "jpeg");
  assert.equal(screencaps(), before, "the mirror's screenshot ran screencap");
  const status = device.getMirrorStatus();
  assert.equal(status.connected, true, status.lastError);
  assert.ok(front.services.some((s) => s.startsWith("localabstract:scrcpy_")));
  const screen = decode(
    `data:image/png;base64,${Buffer.from(await phone.screenshot()).toString("base64")}`,
  );
  const difference = meanDifference(shot, screen);
  assert.ok(difference < 6, `mirror and screencap differ by ${difference.toFixed(2)} on average`);
  // A different screen differs much more: the comparison can fail.
  await phone.keyEvent(3); // HOME
  await waitFor(async () => {
    const home = decode(await device.screenshotBase64());
    return meanDifference(home, screen) > 3 * difference + 5;
  }, "the mirror to show the home screen");
  await device.destroy();
  assert.equal(device.getMirrorStatus().connected, false);
});

test("maxSize scales mirror frames; a tap located on a mirror screenshot lands on the element", async () => {
  phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  const page = phone.foregroundPage();
  await waitFor(() => page.url().endsWith("index.html"), "the notes list");
  const maxSize = 800; // 1080 x 2400 -> 360 x 800
  const shrink = HEIGHT / maxSize;
  const script: TestModelScript = {
    locate: async ({ target }) => {
      const box = await phone.foregroundPage().locator(`#note-${target.split(" ")[1]}`)
        .boundingBox();
      return box && { left: box.x, top: box.y, width: box.width, height: box.height };
    },
  };
  const { agent, model, device } = await phoneAgent(
    { density: DENSITY, models, agents },
    script,
    shrink,
    (agentOptions) => {
      const device = mirrorDevice({ mirrorConfig: { maxSize } });
      return { device, agent: new MobileAAgent(device, agentOptions) };
    },
  );
  const box = await page.locator("#note-7").boundingBox();
  assert.ok(box);
  await agent.aiTap("Note 7");
  const image = model.calls[0].call?.image;
  assert.deepEqual(image && [image.width, image.height], [360, 800]);
  assert.equal(device.getMirrorStatus().connected, true);
  const tap = phone.inputs.filter((i) => i.type === "tap").at(-1) as { x: number; y: number };
  const tolerance = 2 * shrink; // two mirror pixels
  assert.ok(
    Math.abs(tap.x - (box.x + box.width / 2) * DENSITY) <= tolerance + DENSITY &&
      Math.abs(tap.y - (box.y + box.height / 2) * DENSITY) <= tolerance + DENSITY,
    `tap at (${tap.x}, ${tap.y}), Note 7's center at (${(box.x + box.width / 2) * DENSITY}, ${
      (box.y + box.height / 2) * DENSITY
    })`,
  );
  await waitFor(() => page.url().endsWith("#/note/7"), "the detail screen of Note 7");
});

test("without ffmpeg the mirror is unavailable, says how to install it, and maxSize applies to the screencap fallback", async () => {
  const device = mirrorDevice({
    mirrorConfig: { maxSize: 800, ffmpegPath: join(jarDir, "no-ffmpeg-here") },
  });
  const before = screencaps();
  const shot = decode(await device.screenshotBase64());
  assert.equal(shot.format, "png");
  assert.deepEqual([shot.width, shot.height], [360, 800]);
  assert.ok(screencaps() > before, "the fallback did not run screencap");
  const status = device.getMirrorStatus();
  assert.equal(status.connected, false);
  assert.match(status.lastError ?? "", /ffmpeg was not found/);
  assert.match(status.lastError ?? "", /apt-get install --no-install-recommends ffmpeg/);
  assert.ok(status.retryAfter !== undefined && status.retryAfter > Date.now());
  // No scrcpy server was started for a mirror that cannot decode.
  assert.ok(!front.commands.some((c) => c.includes("no-ffmpeg-here")));
});

test("without the server jar the mirror is unavailable and says what to push; retryMirror connects once it is pushed", async () => {
  const path = `/data/local/tmp/scrcpy-retry-${Date.now()}.jar`;
  const device = mirrorDevice({ scrcpyServerPath: path });
  const shot = decode(await device.screenshotBase64());
  assert.equal(shot.format, "png");
  assert.deepEqual([shot.width, shot.height], [WIDTH, HEIGHT]);
  const failed = device.getMirrorStatus();
  assert.equal(failed.connected, false);
  assert.match(failed.lastError ?? "", new RegExp(`not on the device at ${path}`));
  assert.match(failed.lastError ?? "", /adb push scrcpy-server-v3\.3\.3/);
  assert.ok(failed.retryAfter !== undefined && failed.retryAfter > Date.now());
  // Before retryAfter a screenshot does not try again.
  await pushJar(path);
  assert.equal(decode(await device.screenshotBase64()).format, "png");
  await device.retryMirror();
  const status = device.getMirrorStatus();
  assert.equal(status.connected, true, status.lastError);
  assert.equal(status.lastError, undefined);
  assert.equal(status.retryAfter, undefined);
  assert.equal(decode(await device.screenshotBase64()).format, "jpeg");
});

test("a jar of another release than scrcpyServerVersion: the server's refusal is the lastError", async () => {
  const device = mirrorDevice({ scrcpyServerVersion: "3.3.1" });
  assert.equal(decode(await device.screenshotBase64()).format, "png");
  const status = device.getMirrorStatus();
  assert.equal(status.connected, false);
  assert.match(
    status.lastError ?? "",
    /did not start: .*The server version \(3\.3\.3\) does not match the client \(3\.3\.1\)/,
  );
  // A release without video=false (before 2.1) is refused before anything starts.
  const old = mirrorDevice({ scrcpyServerVersion: "1.25" });
  assert.equal(decode(await old.screenshotBase64()).format, "png");
  assert.match(
    old.getMirrorStatus().lastError ?? "",
    /"1\.25" is not supported: use a release from 2\.1/,
  );
});

test("after an in-band video reset the mirror goes on with the new stream", async () => {
  phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  const device = mirrorDevice({ mirrorConfig: { videoResetFrameTimeoutMs: 5000 } });
  const list = decode(await device.screenshotBase64());
  assert.equal(list.format, "jpeg");
  // Earlier tests' mirrors may still run (until their idle timeout): this one is among them.
  const running = front.resetScrcpyVideo();
  assert.ok(running >= 1, "no scrcpy server with video runs");
  // The screenshot after the reset waits for the new key frame, and later changes show.
  assert.equal(decode(await device.screenshotBase64()).format, "jpeg");
  await phone.keyEvent(3); // HOME
  await waitFor(async () => {
    const shot = decode(await device.screenshotBase64());
    return shot.format === "jpeg" && meanDifference(shot, list) > 10;
  }, "the mirror to show the home screen after the reset");
  assert.equal(device.getMirrorStatus().connected, true);
  await device.destroy();
  // destroy() kills the server: it ends once adb carries the close to the device.
  await waitFor(
    () => front.resetScrcpyVideo() <= running - 1,
    "destroy() to end the scrcpy server",
  );
});

test("the mirror disconnects after idleTimeoutMs without screenshots and reconnects on the next one", async () => {
  const device = mirrorDevice({ mirrorConfig: { idleTimeoutMs: 500 } });
  assert.equal(decode(await device.screenshotBase64()).format, "jpeg");
  assert.equal(device.getMirrorStatus().connected, true);
  const servers = () => front.services.filter((s) => s.startsWith("localabstract:")).length;
  const opened = servers();
  await waitFor(() => !device.getMirrorStatus().connected, "the idle disconnect");
  assert.equal(device.getMirrorStatus().lastError, undefined);
  assert.equal(decode(await device.screenshotBase64()).format, "jpeg");
  assert.equal(device.getMirrorStatus().connected, true);
  assert.ok(servers() > opened, "the mirror did not reconnect");
});

test("the observer takes its frames from the mirror", async () => {
  phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  const model = await startTestModel({ script: {} });
  models.push(model);
  const device = mirrorDevice();
  const agent = new MobileAAgent(device, {
    modelConfig: model.modelConfig(),
    generateReport: false,
    autoPrintReportMsg: false,
  });
  agents.push(agent);
  assert.ok(device.startFrameStream, "no frame stream with the mirror enabled");
  const before = screencaps();
  const observer = await agent.startObserving({ intervalMs: 200 });
  // The screen changes while observed, so the mirror sends new frames.
  await phone.tap(540, 600);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const observation = await observer.stop();
  try {
    assert.ok(observation.frameCount >= 2, `frames: ${observation.frameCount}`);
    assert.equal(device.getMirrorStatus().connected, true);
    assert.equal(screencaps(), before, "the observer ran screencap while the mirror was connected");
  } finally {
    observation.dispose();
  }
});

test("mirrorConfig values are checked in the constructor", () => {
  const make = (mirrorConfig: unknown) =>
    new MobileADevice("emulator-5554", { mirrorConfig } as MobileADeviceOptions);
  assert.throws(() => make({ maxSize: -8 }), /mirrorConfig\.maxSize' must be an integer >= 0/);
  assert.throws(() => make({ videoBitRate: 0 }), /mirrorConfig\.videoBitRate/);
  assert.throws(() => make({ idleTimeoutMs: -1 }), /mirrorConfig\.idleTimeoutMs/);
  assert.throws(() => make({ videoResetFrameTimeoutMs: 0 }), /videoResetFrameTimeoutMs/);
  assert.throws(() => make({ enabled: "yes" }), /mirrorConfig\.enabled' must be a boolean/);
  // The SDK's argument errors, which are the built-in TypeError / RangeError too.
  assert.throws(() => make({ maxSize: -8 }), { name: "RangeError", code: "ARGUMENT_OUT_OF_RANGE" });
  assert.throws(() => make({ enabled: "yes" }), { name: "TypeError", code: "INVALID_ARGUMENT" });
  assert.equal(make({}).startFrameStream, undefined);
});
