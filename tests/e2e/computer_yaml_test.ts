/**
 * Desktop scripts (`computer:` sections) end to end: through `sdk run` on a private Xvfb with the
 * Tk fixture app, and through `runComputerYaml` over real RDP (FreeRDP's shadow server sharing
 * another Xvfb with the app). The test model locates from the app's own widget geometry, and
 * every check reads the app's real state.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { runComputerYaml } from "@sdk/computer";
import { YamlScriptError } from "@sdk/core/script";
import { runSdk } from "../helpers/cli.ts";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  ensureDesktopTools,
  locateNameOrSave,
  nutJsDir,
  type ShadowServer,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  type TestDisplay,
  untilAppState,
} from "../helpers/desktop.ts";

const USER = "sdk-tester";
const PASSWORD = `Pw-${randomBytes(9).toString("base64url")}!`;

let local: TestDisplay;
let remote: TestDisplay;
let localApp: DesktopApp;
let remoteApp: DesktopApp;
let shadow: ShadowServer;
let model: TestModel;
let work: string;
/** The app the model looks at: the one the running test drives, and its clicks before. */
let shown: DesktopApp;
let clicksBefore = 0;

before(async () => {
  await ensureDesktopTools();
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  local = await startTestDisplay("1280x800x24");
  localApp = await startDesktopApp(local.display);
  remote = await startTestDisplay("1024x768x24");
  remoteApp = await startDesktopApp(remote.display);
  shadow = await startShadowServer(remote.display, USER, PASSWORD);
  model = await startTestModel({
    script: {
      locate: (call) => locateNameOrSave(shown, call.target),
      // "The name is saved" holds once the Save button was clicked once more, with a name typed (the click reaches
      // Tk through the X server a moment after the tap).
      assert: async () => ({
        pass: await untilAppState(
          () => shown.state(),
          (s) => s.clicks > clicksBefore && s.name !== "",
          "a save",
          10_000,
        ).then(() => true, () => false),
      }),
    },
  });
  work = await mkdtemp(join(tmpdir(), "sdk-computer-yaml-"));
});

after(async () => {
  await model?.close();
  await shadow?.close();
  await remoteApp?.close();
  await remote?.close();
  await localApp?.close();
  await local?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const FLOW = `tasks:
  - name: save a name
    flow:
      - aiInput: the name field
        value: \${NOTE_TEXT}
      - aiTap: the Save button
      - aiAssert: the name is saved
`;

test(
  "sdk run runs a computer: script on the display, types and clicks in the app, and writes its output",
  {
    timeout: 120_000,
  },
  async () => {
    shown = localApp;
    const clicks = clicksBefore = (await localApp.state()).clicks;
    await writeFile(join(work, "desktop.yaml"), `computer:\n  output: out/desktop.json\n${FLOW}`);
    const out = await runSdk(
      work,
      {
        ...model.modelConfig(),
        DISPLAY: local.display,
        SDK_NUT_JS_DIR: nutJsDir(),
        SDK_RUN_DIR: join(work, "sdk_run"),
        NOTE_TEXT: "From a script",
      },
      "run",
      "desktop.yaml",
      "--summary",
      "summary.json",
    );
    assert.equal(out.code, 0, out.stdout + out.stderr);
    await untilAppState(
      () => localApp.state(),
      (s) => s.name === "From a script" && s.clicks === clicks + 1,
      "the name typed and saved",
    );
    const summary = JSON.parse(await readFile(join(work, "summary.json"), "utf8"));
    assert.deepEqual(summary.files.map((f: { status: string }) => f.status), ["passed"]);
    assert.equal(summary.files[0].output, join(work, "out/desktop.json"));
    assert.match(summary.files[0].report, /\.html$/);
  },
);

const rdpScript = (extra = "") =>
  `computer:
  rdp:
    host: 127.0.0.1
    port: ${shadow.port}
    username: ${USER}
    password: \${RDP_TEST_PASSWORD}
    ignoreCertificate: true
    desktopWidth: 1024
    desktopHeight: 768
${extra}${FLOW}`;

test("runComputerYaml runs a computer: script with an rdp mapping on a remote desktop", {
  timeout: 120_000,
}, async () => {
  shown = remoteApp;
  const clicks = clicksBefore = (await remoteApp.state()).clicks;
  const { tasks } = await runComputerYaml(rdpScript(), {
    fileName: join(work, "remote.yaml"),
    env: (name) => ({ RDP_TEST_PASSWORD: PASSWORD, NOTE_TEXT: "Over RDP" })[name],
    agentOptions: { modelConfig: model.modelConfig(), generateReport: false, waitAfterAction: 100 },
  });
  assert.deepEqual(tasks.map((t) => t.status), ["passed"]);
  await untilAppState(
    () => remoteApp.state(),
    (s) => s.name === "Over RDP" && s.clicks === clicks + 1,
    "the remote name typed and saved",
    30_000,
  );
});

test("an untrusted computer: script may not turn off the certificate check, nor read a variable not allowed; a local key beside rdp is an error", async () => {
  const error = await runComputerYaml(rdpScript(), {
    fileName: "remote.yaml",
    untrusted: true,
    env: () => "x",
  }).then(() => assert.fail("it ran"), (e: Error) => e);
  assert.ok(error instanceof YamlScriptError, String(error));
  assert.match(error.message, /remote\.yaml:\d+:\d+: .*ignoreCertificate.*certificate/);
  assert.match(error.message, /RDP_TEST_PASSWORD/);

  const mixed = await runComputerYaml(
    rdpScript().replace("computer:\n", "computer:\n  headless: true\n"),
    {
      fileName: "mixed.yaml",
      env: () => "x",
      agentOptions: { modelConfig: model.modelConfig() },
    },
  ).then(() => assert.fail("it ran"), (e: Error) => e);
  assert.match(mixed.message, /'rdp' and 'headless'/);

  const typo = await runComputerYaml("computer:\n  headles: true\n" + FLOW, {
    fileName: "typo.yaml",
    env: () => "x",
  }).then(() => assert.fail("it ran"), (e: Error) => e);
  assert.match(typo.message, /typo\.yaml:2:3: .*unknown key 'headles'.*did you mean 'headless'/);
});
