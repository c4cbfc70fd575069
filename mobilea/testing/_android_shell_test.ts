import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  runShell,
  type ScreenElement,
  type SimulatorInput,
  type VirtualPhone,
} from "@sdk/web/testing";
import type { AndroidDevice } from "./_android_device.ts";
import { ANDROID_COMMANDS } from "./_android_shell.ts";

/** A phone that only records: enough for the shell's parsing and answers. */
function fakePhone(): VirtualPhone & { inputs: SimulatorInput[] } {
  const inputs: SimulatorInput[] = [];
  let foreground = "com.android.launcher3";
  const record = (input: SimulatorInput) => {
    inputs.push(input);
    return Promise.resolve();
  };
  return {
    width: 1080,
    height: 2400,
    density: 2.625,
    densityDpi: 420,
    model: "Simulator Phone",
    manufacturer: "SDK",
    inputs,
    packages: () => ["com.android.launcher3", "com.example.notes", "com.android.chrome"],
    activityOf: (name) =>
      name === "com.android.launcher3"
        ? "com.android.launcher3.Launcher"
        : name === "com.example.notes"
        ? "com.example.notes.MainActivity"
        : undefined,
    activitiesOf: (name) => name === "com.example.notes" ? ["com.example.notes.MainActivity"] : [],
    labelOf: (name) => name === "com.example.notes" ? "Notes" : undefined,
    runningApps: () => [],
    foregroundApp: () => ({
      packageName: foreground,
      activity: foreground === "com.example.notes"
        ? "com.example.notes.MainActivity"
        : "com.android.launcher3.Launcher",
    }),
    foregroundPage: () => {
      throw new Error("no page");
    },
    keyboardShown: () => Promise.resolve(false),
    screenshot: () => Promise.reject(new Error("no screen")),
    tap: (x, y) => record({ type: "tap", x, y }),
    swipe: (x1, y1, x2, y2, durationMs = 300) =>
      record({ type: "swipe", x1, y1, x2, y2, durationMs }),
    longPress: (x, y, durationMs = 600) => record({ type: "longPress", x, y, durationMs }),
    touch: (action, x, y) => record({ type: "touch", action, x, y }),
    multiTouch: (points) => record({ type: "multiTouch", points: [...points] }),
    inputText: (text) => record({ type: "text", text, method: "keys" }),
    commitText: (text) => record({ type: "text", text, method: "ime" }),
    clearText: () => record({ type: "clearText" }),
    keyEvent: (keyCode) => record({ type: "key", keyCode }),
    launchApp: (packageName) => {
      foreground = packageName;
      return record({ type: "launch", packageName });
    },
    stopApp: (packageName) => record({ type: "stop", packageName }),
    openUrl: (url) => record({ type: "openUrl", url }),
    close: () => Promise.resolve(),
  };
}

async function sh(line: string, phone = fakePhone()) {
  const device: AndroidDevice = {
    phone,
    commands: ANDROID_COMMANDS,
    properties: new Map([["ro.product.model", "Simulator Phone"]]),
    settings: new Map(),
    files: new Map(),
  };
  let out = "";
  let err = "";
  const decoder = new TextDecoder();
  const code = await runShell(line, device, {
    stdout: (d) => out += typeof d === "string" ? d : decoder.decode(d),
    stderr: (d) => err += typeof d === "string" ? d : decoder.decode(d),
  });
  return { out, err, code, phone, device };
}

test("input: tap, swipe, a still swipe as long press, text with %s, key names and codes", async () => {
  const { phone, code } = await sh(
    "input tap 540 300; input touchscreen swipe 1 2 300 4 500; input swipe 9 9 9 9 800; " +
      "input text 'hi%sthere'; input keyevent KEYCODE_BACK 3 ENTER; input motionevent DOWN 5 6",
  );
  assert.equal(code, 0);
  assert.deepEqual(phone.inputs, [
    { type: "tap", x: 540, y: 300 },
    { type: "swipe", x1: 1, y1: 2, x2: 300, y2: 4, durationMs: 500 },
    { type: "longPress", x: 9, y: 9, durationMs: 800 },
    { type: "text", text: "hi there", method: "keys" },
    { type: "key", keyCode: 4 },
    { type: "key", keyCode: 3 },
    { type: "key", keyCode: 66 },
    { type: "touch", action: "down", x: 5, y: 6 },
  ]);
  const bad = await sh("input tap 1");
  assert.equal(bad.code, 1);
  assert.match(bad.err, /Invalid arguments for command: tap/);
  assert.equal((await sh("input keyevent NOPE")).err, "Error: Unknown keycode: NOPE\n");
});

test("unknown commands answer like sh; exit codes combine through && and ||", async () => {
  assert.deepEqual(
    { ...(await sh("frobnicate x")), phone: undefined, device: undefined },
    {
      out: "",
      err: "/system/bin/sh: frobnicate: inaccessible or not found\n",
      code: 127,
      phone: undefined,
      device: undefined,
    },
  );
  assert.equal((await sh("false || echo yes && echo and")).out, "yes\nand\n");
  assert.equal((await sh("true && exit 7; echo never")).code, 7);
  assert.equal((await sh("echo x 1>&2")).err, "x\n");
  assert.equal((await sh("nope 2>&1")).out, "/system/bin/sh: nope: inaccessible or not found\n");
  assert.equal(
    (await sh("/system/bin/nope")).err,
    "/system/bin/sh: /system/bin/nope: inaccessible or not found\n",
  );
  assert.equal((await sh("sh -c 'echo inner'")).out, "inner\n");
  // A failure of the simulator itself is said on stderr, exit 1 (the fake phone has no screen).
  const broken = await sh("screencap -p; echo after");
  assert.deepEqual([broken.out, broken.err], ["after\n", "/system/bin/sh: simulator: no screen\n"]);
  // Variable assignments before a command are taken; only the yadb helper runs in app_process.
  const scrcpy = await sh(
    "CLASSPATH=/data/local/tmp/scrcpy-server.jar app_process / com.genymobile.scrcpy.Server 3.1",
  );
  assert.equal(scrcpy.code, 1);
  assert.match(scrcpy.err, /ClassNotFoundException: com\.genymobile\.scrcpy\.Server/);
});

test("pipes and files: grep, head, wc, redirection into the simulated file system", async () => {
  assert.equal((await sh("getprop | grep -o 'Simulator [A-Za-z]*'")).out, "Simulator Phone\n");
  assert.equal((await sh("pm list packages | head -n 1")).out, "package:com.android.launcher3\n");
  assert.equal((await sh("pm list packages | wc -l")).out, "3\n");
  const { device } = await sh("echo saved > /sdcard/a.txt; echo more >> /sdcard/a.txt");
  assert.equal(new TextDecoder().decode(device.files.get("/sdcard/a.txt")), "saved\nmore\n");
  assert.equal((await sh("cat /sdcard/none")).code, 1);
});

test("device queries: wm, getprop, dumpsys window and activity, am start errors", async () => {
  assert.equal((await sh("wm size")).out, "Physical size: 1080x2400\n");
  assert.equal((await sh("cmd window density")).out, "Physical density: 420\n");
  assert.equal((await sh("getprop ro.product.model")).out, "Simulator Phone\n");
  assert.equal((await sh("getprop no.such.prop")).out, "\n");
  const started = await sh("am start -n com.example.notes/.MainActivity && dumpsys window");
  assert.match(started.out, /Starting: Intent \{ cmp=com\.example\.notes\/\.MainActivity \}/);
  assert.match(
    started.out,
    /mCurrentFocus=Window\{\w+ u0 com\.example\.notes\/com\.example\.notes\.MainActivity\}/,
  );
  const missing = await sh("am start -n com.example.other/.Main");
  assert.equal(missing.code, 1);
  assert.match(missing.err, /Activity class \{com\.example\.other\/com\.example\.other\.Main\}/);
  const web = await sh("am start -a android.intent.action.VIEW -d https://example.com/");
  assert.deepEqual(web.phone.inputs, [{ type: "openUrl", url: "https://example.com/" }]);
  const monkey = await sh("monkey -p com.example.none 1");
  assert.equal(monkey.code, 252);
});

test("input swipe: Android's touch slop (8 dp) and long-press timeout (400 ms) tell tap, long press and swipe apart", async () => {
  // 8 dp at density 2.625 is 21 physical pixels.
  const { phone } = await sh(
    "input swipe 100 100 100 100 150; input swipe 100 100 120 100 399; " +
      "input swipe 100 100 100 121 400; input swipe 100 100 100 122 150; input swipe 5 5 5 5",
  );
  assert.deepEqual(phone.inputs, [
    { type: "tap", x: 100, y: 100 },
    { type: "tap", x: 100, y: 100 },
    { type: "longPress", x: 100, y: 100, durationMs: 400 },
    { type: "swipe", x1: 100, y1: 100, x2: 100, y2: 122, durationMs: 150 },
    // The default duration, 300 ms, is under the timeout: a swipe in place is a tap.
    { type: "tap", x: 5, y: 5 },
  ]);
  // The timeout is the secure setting long_press_timeout, as ViewConfiguration reads it.
  const slow = await sh("settings put secure long_press_timeout 1000; input swipe 7 7 7 7 800");
  assert.deepEqual(slow.phone.inputs, [{ type: "tap", x: 7, y: 7 }]);
});

test("cmd package: resolve-activity --brief / --components, list packages with appium-adb's options", async () => {
  const brief = await sh("cmd package resolve-activity --brief com.example.notes");
  assert.deepEqual([brief.code, brief.out], [
    0,
    "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n" +
    "com.example.notes/.MainActivity\n",
  ]);
  assert.equal(
    (await sh(
      "pm resolve-activity --components -a android.intent.action.MAIN " +
        "-c android.intent.category.LAUNCHER com.example.notes",
    )).out,
    "com.example.notes/.MainActivity\n",
  );
  assert.equal(
    (await sh("cmd package resolve-activity --brief -n com.example.notes/.MainActivity")).out
      .split("\n")[1],
    "com.example.notes/.MainActivity",
  );
  const none = await sh("cmd package resolve-activity --brief com.example.none");
  assert.deepEqual([none.code, none.out], [0, "No activity found\n"]);
  assert.equal(
    (await sh("cmd package list packages --show-versioncode --user 0 -3")).out,
    "package:com.example.notes versionCode:1\n",
  );
  assert.equal(
    (await sh("pm list packages -U -s chrome")).out,
    "package:com.android.chrome uid:10002\n",
  );
  assert.equal(
    (await sh("pm list packages -f -i notes")).out,
    "package:/data/app/com.example.notes-1/base.apk=com.example.notes  installer=null\n",
  );
  const bad = await sh("pm list packages -x");
  assert.deepEqual([bad.code, bad.err], [255, "Error: Unknown option: -x\n"]);
});

test("toybox date: strftime conversions, %N and %3N, %:z, -u, -I and -d @SECONDS", async () => {
  const at = "-u -d @1704632709.123456789";
  assert.equal((await sh(`date ${at} +%s%3N`)).out, "1704632709123\n");
  assert.equal(
    (await sh(`date ${at} '+%F %T.%N %z %:z %Z'`)).out,
    "2024-01-07 13:05:09.123456789 +0000 +00:00 UTC\n",
  );
  assert.equal(
    (await sh(`date ${at} '+%a %b %e %j %V %u %I %p'`)).out,
    "Sun Jan  7 007 01 7 01 PM\n",
  );
  assert.equal((await sh(`date ${at} -Is`)).out, "2024-01-07T13:05:09+00:00\n");
  assert.equal((await sh(`date ${at}`)).out, "Sun Jan  7 13:05:09 UTC 2024\n");
  // Now, in milliseconds: a 13-digit number within a second of the host's clock.
  const now = Number((await sh("date +%s%3N")).out);
  assert.ok(Math.abs(now - Date.now()) < 1000, `date +%s%3N gave ${now}`);
});

/** A phone showing the notes app, whose page answers `readScreenElements` with `children`. */
function phoneShowing(children: ScreenElement[]): ReturnType<typeof fakePhone> {
  const phone = fakePhone();
  return {
    ...phone,
    foregroundApp: () => ({
      packageName: "com.example.notes",
      activity: "com.example.notes.MainActivity",
    }),
    foregroundPage: () =>
      ({
        evaluate: () => Promise.resolve({ width: 412, height: 915, location: "/", children }),
      }) as unknown as ReturnType<VirtualPhone["foregroundPage"]>,
  };
}

function element(over: Partial<ScreenElement>): ScreenElement {
  return {
    kind: "column",
    rect: { left: 0, top: 0, right: 100, bottom: 40 },
    text: "",
    id: "",
    description: "",
    hint: "",
    password: false,
    checkable: false,
    checked: false,
    clickable: false,
    enabled: true,
    focused: false,
    scrollable: false,
    selected: false,
    opacity: 1,
    backgroundColor: "#00000000",
    zIndex: 0,
    children: [],
    ...over,
  };
}

test("uiautomator dump: the XML AccessibilityNodeInfoDumper writes, to the file, then the message", async () => {
  const row = (n: number, top: number) =>
    element({
      kind: "listItem",
      id: `note-${n}`,
      text: `Note ${n}`,
      clickable: true,
      rect: { left: 0, top, right: 412, bottom: top + 64 },
    });
  const phone = phoneShowing([
    element({
      kind: "row",
      rect: { left: 0, top: 0, right: 412, bottom: 56 },
      children: [
        element({
          kind: "text",
          text: 'Notes & "more"',
          rect: { left: 16, top: 16, right: 80, bottom: 40 },
        }),
        element({ kind: "button", text: "\u2190", description: "Back", clickable: true }),
        element({ kind: "button", clickable: true, id: "icon" }),
      ],
    }),
    element({
      kind: "list",
      rect: { left: 0, top: 56, right: 412, bottom: 4000 },
      children: [row(1, 56), row(2, 120), row(60, 3900)],
    }),
    element({
      kind: "textInput",
      hint: "Write something",
      rect: { left: 0, top: 900, right: 412, bottom: 948 },
    }),
    element({
      kind: "textInput",
      password: true,
      text: "pw\u00e9",
      rect: { left: 0, top: 800, right: 412, bottom: 848 },
    }),
  ]);
  const { out, err, code, device } = await sh("uiautomator dump", phone);
  assert.deepEqual([out, err, code], ["UI hierchary dumped to: /sdcard/window_dump.xml\n", "", 0]);
  const xml = new TextDecoder().decode(device.files.get("/sdcard/window_dump.xml"));
  const flags = 'checkable="false" checked="false" clickable="false" enabled="true" ' +
    'focusable="false" focused="false" scrollable="false" long-clickable="false" ' +
    'password="false" selected="false"';
  assert.ok(
    xml.startsWith(
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" +
        '<hierarchy rotation="0"><node index="0" text="" resource-id="" ' +
        `class="android.widget.FrameLayout" package="com.example.notes" content-desc="" ${flags} ` +
        'bounds="[0,0][1080,2400]"><node index="0" text="" resource-id="" ' +
        `class="android.widget.LinearLayout" package="com.example.notes" content-desc="" ${flags} ` +
        'bounds="[0,0][1080,2400]"><node index="0" text="" resource-id="android:id/content" ' +
        `class="android.widget.FrameLayout" package="com.example.notes" content-desc="" ${flags} ` +
        'bounds="[0,0][1080,2400]">',
    ),
    xml.slice(0, 900),
  );
  assert.ok(xml.endsWith("</node></node></node></hierarchy>"));
  // Text escaped as KXmlSerializer does; bounds in physical pixels (x 2.625) clipped to the
  // screen; a row off screen is left out; a clickable node without any text is NAF.
  assert.match(
    xml,
    /<node index="0" text="Notes &amp; &quot;more&quot;" resource-id="" class="android\.widget\.TextView" [^>]*bounds="\[42,42\]\[210,105\]" \/>/,
  );
  assert.match(
    xml,
    /<node index="1" text="\u2190" resource-id="" class="android\.widget\.Button" package="com\.example\.notes" content-desc="Back" checkable="false" checked="false" clickable="true" enabled="true" focusable="true"/,
  );
  assert.match(
    xml,
    /<node NAF="true" index="2" text="" resource-id="com\.example\.notes:id\/icon" class="android\.widget\.Button"/,
  );
  assert.match(
    xml,
    /<node index="1" text="" resource-id="" class="android\.widget\.ListView" [^>]*bounds="\[0,147\]\[1080,2400\]">/,
  );
  assert.match(
    xml,
    /<node index="0" text="Note 1" resource-id="com\.example\.notes:id\/note-1" class="android\.widget\.TextView" [^>]*bounds="\[0,147\]\[1080,315\]" \/>/,
  );
  assert.doesNotMatch(xml, /Note 60/);
  // An empty field's text is its hint; a password's its dots.
  assert.match(xml, /text="Write something" resource-id="" class="android\.widget\.EditText"/);
  assert.match(xml, /text="\u2022\u2022\u2022" [^>]*password="true"/);
  // Another file; /dev/tty (no terminal) is not written, the message printed all the same.
  const other = await sh(
    "uiautomator dump --compressed /data/local/tmp/d.xml && cat /data/local/tmp/d.xml",
    phone,
  );
  assert.ok(other.out.startsWith("UI hierchary dumped to: /data/local/tmp/d.xml\n<?xml "));
  const tty = await sh("uiautomator dump /dev/tty", phone);
  assert.deepEqual([tty.out, tty.device.files.size], ["UI hierchary dumped to: /dev/tty\n", 0]);
});

test("uiautomator without a known subcommand prints its help on stderr, exit code 0", async () => {
  const { out, err, code } = await sh("uiautomator");
  assert.deepEqual([out, code], ["", 0]);
  assert.match(
    err,
    /^Usage: uiautomator <subcommand> \[options\]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: /,
  );
  assert.match(
    err,
    /\ndump: creates an XML dump of current UI hierarchy\n {4}dump \[--verbose\]\[file\]\n/,
  );
  assert.match(
    err,
    /default is\n {6}\/sdcard\/window_dump\.xml\n\nevents: prints out accessibility events until terminated\n\n$/,
  );
});
