/**
 * YAML scripts with a `mobilec:` section, end to end through `runMobileCYaml`: SDK -> the
 * simulator's `hdc` executable -> the hdc front -> the virtual phone (1260 x 2720 at density
 * 3.25) -> Chromium, with the test model.
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
import { type MobileCAgent, runMobileCYaml } from "@sdk/mobilec";
import { UnsupportedActionError, YamlScriptError, YamlTaskError } from "@sdk/core";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { LAUNCHER_PACKAGE, startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { phoneBox } from "../helpers/phone.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const DENSITY = 3.25;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: HdcFront;
let model: TestModel;

function boxOf(selector: string): Promise<TargetBox> {
  return phoneBox(phone, selector);
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1260,
    height: 2720,
    density: DENSITY,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes", activity: "EntryAbility" },
      [SETTINGS]: {
        url: `${apps.url}settings/index.html`,
        label: "Settings",
        activity: "MainAbility",
      },
    },
  });
  front = await startHdcFront(phone);
  model = await startTestModel({
    script: {
      locate: async ({ target }) => target.trim() === "Note 3" ? await boxOf("#note-3") : null,
    },
    imagePixelsPerCssPixel: DENSITY,
  });
});

after(async () => {
  await model?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

function options(onAgent?: (agent: MobileCAgent) => void) {
  return {
    agentOptions: {
      modelConfig: model.modelConfig(),
      toolPath: front.toolPath,
      generateReport: false,
      autoPrintReportMsg: false,
      waitAfterAction: 50,
    },
    ...(onAgent && { onAgent }),
  };
}

test("a mobilec script launches its app, taps, runs tool shell commands and system keys", async () => {
  await phone.stopApp(NOTES);
  let agent: MobileCAgent | undefined;
  const tapsBefore = phone.inputs.filter((i) => i.type === "tap").length;
  const { result, tasks } = await runMobileCYaml(
    `
mobilec:
  deviceId: ${front.connectKey}
  launch: My Notes
  keyboardDismissStrategy: back-first
  appNameMapping:
    My Notes: ${NOTES}
    My Settings: ${SETTINGS}/MainAbility
agent:
  waitAfterAction: 50
tasks:
  - name: open a note
    flow:
      - aiTap: Note 3
      - runToolShell: param get const.product.model
        name: model
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
  assert.equal(result.model, "Simulator Phone\n");
  const launches = phone.inputs.filter((i) => i.type === "launch").slice(-2);
  assert.deepEqual(launches, [
    { type: "launch", packageName: NOTES, activity: "EntryAbility" },
    { type: "launch", packageName: SETTINGS, activity: "MainAbility" },
  ]);
  assert.equal(phone.inputs.filter((i) => i.type === "tap").length - tapsBefore, 1);
  const keys = phone.inputs.filter((i) => i.type === "key").slice(-3)
    .map((k) => "keyCode" in k && k.keyCode);
  assert.deepEqual(keys, [3, 187, 4]); // the phone's HOME, APP_SWITCH, BACK
  // Recent apps were opened from the home screen: back returns there.
  assert.equal(phone.foregroundApp().packageName, LAUNCHER_PACKAGE);
  assert.deepEqual(phone.inputs.filter((i) => i.type === "stop").at(-1), {
    type: "stop",
    packageName: SETTINGS,
  });
  const apis = agent!._unstableLogContent().executions.map((e) => e.apiName);
  assert.deepEqual(apis, [
    "launch",
    "aiTap",
    "runToolShell",
    "launch",
    "home",
    "terminate",
    "recentApps",
    "back",
  ]);
});

test("exposeRunToolShellAction: false blocks runToolShell items: the command never runs", async () => {
  const before = front.commands.length;
  const error = await runMobileCYaml(
    `
mobilec:
  deviceId: ${front.connectKey}
  exposeRunToolShellAction: false
tasks:
  - name: shell
    flow:
      - runToolShell: uitest uiInput click 10 10
`,
    options(),
  ).then(() => undefined, (e) => e);
  assert.ok(error instanceof YamlTaskError, String(error));
  assert.ok(error.cause instanceof UnsupportedActionError, String(error.cause));
  assert.match(error.message, /exposeRunToolShellAction: false/);
  assert.equal(error.taskName, "shell");
  assert.ok(
    !front.commands.slice(before).some((c) => c.argv.join(" ").includes("click 10 10")),
    "the shell command ran",
  );
});

test("a script file path works; the first device hdc lists is used", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobilec-yaml-"));
  try {
    const file = join(dir, "home.yaml");
    await writeFile(
      file,
      "mobilec: {}\ntasks:\n  - name: home\n    flow:\n      - home:\n" +
        "      - runToolShell: hidumper -s RenderService -a screen | grep -o 'render resolution=[0-9x]*'\n" +
        "        name: size\n",
    );
    const { result } = await runMobileCYaml(file, options());
    assert.equal(result.size, "render resolution=1260x2720\n");
    assert.equal(phone.foregroundApp().packageName, LAUNCHER_PACKAGE);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("bad mobilec scripts fail before anything runs, naming the key or the device", async () => {
  const before = phone.inputs.length;
  await assert.rejects(
    runMobileCYaml("mobilec:\n  deviceid: x\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /deviceid/.test(e.message),
  );
  await assert.rejects(
    runMobileCYaml("mobilec:\n  keyboardDismissStrategy: never\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /keyboardDismissStrategy/.test(e.message),
  );
  await assert.rejects(
    runMobileCYaml("web:\n  url: https://example.com\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /'mobilec' section/.test(e.message),
  );
  await assert.rejects(
    runMobileCYaml("mobilec:\n  deviceId: 10.9.9.9:5555\ntasks: []\n", options()),
    /"10.9.9.9:5555" is not connected/,
  );
  assert.equal(phone.inputs.length, before);
});

/** Whether `path` exists. */
function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

test("sdk run runs a mobilec script file on the device through @sdk/mobilec", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobilec-cli-"));
  try {
    // The script sits in a folder of its own and runs from its parent: its output is relative to
    // the script's folder, not to the working directory.
    await mkdir(join(dir, "flows"));
    await writeFile(
      join(dir, "flows", "notes.yaml"),
      `mobilec:
  deviceId: ${front.connectKey}
  toolPath: \${HDC_PATH}
  launch: ${NOTES}
  output: out/notes.json
agent:
  waitAfterAction: 50
tasks:
  - name: open a note
    flow:
      - aiLocate: Note 3
        name: note
      - aiTap: Note 3
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
      env: { ...model.modelConfig(), HDC_PATH: front.toolPath, SDK_RUN_DIR: join(dir, "run") },
      stdin: "null",
    }).output();
    const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, out);
    assert.equal(phone.inputs.filter((i) => i.type === "tap").length - tapsBefore, 1);
    assert.deepEqual(phone.inputs.filter((i) => i.type === "launch").at(-1), {
      type: "launch",
      packageName: NOTES,
      activity: "EntryAbility",
    });
    assert.equal(phone.foregroundApp().packageName, LAUNCHER_PACKAGE);
    const summary = JSON.parse(await readFile(join(dir, "summary.json"), "utf8"));
    const file = summary.files[0];
    assert.equal(file.status, "passed", JSON.stringify(file));
    assert.deepEqual(file.items.map((i: { name: string }) => i.name), ["open a note"]);
    assert.ok(file.report, "the file's own report is named in the summary");
    assert.match(await readFile(file.report, "utf8"), /Note 3/);
    // The section's output: the named results, as a web script's.
    assert.equal(file.output, join(dir, "flows", "out", "notes.json"));
    assert.equal(await exists(join(dir, "out")), false, "no output beside the working directory");
    const output = JSON.parse(await readFile(join(dir, "flows", "out", "notes.json"), "utf8"));
    assert.deepEqual(Object.keys(output), ["note"]);
    assert.equal(output.note.center.length, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the peer SDK's system-button names run as the items: MobileCHomeButton, MobileCRecentAppsButton, MobileCBackButton", async () => {
  let agent: MobileCAgent | undefined;
  await runMobileCYaml(
    `mobilec:\n  deviceId: ${front.connectKey}\ntasks:\n  - name: buttons\n    flow:\n` +
      "      - MobileCHomeButton:\n      - MobileCRecentAppsButton:\n      - MobileCBackButton:\n",
    options((a) => agent = a),
  );
  const keys = phone.inputs.filter((i) => i.type === "key").slice(-3)
    .map((k) => "keyCode" in k && k.keyCode);
  assert.deepEqual(keys, [3, 187, 4]); // the phone's HOME, APP_SWITCH, BACK
  const apis = agent!._unstableLogContent().executions.map((e) => e.apiName);
  assert.deepEqual(apis, ["home", "recentApps", "back"]);
});
