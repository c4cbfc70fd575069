/**
 * Conformance of the adb front with clients no one here wrote, as a user's own tools talk to a
 * device: `@devicefarmer/adbkit` and the `adb` command line, both through the real adb server (a
 * private one, `adb -P <free port>`). They run what automation tools run on a device: device
 * listing, properties, features, packages, shell, screencap, push and pull, starting activities,
 * waiting for boot; and the answers appium-adb depends on (`cmd package resolve-activity --brief`,
 * `cmd package list packages --show-versioncode`, `date +%s%3N`), and Android's gestures told
 * apart by its touch slop and long-press timeout. adbkit runs in its own process, out of the
 * workspace's dependencies (tests/helpers/clients.ts).
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { type Clients, readableOf, type Remote, startClients } from "../helpers/clients.ts";

const NOTES = "com.example.notes";

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: AdbFront;
let server: PrivateAdbServer;
let clients: Clients;
let device: Remote;

/** adbkit's `Adb.util.readAll`: a stream's bytes. */
const readAll = (stream: Remote): Promise<Buffer> => clients.adbUtil.readAll(stream);

before(async () => {
  clients = await startClients();
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    apps: { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } },
    startApp: NOTES,
  });
  front = await startAdbFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(front.serial);
  device = await (await clients.adbkit.createClient({ host: "127.0.0.1", port: server.port }))
    .getDevice(front.serial);
});

after(async () => {
  await server?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
  await clients?.close();
});

/** adbkit's shell (the legacy `shell:` service): its output as text. */
async function kitShell(command: string): Promise<string> {
  return (await readAll(await device.shell(command))).toString();
}

/** `adb -s <simulator> shell <command>`: output and exit code (shell protocol v2). */
async function adbShell(command: string): Promise<{ out: string; err: string; code: number }> {
  const run = await server.run(["-s", front.serial, "shell", command]);
  return { out: run.text, err: run.stderr, code: run.code };
}

/**
 * `promise`, or an error naming `what` after 30 s: a step that hangs (the page, a client's
 * call) fails the test naming it instead of at the test's time limit (once, in CI, 5 minutes
 * with no clue which step it was).
 */
async function bounded<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within 30 s: ${what}`)), 30_000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await bounded(`a check while waiting for ${what}`, check()))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function freshNotes(): Promise<void> {
  await bounded("adbkit's am force-stop", kitShell(`am force-stop ${NOTES}`));
  await bounded(
    "adbkit's startActivity",
    device.startActivity({ component: `${NOTES}/.MainActivity`, wait: true }),
  );
  await waitFor(async () => (await phone.foregroundPage().$("#note-3")) !== null, "the list");
}

/** The center of an element of the page on screen, in physical pixels. */
async function centerOf(selector: string): Promise<[number, number]> {
  const box = (await phone.foregroundPage().locator(selector).boundingBox())!;
  return [
    Math.round((box.x + box.width / 2) * 2.625),
    Math.round((box.y + box.height / 2) * 2.625),
  ];
}

test("adbkit: the device, its state, properties, features, packages and boot", async () => {
  const client = await clients.adbkit.createClient({ host: "127.0.0.1", port: server.port });
  const devices = await client.listDevices();
  assert.ok(
    devices.some((d: { id: string; type: string }) => d.id === front.serial && d.type === "device"),
    JSON.stringify(devices),
  );
  assert.equal(await device.getState(), "device");
  const properties = await device.getProperties();
  assert.equal(properties["ro.build.version.sdk"], "34");
  assert.equal(properties["ro.product.model"], "Simulator Phone");
  const features = await device.getFeatures();
  assert.equal(features["android.hardware.touchscreen"], true);
  assert.equal(features["reqGlEsVersion"], "0x30002");
  const packages = await device.getPackages();
  assert.ok(packages.includes(NOTES), packages.join());
  assert.deepEqual(await device.getPackages("-3"), [NOTES]);
  assert.equal(await device.isInstalled(NOTES), true);
  assert.equal(await device.isInstalled("com.example.none"), false);
  // waitBootComplete runs `while getprop sys.boot_completed; do sleep 1; done` until it sees 1.
  assert.equal(await device.waitBootComplete(), true);
});

test("adbkit: shell, screencap, push and pull, start and clear an app", async () => {
  assert.equal(await kitShell("wm size"), "Physical size: 1080x2400\n");
  assert.equal(await kitShell("xyz"), "/system/bin/sh: xyz: inaccessible or not found\n");
  const png = PNG.sync.read(await readAll(await device.screencap()));
  assert.deepEqual([png.width, png.height], [1080, 2400]);
  const pushed = await device.push(readableOf(Buffer.from("hello from adbkit")), "/sdcard/kit.txt");
  await clients.waitEvent(pushed, "end");
  assert.equal(await kitShell("cat /sdcard/kit.txt"), "hello from adbkit");
  const stat = await device.stat("/sdcard/kit.txt");
  assert.equal(stat.size, 17);
  const pulled = await device.pull("/sdcard/kit.txt");
  assert.equal((await readAll(pulled)).toString(), "hello from adbkit");
  await device.startActivity({ component: `${NOTES}/.MainActivity`, wait: true });
  assert.equal(phone.foregroundApp().packageName, NOTES);
  await assert.rejects(
    device.startActivity({ component: "com.example.none/.Main" }),
    /Activity class \{com\.example\.none\/com\.example\.none\.Main\} does not exist/,
  );
  assert.equal(await device.clear(NOTES), true);
  assert.equal(phone.runningApps().includes(NOTES), false);
});

test("what appium-adb runs: resolve-activity --brief, list packages --show-versioncode, date +%s%3N", async () => {
  // appium-adb launches an app by package name through the activity this resolves.
  const resolved = await adbShell(`cmd package resolve-activity --brief ${NOTES}`);
  assert.equal(resolved.code, 0);
  const activity = resolved.out.split("\n").map((line) => line.trim())
    .find((line) => /^[\w.]+\/[\w.$]+$/.test(line));
  assert.equal(activity, `${NOTES}/.MainActivity`);
  assert.equal((await adbShell(`am start -W -n ${activity}`)).code, 0);
  assert.equal(phone.foregroundApp().packageName, NOTES);
  assert.equal(
    (await adbShell("cmd package resolve-activity --brief com.example.none")).out,
    "No activity found\n",
  );
  const listed = (await kitShell("cmd package list packages --show-versioncode --user 0"))
    .match(/^package:(\S+)(?:\s+versionCode:(\d+))?/gm);
  assert.ok(listed?.includes(`package:${NOTES} versionCode:1`), String(listed));
  // The device's time in milliseconds, as appium-adb reads it.
  const before = Date.now();
  const { out } = await adbShell("date +%s%3N");
  assert.match(out, /^\d{13}\n$/);
  assert.ok(Number(out) >= before - 1000 && Number(out) <= Date.now() + 1000, out);
});

test("input swipe: a 150 ms press in place is a tap, 700 ms a long press, beyond the slop a swipe", async () => {
  await freshNotes();
  const page = phone.foregroundPage();
  // Held 150 ms without moving: Android's tap (under the 400 ms long-press timeout).
  const [x, y] = await centerOf("#note-2");
  assert.equal((await adbShell(`input swipe ${x} ${y} ${x} ${y} 150`)).code, 0);
  assert.deepEqual(phone.inputs.at(-1), { type: "tap", x, y });
  await waitFor(async () => (await page.evaluate(() => location.hash)) === "#/note/2", "Note 2");
  await bounded("the page's goBack", page.goBack());
  await waitFor(async () => (await page.evaluate(() => location.hash)) === "", "the list");
  // Held 700 ms, moving 10 px (within 8 dp = 21 px): a long press, which pins the note.
  const [px, py] = await centerOf("#note-4");
  await adbShell(`input swipe ${px} ${py} ${px + 10} ${py} 700`);
  assert.deepEqual(phone.inputs.at(-1), { type: "longPress", x: px, y: py, durationMs: 700 });
  assert.equal(await page.getAttribute("#note-4", "data-pinned"), "true");
  // 30 px in 150 ms: beyond the slop, a swipe.
  await adbShell(`input swipe ${px} ${py} ${px} ${py - 30} 150`);
  assert.deepEqual(phone.inputs.at(-1), {
    type: "swipe",
    x1: px,
    y1: py,
    x2: px,
    y2: py - 30,
    durationMs: 150,
  });
});
