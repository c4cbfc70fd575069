/// <reference lib="dom" />
/**
 * The device simulator's adb front, driven by the real `adb` (Debian's adb 29): a virtual phone
 * (1080 x 2400 physical pixels at density 2.625) behind the adb front on a free port, a private
 * adb server on another free port (`adb -P`), `adb connect`, then adb commands whose effects are
 * asserted on the phone's page.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { LAUNCHER_PACKAGE, startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type AdbRun, type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const MOBILE_APPS_DIR = fileURLToPath(new URL("../fixtures/mobile/", import.meta.url));
const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const DENSITY = 2.625;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: AdbFront;
let server: PrivateAdbServer;

/** Runs `adb -P <private server port> ...args`. */
const adb = (...args: string[]): Promise<AdbRun> => server.run(args);

/** Runs `adb -P <port> ...args` with `input` on its standard input. */
const adbWithInput = (input: string, ...args: string[]): Promise<AdbRun> => server.run(args, input);

/** `adb -s <simulator> shell <command>`: its stdout as text, and the exit code. */
async function shell(command: string): Promise<{ out: string; err: string; code: number }> {
  const run = await adb("-s", front.serial, "shell", command);
  return { out: run.stdout.toString(), err: run.stderr, code: run.code };
}

/** The physical-pixel center of an element of the foreground page. */
async function centerOf(selector: string): Promise<[number, number]> {
  const box = await phone.foregroundPage().locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  return [
    Math.round((box.x + box.width / 2) * DENSITY),
    Math.round((box.y + box.height / 2) * DENSITY),
  ];
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts the notes app afresh, on its list screen. */
async function freshNotes(): Promise<void> {
  assert.equal((await shell(`am force-stop ${NOTES}`)).code, 0);
  assert.equal((await shell(`am start -n ${NOTES}/.MainActivity`)).code, 0);
  assert.equal(phone.foregroundApp().packageName, NOTES);
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(MOBILE_APPS_DIR);
  phone = await startVirtualPhone({
    browser,
    width: 1080,
    height: 2400,
    density: DENSITY,
    apps: {
      [NOTES]: {
        url: `${apps.url}notes/index.html`,
        label: "Notes",
        activities: { ".NoteActivity": `${apps.url}notes/index.html#/note/5` },
      },
      [SETTINGS]: { url: `${apps.url}settings/index.html`, label: "Settings" },
    },
  });
  front = await startAdbFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(front.serial);
});

after(async () => {
  await server?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

test("adb devices -l lists the simulator with the product, model and device of its banner", async () => {
  const { stdout } = await adb("devices", "-l");
  const line = stdout.toString().split("\n").find((l) => l.startsWith(front.serial));
  assert.ok(line, stdout.toString());
  assert.match(line, /\sdevice\s+product:simulator_phone model:Simulator_Phone device:simulator/);
});

test("wm size, wm density and getprop answer from the virtual phone", async () => {
  assert.equal((await shell("wm size")).out, "Physical size: 1080x2400\n");
  assert.equal((await shell("wm density")).out, "Physical density: 420\n");
  assert.equal((await shell("getprop ro.product.model")).out, "Simulator Phone\n");
  assert.equal((await shell("getprop ro.build.version.sdk")).out, "34\n");
  const all = (await shell("getprop")).out;
  assert.match(all, /^\[ro\.product\.model\]: \[Simulator Phone\]$/m);
});

test("adb exec-out screencap -p returns the page as a PNG of 1080 x 2400 physical pixels", async () => {
  await freshNotes();
  const run = await adb("-s", front.serial, "exec-out", "screencap -p");
  assert.equal(run.code, 0, run.stderr);
  const png = PNG.sync.read(run.stdout);
  assert.deepEqual([png.width, png.height], [1080, 2400]);
  // The notes app's blue header (56 CSS px = 147 physical px high) is at the top.
  const at = (
    x: number,
    y: number,
  ) => [...png.data.subarray((y * 1080 + x) * 4, (y * 1080 + x) * 4 + 3)];
  assert.deepEqual(at(540, 70), [0x1a, 0x73, 0xe8]);
  assert.deepEqual(at(540, 1000), [0xff, 0xff, 0xff]);
  // Without -p: the raw format (width, height, format 1 = RGBA_8888, data space, then pixels).
  const raw = await adb("-s", front.serial, "exec-out", "screencap");
  assert.equal(raw.stdout.length, 16 + 1080 * 2400 * 4);
  assert.deepEqual([0, 4, 8].map((at) => raw.stdout.readUInt32LE(at)), [1080, 2400, 1]);
  // `shell screencap -p` (shell protocol v2) gives the same bytes' format, unmangled.
  const viaShell = await adb("-s", front.serial, "shell", "screencap -p");
  assert.deepEqual(
    [PNG.sync.read(viaShell.stdout).width, PNG.sync.read(viaShell.stdout).height],
    [1080, 2400],
  );
});

test("shell input tap lands on the element at its physical coordinates", async () => {
  await freshNotes();
  const [x, y] = await centerOf("#note-3");
  const { code } = await shell(`input tap ${x} ${y}`);
  assert.equal(code, 0);
  const page = phone.foregroundPage();
  await waitFor(async () => (await page.textContent("#detail-title")) === "Note 3", "Note 3");
  assert.equal(await page.evaluate(() => location.hash), "#/note/3");
  const [ix, iy] = await centerOf("#increment");
  await shell(`input tap ${ix} ${iy}`);
  await shell(`input tap ${ix} ${iy}`);
  await waitFor(async () => (await page.textContent("#count")) === "2", "the counter at 2");
  assert.deepEqual(phone.inputs.filter((i) => i.type === "tap").slice(-3), [
    { type: "tap", x, y },
    { type: "tap", x: ix, y: iy },
    { type: "tap", x: ix, y: iy },
  ]);
});

test("shell input text types ASCII with %s for spaces; keyevent DEL and ENTER edit it", async () => {
  await freshNotes();
  const page = phone.foregroundPage();
  const [x, y] = await centerOf("#note-1");
  await shell(`input tap ${x} ${y}`);
  await waitFor(() => page.isVisible("#note-text"), "the text field");
  const [fx, fy] = await centerOf("#note-text");
  await shell(`input tap ${fx} ${fy}`);
  await waitFor(() => page.evaluate(() => document.activeElement?.id === "note-text"), "focus");
  assert.match((await shell("dumpsys input_method")).out, /mInputShown=true/);
  // Only the first argument is typed, as on Android; the quotes make it one argument.
  assert.equal((await shell("input text 'hello%sworld!'")).code, 0);
  assert.equal(await page.inputValue("#note-text"), "hello world!");
  assert.equal((await shell("input keyevent 67")).code, 0);
  assert.equal(await page.inputValue("#note-text"), "hello world");
  await shell("input keyevent KEYCODE_ENTER");
  assert.equal(await page.textContent("#submitted"), "Submitted: hello world");
  // Non-ASCII text fails as on a device (no key events for it): nothing is typed.
  const accented = await shell("input text 'café'");
  assert.equal(accented.code, 255);
  assert.match(accented.err, /NullPointerException/);
  assert.equal(await page.inputValue("#note-text"), "hello world");
});

test("keyevent BACK hides the keyboard, then walks back, then leaves the app for home", async () => {
  await freshNotes();
  const page = phone.foregroundPage();
  const [x, y] = await centerOf("#note-2");
  await shell(`input tap ${x} ${y}`);
  await waitFor(() => page.isVisible("#note-text"), "the text field");
  const [fx, fy] = await centerOf("#note-text");
  await shell(`input tap ${fx} ${fy}`);
  await waitFor(() => phone.keyboardShown(), "the keyboard");
  await shell("input keyevent 4");
  assert.match((await shell("dumpsys input_method")).out, /mInputShown=false/);
  assert.equal(await page.evaluate(() => location.hash), "#/note/2");
  await shell("input keyevent 4");
  await waitFor(() => page.evaluate(() => location.hash === ""), "the list screen");
  await shell("input keyevent KEYCODE_BACK");
  const focus = (await shell("dumpsys window | grep mCurrentFocus")).out;
  assert.match(focus, new RegExp(`${LAUNCHER_PACKAGE}/${LAUNCHER_PACKAGE}\\.Launcher`));
  // The app went to the background, not away.
  assert.deepEqual(phone.runningApps()[0], NOTES);
});

test("am start, monkey, am force-stop, HOME and APP_SWITCH show in the foreground app", async () => {
  const focused = async () => {
    const out = (await shell("dumpsys activity activities | grep mResumedActivity")).out;
    return / u0 (\S+) t\d+\}/.exec(out)?.[1];
  };
  const start = await shell(`am start -W -n ${SETTINGS}/.MainActivity`);
  assert.equal(start.code, 0, start.err);
  assert.match(start.out, /Starting: Intent \{ cmp=com\.example\.settings\/\.MainActivity \}/);
  assert.match(start.out, /Status: ok/);
  assert.equal(await focused(), `${SETTINGS}/.MainActivity`);
  const monkey = await shell(`monkey -p ${NOTES} -c android.intent.category.LAUNCHER 1`);
  assert.equal(monkey.code, 0, monkey.err);
  assert.match(monkey.out, /Events injected: 1/);
  assert.equal(await focused(), `${NOTES}/.MainActivity`);
  await shell("input keyevent 187");
  assert.equal(await focused(), `${LAUNCHER_PACKAGE}/com.android.quickstep.RecentsActivity`);
  assert.ok(await phone.foregroundPage().isVisible(`[data-package="${SETTINGS}"]`));
  await shell("input keyevent 3");
  assert.equal(await focused(), `${LAUNCHER_PACKAGE}/.Launcher`);
  assert.equal((await shell(`am force-stop ${SETTINGS}`)).code, 0);
  assert.ok(!phone.runningApps().includes(SETTINGS));
  const missing = await shell("am start -n com.example.missing/.MainActivity");
  assert.equal(missing.code, 1);
  assert.match(missing.err, /does not exist/);
  const packages = (await shell("pm list packages -3")).out;
  assert.equal(packages, `package:${NOTES}\npackage:${SETTINGS}\n`);
});

test("am start of another activity opens it on top; BACK returns to the activity before", async () => {
  await freshNotes();
  const resumed = async () =>
    / u0 (\S+) t\d+\}/.exec((await shell("dumpsys activity activities")).out)?.[1];
  assert.equal(await resumed(), `${NOTES}/.MainActivity`);
  const start = await shell(`am start -n ${NOTES}/.NoteActivity`);
  assert.equal(start.code, 0, start.err);
  const page = phone.foregroundPage();
  await waitFor(async () => (await page.textContent("#detail-title")) === "Note 5", "Note 5");
  assert.equal(await resumed(), `${NOTES}/.NoteActivity`);
  await shell("input keyevent BACK");
  await waitFor(() => page.evaluate(() => location.hash === ""), "the list");
  assert.equal(await resumed(), `${NOTES}/.MainActivity`);
  const missing = await shell(`am start -n ${NOTES}/.NoSuchActivity`);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /com\.example\.notes\.NoSuchActivity\} does not exist/);
});

test("a tap on a launcher icon launches its app", async () => {
  await shell("input keyevent HOME");
  const [x, y] = await centerOf(`[data-package="${SETTINGS}"]`);
  await shell(`input tap ${x} ${y}`);
  await waitFor(() => phone.foregroundApp().packageName === SETTINGS, "the settings app");
  const [wx, wy] = await centerOf("#wifi");
  await shell(`input tap ${wx} ${wy}`);
  await waitFor(
    async () => (await phone.foregroundPage().textContent("#wifi-status")) === "Wi-Fi is on",
    "Wi-Fi on",
  );
});

test("input swipe scrolls the list; a swipe that stays put is a long press", async () => {
  await freshNotes();
  const page = phone.foregroundPage();
  assert.equal((await shell("input swipe 540 2000 540 700 300")).code, 0);
  await waitFor(() => page.evaluate(() => scrollY > 300), "the list to scroll");
  // Let the fling come to rest before measuring the item to press.
  let last = -1;
  await waitFor(async () => {
    const now = await page.evaluate(() => scrollY);
    const still = now === last;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return still;
  }, "the list to stop scrolling");
  // The note in the middle of the screen now, pressed for 700 ms.
  const id = await page.evaluate(() =>
    document.elementFromPoint(innerWidth / 2, innerHeight / 2)!.id
  );
  assert.match(id, /^note-\d+$/);
  assert.notEqual(id, "note-7", "the list scrolled");
  const [x, y] = await centerOf(`#${id}`);
  await shell(`input swipe ${x} ${y} ${x} ${y} 700`);
  assert.equal(await page.getAttribute(`#${id}`, "data-pinned"), "true");
  assert.equal(await page.evaluate(() => location.hash), "");
  assert.deepEqual(phone.inputs.at(-1), { type: "longPress", x, y, durationMs: 700 });
});

test("input motionevent DOWN, MOVE and UP drive one finger by hand", async () => {
  await freshNotes();
  const page = phone.foregroundPage();
  const steps = [2000, 1800, 1600, 1400, 1200, 1000].map((y) => `input motionevent MOVE 540 ${y}`);
  const run = await shell(
    ["input motionevent DOWN 540 2100", ...steps, "input motionevent UP 540 1000"].join("; "),
  );
  assert.equal(run.code, 0, run.err);
  await waitFor(() => page.evaluate(() => scrollY > 200), "the list to follow the finger");
  assert.deepEqual(phone.inputs.at(-1), { type: "touch", action: "up", x: 540, y: 1000 });
});

test("shell exit codes and errors travel through shell protocol v2", async () => {
  const unknown = await shell("xyz --help");
  assert.equal(unknown.code, 127);
  assert.equal(unknown.err, "/system/bin/sh: xyz: inaccessible or not found\n");
  assert.equal((await shell("exit 3")).code, 3);
  assert.equal((await shell("echo a && false || echo b")).out, "a\nb\n");
  assert.equal((await shell("echo hidden > /dev/null; echo shown")).out, "shown\n");
  assert.equal((await shell("xyz 2>/dev/null")).err, "");
  const piped = await shell("getprop | grep -c ro.product");
  assert.ok(Number(piped.out.trim()) >= 5, piped.out);
  assert.ok(front.services.some((s) => s.startsWith("shell,v2,")), front.services.join("\n"));
});

test("round trips through the real adb: timings of screencap and tap", async () => {
  await freshNotes();
  const shots: number[] = [];
  const taps: number[] = [];
  for (let i = 0; i < 5; i++) {
    shots.push((await adb("-s", front.serial, "exec-out", "screencap -p")).ms);
    taps.push((await adb("-s", front.serial, "shell", "input tap 540 2300")).ms);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `adb round trips (median of 5): exec-out screencap -p ${median(shots).toFixed(0)} ms, ` +
      `shell input tap ${median(taps).toFixed(0)} ms`,
  );
  assert.ok(median(shots) < 5000);
});

test("with auth 'accept-any-key' the adb server signs the token and the device comes online", async () => {
  const secure = await startAdbFront(phone, { auth: "accept-any-key" });
  try {
    await adb("connect", secure.serial);
    await waitFor(async () => {
      const devices = (await adb("devices")).stdout.toString();
      return devices.includes(`${secure.serial}\tdevice`);
    }, "the secure front to be online");
    const run = await adb("-s", secure.serial, "shell", "wm size");
    assert.equal(run.stdout.toString(), "Physical size: 1080x2400\n");
  } finally {
    await adb("disconnect", secure.serial);
    await secure.close();
  }
});

test("adb shell without a command reads command lines from stdin, as sh does", async () => {
  const run = await adbWithInput("wm size\necho hi\nxyz\nexit 4\n", "-s", front.serial, "shell");
  assert.equal(run.stdout.toString(), "Physical size: 1080x2400\nhi\n");
  assert.equal(run.stderr, "/system/bin/sh: xyz: inaccessible or not found\n");
  assert.equal(run.code, 4);
});

test("adb push and pull go through the sync service to the simulator's file system", async () => {
  const dir = await mkdtemp(join(tmpdir(), "adb-sim-"));
  try {
    const local = join(dir, "blob.bin");
    const blob = new Uint8Array(200_000).map((_, i) => (i * 7) & 0xff);
    await writeFile(local, blob);
    const push = await adb("-s", front.serial, "push", local, "/data/local/tmp/blob.bin");
    assert.equal(push.code, 0, push.stderr);
    assert.equal((await shell("ls /data/local/tmp/blob.bin")).out, "/data/local/tmp/blob.bin\n");
    const pull = await adb("-s", front.serial, "pull", "/data/local/tmp/blob.bin", `${local}.back`);
    assert.equal(pull.code, 0, pull.stderr);
    assert.deepEqual(new Uint8Array(await readFile(`${local}.back`)), blob);
    // A screenshot written on the device, then pulled.
    assert.equal((await shell("screencap -p /sdcard/shot.png")).code, 0);
    const shot = await adb("-s", front.serial, "pull", "/sdcard/shot.png", join(dir, "s.png"));
    assert.equal(shot.code, 0, shot.stderr);
    const png = PNG.sync.read(await readFile(join(dir, "s.png")));
    assert.deepEqual([png.width, png.height], [1080, 2400]);
    const missing = await adb("-s", front.serial, "pull", "/sdcard/missing.txt", dir);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr + missing.stdout.toString(), /does not exist/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("uiautomator dump writes the window's hierarchy as tools pull and parse it, boxes measured in the page", async () => {
  await freshNotes();
  const dumped = await shell("uiautomator dump");
  assert.deepEqual(dumped, {
    out: "UI hierchary dumped to: /sdcard/window_dump.xml\n",
    err: "",
    code: 0,
  });
  const dir = await mkdtemp(join(tmpdir(), "adb-sim-"));
  try {
    const pull = await adb("-s", front.serial, "pull", "/sdcard/window_dump.xml", dir);
    assert.equal(pull.code, 0, pull.stderr);
    const xml = await readFile(join(dir, "window_dump.xml"), "utf8");
    assert.match(
      xml,
      /^<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation="0"><node /,
    );
    // Note 3 as a TextView of the app's package with its resource id; its bounds are the page's
    // box of #note-3 in physical pixels (CSS pixels x 2.625, rounded), clipped to the screen
    const note = /<node [^>]*resource-id="com\.example\.notes:id\/note-3"[^>]*>/.exec(xml)?.[0];
    assert.ok(note, "no node for #note-3");
    assert.match(note, / text="Note 3" /);
    assert.match(note, / class="android\.widget\.TextView" package="com\.example\.notes" /);
    const box = (await phone.foregroundPage().locator("#note-3").boundingBox())!;
    // (the page is 412 CSS pixels wide: its right edge, 1082, is clipped to the screen's 1080).
    const edges = [box.x, box.y, box.x + box.width, box.y + box.height]
      .map((v, i) => Math.min(Math.round(v * DENSITY), i % 2 ? 2400 : 1080));
    assert.match(
      note,
      new RegExp(` bounds="\\[${edges[0]},${edges[1]}\\]\\[${edges[2]},${edges[3]}\\]"`),
    );
    // Only what is on screen: Note 30 is below the fold.
    assert.doesNotMatch(xml, /Note 30/);
    // Tapping the center of the bounds opens the note, as a tool reading the dump would do.
    const [l, t, r, b] = note.match(/bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/)!.slice(1).map(
      Number,
    );
    await shell(`input tap ${Math.round((l + r) / 2)} ${Math.round((t + b) / 2)}`);
    await waitFor(() => phone.foregroundPage().url().endsWith("#/note/3"), "the detail of Note 3");
    // The address changes before the page draws the detail: wait for its field.
    await waitFor(() => phone.foregroundPage().isVisible("#note-text"), "the detail's text field");
    // Dumped and printed in one command, as MobileA's target checks read it.
    const both = await shell(
      "uiautomator dump /data/local/tmp/d.xml && cat /data/local/tmp/d.xml",
    );
    assert.match(both.out, /^UI hierchary dumped to: \/data\/local\/tmp\/d\.xml\n<\?xml /);
    assert.match(both.out, /class="android\.widget\.EditText"[^>]*focusable="true"/);
    assert.doesNotMatch(both.out, /id\/note-3"/, "the hidden list is not dumped");
    assert.match(both.out, /text="Note 3" resource-id="com\.example\.notes:id\/detail-title"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the yadb helper, once pushed, commits any Unicode text through app_process", async () => {
  await freshNotes();
  const page = phone.foregroundPage();
  const [x, y] = await centerOf("#note-4");
  await shell(`input tap ${x} ${y}`);
  await waitFor(() => page.isVisible("#note-text"), "the text field");
  const [fx, fy] = await centerOf("#note-text");
  await shell(`input tap ${fx} ${fy}`);
  await waitFor(() => phone.keyboardShown(), "the keyboard");
  const yadb = "app_process -Djava.class.path=/data/local/tmp/yadb /data/local/tmp " +
    "com.ysbing.yadb.Main -keyboard";
  const before = await shell(`${yadb} 'x'`);
  assert.equal(before.code, 1, "not pushed yet");
  assert.match(before.err, /ClassNotFoundException/);
  const dir = await mkdtemp(join(tmpdir(), "adb-sim-"));
  try {
    await writeFile(join(dir, "yadb"), "a stand-in for the yadb dex");
    const push = await adb("-s", front.serial, "push", join(dir, "yadb"), "/data/local/tmp/yadb");
    assert.equal(push.code, 0, push.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  assert.equal((await shell(`${yadb} '你好 café %s'`)).code, 0);
  assert.equal(await page.inputValue("#note-text"), "你好 café %s");
  assert.deepEqual(phone.inputs.at(-1), { type: "text", text: "你好 café %s", method: "ime" });
  assert.equal((await shell(`${yadb} '~CLEAR~'`)).code, 0);
  assert.equal(await page.inputValue("#note-text"), "");
  const yadbRoot = yadb.replace(/ -keyboard$/, "");
  assert.equal((await shell(`${yadbRoot} -screenshot /data/local/tmp/forced.png`)).code, 0);
  assert.equal((await shell("ls /data/local/tmp/forced.png")).code, 0);
  assert.equal((await shell(`${yadbRoot} -writeClipboard 'copied text'`)).code, 0);
  assert.equal((await shell(`${yadbRoot} -readClipboard`)).out, "copied text\n");
});

test("setShellCommand replaces, adds and removes shell commands, e.g. a failing screencap", async () => {
  try {
    front.setShellCommand("screencap", (_args, io) => {
      io.stderr("screencap: capture failed\n");
      return 1;
    });
    front.setShellCommand("hello", (args, io) => {
      io.stdout(`hello ${args.join(",")} ${io.phone.width}\n`);
      return 0;
    });
    front.setShellCommand("wm", null);
    const failed = await shell("screencap -p");
    assert.deepEqual([failed.out, failed.err, failed.code], ["", "screencap: capture failed\n", 1]);
    // exec: has one output stream: stderr arrives with stdout, as adbd's raw exec gives it.
    const exec = await adb("-s", front.serial, "exec-out", "screencap -p");
    assert.equal(exec.stdout.toString(), "screencap: capture failed\n");
    assert.equal((await shell("hello 'a b' c")).out, "hello a b,c 1080\n");
    assert.equal((await shell("wm size")).code, 127);
  } finally {
    front.setShellCommand("screencap", undefined);
    front.setShellCommand("hello", undefined);
    front.setShellCommand("wm", undefined);
  }
  assert.equal((await shell("wm size")).out, "Physical size: 1080x2400\n");
  assert.equal((await shell("hello")).code, 127);
});

test("a closed front is a device gone: adb commands to it fail and it leaves the list", async () => {
  const second = await startAdbFront(phone);
  await adb("connect", second.serial);
  await waitFor(
    async () => (await adb("devices")).stdout.toString().includes(`${second.serial}\tdevice`),
    "the second front to be online",
  );
  await second.close();
  const run = await adb("-s", second.serial, "shell", "wm size");
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /not found|offline|closed/);
  await waitFor(
    async () => !(await adb("devices")).stdout.toString().includes(`${second.serial}\tdevice`),
    "the second front to leave the device list",
  );
  await adb("disconnect", second.serial);
});

test("refuseService makes the device refuse a service, as adbd refuses an unknown one", async () => {
  const picky = await startAdbFront(phone, { refuseService: (s) => s.startsWith("exec:") });
  try {
    await adb("connect", picky.serial);
    await waitFor(
      async () => (await adb("devices")).stdout.toString().includes(`${picky.serial}\tdevice`),
      "the picky front to be online",
    );
    const refused = await adb("-s", picky.serial, "exec-out", "echo hi");
    assert.notEqual(refused.code, 0);
    assert.equal(refused.stdout.length, 0);
    const run = await adb("-s", picky.serial, "shell", "echo hi");
    assert.equal(run.stdout.toString(), "hi\n");
  } finally {
    await adb("disconnect", picky.serial);
    await picky.close();
  }
});

test("startVirtualPhone rejects an app that does not load, naming it, and leaves no context", async () => {
  const contexts = browser.contexts().length;
  await assert.rejects(
    startVirtualPhone({
      browser,
      apps: { "com.example.bad": "http://127.0.0.1:1/" },
      startApp: "com.example.bad",
    }),
    /the app com\.example\.bad did not load/,
  );
  assert.equal(browser.contexts().length, contexts);
  await assert.rejects(
    startVirtualPhone({ browser, density: 0 }),
    /density must be a positive number/,
  );
});
