/**
 * YAML scripts with a `mobileb:` section, end to end through `runMobileBYaml`: SDK -> `fetch` ->
 * the WDA front of the device **simulator** -> the virtual phone (1170 x 2532 at scale 3) ->
 * Chromium, with the test model.
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
import { type MobileBAgent, runMobileBYaml } from "@sdk/mobileb";
import { ConnectionError, YamlScriptError, YamlTaskError } from "@sdk/core";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { LAUNCHER_ACTIVITY, startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { freePort } from "../helpers/free_port.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { phoneBox } from "../helpers/phone.ts";

const NOTES = "com.example.notes";
const SETTINGS = "com.example.settings";
const SCALE = 3;

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: WdaFront;
let model: TestModel;
// The box the test model last answered, in points.
let located: TargetBox | undefined;

function boxOf(selector: string): Promise<TargetBox> {
  return phoneBox(phone, selector);
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1170,
    height: 2532,
    density: SCALE,
    apps: {
      [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" },
      [SETTINGS]: { url: `${apps.url}settings/index.html`, label: "Settings" },
    },
  });
  front = await startWdaFront(phone);
  model = await startTestModel({
    script: {
      locate: async ({ target }) =>
        target.trim() === "Note 3" ? located = await boxOf("#note-3") : null,
    },
    imagePixelsPerCssPixel: SCALE,
  });
});

after(async () => {
  await model?.close();
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
});

function options(onAgent?: (agent: MobileBAgent) => void) {
  return {
    agentOptions: {
      modelConfig: model.modelConfig(),
      driverHost: "127.0.0.1",
      generateReport: false,
      autoPrintReportMsg: false,
      waitAfterAction: 50,
    },
    ...(onAgent && { onAgent }),
  };
}

test("a mobileb script launches its app, taps, asks WDA, switches apps and goes home", async () => {
  await phone.stopApp(NOTES);
  await phone.stopApp(SETTINGS);
  let agent: MobileBAgent | undefined;
  const from = phone.inputs.length;
  const { result, tasks } = await runMobileBYaml(
    `
mobileb:
  driverPort: ${front.port}
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
      - runDriverRequest: /session/:sessionId/wda/apps/state
        method: POST
        data:
          bundleId: ${NOTES}
        name: notesState
      - runDriverRequest: /status
        name: status
  - name: system
    flow:
      - launch: My Settings
      - appSwitcher:
      - home:
      - terminate: My Settings
`,
    options((a) => agent = a),
  );
  assert.deepEqual(tasks.map((t) => [t.name, t.status]), [
    ["open a note", "passed"],
    ["system", "passed"],
  ]);
  assert.equal(result.notesState, 4, "the notes app was in front");
  // The first finger down after the launch is aiTap's, inside Note 3 (points x scale).
  const down = phone.inputs.slice(from).find((i) => i.type === "multiTouch" && i.points.length);
  const at = down?.type === "multiTouch" ? down.points[0] : undefined;
  assert.ok(at && located, "aiTap touched the phone");
  assert.ok(
    at.x >= located.left * SCALE && at.x <= (located.left + located.width) * SCALE &&
      at.y >= located.top * SCALE && at.y <= (located.top + located.height) * SCALE,
    `touch at (${at.x}, ${at.y}) is outside Note 3`,
  );
  assert.equal((result.status as { ready?: boolean }).ready, true);
  await waitFor(() => phone.foregroundApp().activity === LAUNCHER_ACTIVITY, "the home screen");
  assert.ok(!phone.runningApps().includes(SETTINGS), `running: ${phone.runningApps()}`);
  assert.ok(phone.runningApps().includes(NOTES));
  const apis = agent!._unstableLogContent().executions.map((e) => e.apiName);
  assert.deepEqual(apis, [
    "launch",
    "aiTap",
    "runDriverRequest",
    "runDriverRequest",
    "launch",
    "appSwitcher",
    "home",
    "terminate",
  ]);
  // The run deleted the session it created.
  assert.deepEqual(front.sessionIds(), []);
});

test("a script file path works as well as its text; a failing driver request fails its task", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobileb-yaml-"));
  try {
    const file = join(dir, "status.yaml");
    await writeFile(
      file,
      `mobileb:\n  driverPort: ${front.port}\ntasks:\n  - name: ask\n    flow:\n` +
        `      - runDriverRequest: /no/such/route\n`,
    );
    const error = await runMobileBYaml(file, options()).then(() => undefined, (e) => e);
    assert.ok(error instanceof YamlTaskError, String(error));
    assert.equal(error.taskName, "ask");
    assert.match(error.message, /GET \/no\/such\/route/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("bad mobileb scripts fail before anything runs, naming the key", async () => {
  const before = phone.inputs.length;
  await assert.rejects(
    runMobileBYaml("mobileb:\n  driverport: 8100\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /driverport/.test(e.message),
  );
  await assert.rejects(
    runMobileBYaml("mobileb:\n  inputStrategy: fast\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /inputStrategy/.test(e.message),
  );
  await assert.rejects(
    runMobileBYaml("mobilea: {}\ntasks: []\n", options()),
    (e: Error) => e instanceof YamlScriptError && /'mobileb' section/.test(e.message),
  );
  await assert.rejects(
    runMobileBYaml(
      `mobileb:\n  driverPort: ${front.port}\ntasks:\n  - name: t\n    flow:\n      - back:\n`,
      options(),
    ),
    (e: Error) => e instanceof YamlScriptError && /back/.test(e.message),
  );
  const port = await freePort();
  await assert.rejects(
    runMobileBYaml(`mobileb:\n  driverPort: ${port}\ntasks: []\n`, options()),
    (e: Error) =>
      e instanceof ConnectionError && e.code === "CONNECTION_REFUSED" &&
      e.message.includes(`:${port}`),
  );
  assert.equal(phone.inputs.length, before);
});

/** Whether `path` exists. */
function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

test("sdk run runs a mobileb script file through @sdk/mobileb and merges its report", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-mobileb-cli-"));
  try {
    // The script sits in a folder of its own and runs from its parent: its output is relative to
    // the script's folder, not to the working directory.
    await mkdir(join(dir, "flows"));
    await writeFile(
      join(dir, "flows", "notes.yaml"),
      `mobileb:
  driverHost: 127.0.0.1
  driverPort: \${WDA_PORT}
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
    const from = phone.inputs.length;
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
      env: {
        ...model.modelConfig(),
        WDA_PORT: String(front.port),
        SDK_RUN_DIR: join(dir, "run"),
      },
      stdin: "null",
    }).output();
    const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, out);
    // The launch, one tap (a finger down and up), then home.
    assert.deepEqual(
      phone.inputs.slice(from).filter((i) => i.type === "launch").map((i) =>
        i.type === "launch" && i.packageName
      ),
      [NOTES],
    );
    assert.equal(
      phone.inputs.slice(from).filter((i) => i.type === "multiTouch" && i.points.length).length,
      1,
    );
    assert.equal(phone.foregroundApp().activity, LAUNCHER_ACTIVITY);
    const summary = JSON.parse(await readFile(join(dir, "summary.json"), "utf8"));
    const file = summary.files[0];
    assert.equal(file.status, "passed", JSON.stringify(file));
    assert.ok(file.report, "the file's own report is named in the summary");
    assert.match(await readFile(file.report, "utf8"), /Note 3/);
    assert.deepEqual(front.sessionIds(), [], "the run deleted its session");
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

test("the peer SDK's system-button names run as the items: MobileBAppSwitcher, MobileBHomeButton", async () => {
  let agent: MobileBAgent | undefined;
  await runMobileBYaml(
    `mobileb:\n  driverPort: ${front.port}\ntasks:\n  - name: buttons\n    flow:\n` +
      "      - MobileBAppSwitcher:\n      - MobileBHomeButton:\n",
    options((a) => agent = a),
  );
  await waitFor(() => phone.foregroundApp().activity === LAUNCHER_ACTIVITY, "the home screen");
  const apis = agent!._unstableLogContent().executions.map((e) => e.apiName);
  assert.deepEqual(apis, ["appSwitcher", "home"]);
});
