/**
 * YAML scripts with a `mobilea:` section, end to end through `runMobileAYaml`: SDK ->
 * `@yume-chan/adb` -> a private real adb server -> the adb front of the device **simulator** ->
 * the virtual phone (1080 x 2400 at density 2.625) -> Chromium, with the test model.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { type MobileAAgent, runMobileAYaml } from "@sdk/mobilea";
import { YamlScriptError, YamlTaskError } from "@sdk/core";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { phoneBox } from "../helpers/phone.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const DENSITY = 2.625;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: AdbFront;
let server: PrivateAdbServer;
let model: TestModel;

function boxOf(selector: string): Promise<TargetBox> {
  return phoneBox(phone, selector);
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1080,
    height: 2400,
    density: DENSITY,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" },
      [SETTINGS]: { url: `${apps.url}settings/index.html`, label: "Settings" },
    },
    startApp: NOTES,
  });
  front = await startAdbFront(phone);
  server = await startPrivateAdbServer();
  await server.connect(front.serial);
  model = await startTestModel({
    script: {
      locate: async ({ target }) => target.trim() === "Note 3" ? await boxOf("#note-3") : null,
    },
    imagePixelsPerCssPixel: DENSITY,
  });
});

after(async () => {
  await model?.close();
  await server?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

function options(onAgent?: (agent: MobileAAgent) => void) {
  return {
    agentOptions: {
      modelConfig: model.modelConfig(),
      remoteBridgePort: server.port,
      generateReport: false,
      autoPrintReportMsg: false,
      waitAfterAction: 50,
    },
    ...(onAgent && { onAgent }),
  };
}

test("a mobilea script launches its app, taps, runs shell commands and system keys", async () => {
  phone.stopApp(NOTES);
  phone.stopApp(SETTINGS);
  let agent: MobileAAgent | undefined;
  const tapsBefore = phone.inputs.filter((i) => i.type === "tap").length;
  const { result, tasks } = await runMobileAYaml(
    `
mobilea:
  deviceId: ${front.serial}
  launch: My Notes
  appNameMapping:
    My Notes: ${NOTES}
    My Settings: ${SETTINGS}
agent:
  waitAfterAction: 50
tasks:
  - name: open a note
    flow:
      - aiTap: Note 3
      - runBridgeShell: wm density
        name: density
  - name: system keys
    flow:
      - launch: My Settings
      - home:
      - terminate: My Settings
      - recentApps:
      - back:
`,
    options((a) => agent = a),
  );
  assert.deepEqual(tasks.map((t) => [t.name, t.status]), [
    ["open a note", "passed"],
    ["system keys", "passed"],
  ]);
  assert.equal(result.density, "Physical density: 420\n");
  // The launch of the section, the tap on Note 3, then the second task's keys and apps.
  const launches = phone.inputs.filter((i) => i.type === "launch");
  assert.deepEqual(
    launches.slice(-2).map((l) => "packageName" in l && l.packageName),
    [NOTES, SETTINGS],
  );
  // aiTap sent exactly one tap.
  assert.equal(phone.inputs.filter((i) => i.type === "tap").length - tapsBefore, 1);
  const keys = phone.inputs.filter((i) => i.type === "key").slice(-3)
    .map((k) => "keyCode" in k && k.keyCode);
  assert.deepEqual(keys, [3, 187, 4]); // HOME, APP_SWITCH, BACK
  assert.deepEqual(phone.inputs.filter((i) => i.type === "stop").at(-1), {
    type: "stop",
    packageName: SETTINGS,
  });
  // The agent's own methods are executions of its report, between the YAML items.
  const apis = agent!._unstableLogContent().executions.map((e) => e.apiName);
  assert.deepEqual(apis, [
    "launch",
    "aiTap",
    "runBridgeShell",
    "launch",
    "home",
    "terminate",
    "recentApps",
    "back",
  ]);
});

test("exposeRunBridgeShellAction: false blocks runBridgeShell items: the command never runs", async () => {
  const before = phone.inputs.length;
  const error = await runMobileAYaml(
    `
mobilea:
  exposeRunBridgeShellAction: false
tasks:
  - name: shell
    flow:
      - runBridgeShell: input tap 10 10
`,
    options(),
  ).then(() => undefined, (e) => e);
  assert.ok(error instanceof YamlTaskError, String(error));
  assert.match(error.message, /exposeRunBridgeShellAction: false/);
  assert.equal(error.taskName, "shell");
  assert.equal(phone.inputs.length, before, "the shell command ran");
});

test("a script file path works as well as its text; the first connected device is used", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobilea-yaml-"));
  try {
    const file = join(dir, "density.yaml");
    await writeFile(
      file,
      "mobilea: {}\ntasks:\n  - name: read\n    flow:\n      - runBridgeShell: wm size\n        name: size\n",
    );
    const { result } = await runMobileAYaml(file, options());
    assert.equal(result.size, "Physical size: 1080x2400\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("bad mobilea scripts fail before anything runs, naming the key", async () => {
  const before = phone.inputs.length;
  await assert.rejects(
    runMobileAYaml("mobilea:\n  deviceid: x\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /deviceid/.test(e.message),
  );
  await assert.rejects(
    runMobileAYaml("mobilea:\n  displayId: -1\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /displayId/.test(e.message),
  );
  await assert.rejects(
    runMobileAYaml("web:\n  url: https://example.com\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /'mobilea' section/.test(e.message),
  );
  await assert.rejects(
    runMobileAYaml("mobilea:\n  mirrorConfig:\n    maxsize: 800\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /maxsize/.test(e.message),
  );
  await assert.rejects(
    runMobileAYaml(`mobilea:\n  deviceId: no-such-device\ntasks: []\n`, options()),
    /"no-such-device" is not connected/,
  );
  assert.equal(phone.inputs.length, before);
});

/** Whether `path` exists. */
function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

test("sdk run runs a mobilea script file on the device through @sdk/mobilea and merges its report", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobilea-cli-"));
  try {
    // The script sits in a folder of its own and runs from its parent: its output is relative to
    // the script's folder, not to the working directory.
    await mkdir(join(dir, "flows"));
    await writeFile(
      join(dir, "flows", "notes.yaml"),
      `mobilea:
  deviceId: ${front.serial}
  remoteBridgePort: \${ADB_PORT}
  launch: ${NOTES}
  output: out/notes.json
agent:
  waitAfterAction: 50
  testId: notes-1
tasks:
  - name: open a note
    flow:
      - aiLocate: Note 3
        name: note
      - aiTap: Note 3
      - runBridgeShell:
          command: wm density
        name: density
      - home:
`,
    );
    await phone.stopApp(NOTES);
    const tapsBefore = phone.inputs.filter((i) => i.type === "tap").length;
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        fileURLToPath(new URL("../../cli/bin.ts", import.meta.url)),
        "run",
        "flows/notes.yaml",
        "--summary",
        "summary.json",
      ],
      cwd: dir,
      env: { ...model.modelConfig(), ADB_PORT: String(server.port), SDK_RUN_DIR: join(dir, "run") },
      stdin: "null",
    }).output();
    const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, out);
    assert.equal(phone.inputs.filter((i) => i.type === "tap").length - tapsBefore, 1);
    assert.deepEqual(phone.inputs.filter((i) => i.type === "launch").at(-1), {
      type: "launch",
      packageName: NOTES,
    });
    assert.equal(phone.foregroundApp().packageName, "com.android.launcher3");
    const summary = JSON.parse(await readFile(join(dir, "summary.json"), "utf8"));
    const file = summary.files[0];
    assert.equal(file.status, "passed", JSON.stringify(file));
    assert.deepEqual(file.items.map((i: { name: string }) => i.name), ["open a note"]);
    // The agent section's testId names the file in the merged report.
    assert.deepEqual(file.reportAttributes, { testId: "notes-1" });
    assert.ok(file.report, "the file's own report is named in the summary");
    const report = await readFile(file.report, "utf8");
    assert.match(report, /Note 3/);
    // The section's output: the named results, as a web script's.
    assert.equal(file.output, join(dir, "flows", "out", "notes.json"));
    assert.equal(await exists(join(dir, "out")), false, "no output beside the working directory");
    const output = JSON.parse(await readFile(join(dir, "flows", "out", "notes.json"), "utf8"));
    assert.deepEqual(Object.keys(output), ["note", "density"]);
    assert.equal(output.density, "Physical density: 420\n");
    assert.equal(output.note.center.length, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the mobilea section passes mirrorConfig and the scrcpy server's place to the device", async () => {
  let agent: MobileAAgent | undefined;
  const { result } = await runMobileAYaml(
    `
mobilea:
  mirrorConfig:
    enabled: true
    maxSize: 800
  scrcpyServerPath: /data/local/tmp/elsewhere.jar
  scrcpyServerVersion: 3.3.3
tasks:
  - name: read
    flow:
      - runBridgeShell: wm size
        name: size
`,
    options((a) => agent = a),
  );
  assert.equal(result.size, "Physical size: 1080x2400\n");
  const device = agent!.interface;
  assert.equal(device.getMirrorStatus().enabled, true);
  assert.deepEqual(device.scrcpyServer, {
    path: "/data/local/tmp/elsewhere.jar",
    version: "3.3.3",
  });
});

test("the peer SDK's system-button names run as the items: MobileAHomeButton, MobileARecentAppsButton, MobileABackButton", async () => {
  let agent: MobileAAgent | undefined;
  await runMobileAYaml(
    `mobilea:\n  deviceId: ${front.serial}\ntasks:\n  - name: buttons\n    flow:\n` +
      "      - MobileAHomeButton:\n      - MobileARecentAppsButton:\n      - MobileABackButton:\n",
    options((a) => agent = a),
  );
  const keys = phone.inputs.filter((i) => i.type === "key").slice(-3)
    .map((k) => "keyCode" in k && k.keyCode);
  assert.deepEqual(keys, [3, 187, 4]); // HOME, APP_SWITCH, BACK
  const apis = agent!._unstableLogContent().executions.map((e) => e.apiName);
  assert.deepEqual(apis, ["home", "recentApps", "back"]);
});
