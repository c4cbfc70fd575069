import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { runShell, type SimulatorInput, type VirtualPhone } from "@sdk/web/testing";
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
    "input tap 540 300; input touchscreen swipe 1 2 3 4 500; input swipe 9 9 9 9 800; " +
      "input text 'hi%sthere'; input keyevent KEYCODE_BACK 3 ENTER; input motionevent DOWN 5 6",
  );
  assert.equal(code, 0);
  assert.deepEqual(phone.inputs, [
    { type: "tap", x: 540, y: 300 },
    { type: "swipe", x1: 1, y1: 2, x2: 3, y2: 4, durationMs: 500 },
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
      err: "/system/bin/sh: frobnicate: not found\n",
      code: 127,
      phone: undefined,
      device: undefined,
    },
  );
  assert.equal((await sh("false || echo yes && echo and")).out, "yes\nand\n");
  assert.equal((await sh("true && exit 7; echo never")).code, 7);
  assert.equal((await sh("echo x 1>&2")).err, "x\n");
  assert.equal((await sh("nope 2>&1")).out, "/system/bin/sh: nope: not found\n");
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
