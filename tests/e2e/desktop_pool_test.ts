/**
 * Desktops on the device pool (issue 39): `sdk run --devices computer:all --display :A --display
 * :B` over two private Xvfbs, each with the Tk fixture app. Each `computer:` script types its own
 * name into the app and clicks Save; the pool hands each run its display, and every check reads
 * the app on that display. `DISPLAY` of the `sdk` process is display A, so a run that ignored its
 * display would land there.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ComputerDevice } from "@sdk/computer";
import { runSdk } from "../helpers/cli.ts";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  locateNameOrSave,
  nutJsDir,
  startDesktopApp,
  startTestDisplay,
  type TestDisplay,
  untilAppState,
} from "../helpers/desktop.ts";

const displays: TestDisplay[] = [];
const apps: DesktopApp[] = [];
let model: TestModel;
let work: string;

/** The scripts and the name each one types. */
const SCRIPTS = { "alpha.yaml": "Alpha desk", "beta.yaml": "Beta desk" };

before(async () => {
  await ensureDesktopTools();
  for (let i = 0; i < 2; i++) {
    const x = await startTestDisplay("1024x768x24");
    displays.push(x);
    apps.push(await startDesktopApp(x.display));
  }
  // Both apps have one layout (same screen), so the model locates on either from one.
  const [a, b] = await Promise.all(apps.map((app) => app.state()));
  assert.deepEqual(a.widgets.save, b.widgets.save);
  model = await startTestModel({
    script: {
      locate: (call) => locateNameOrSave(apps[0], call.target),
    },
  });
  work = await mkdtemp(join(tmpdir(), "sdk-desktop-pool-"));
  for (const [file, name] of Object.entries(SCRIPTS)) {
    await writeFile(
      join(work, file),
      `computer: {}\ntasks:\n  - name: save ${name}\n    flow:\n` +
        `      - aiInput: the name field\n        value: ${name}\n      - aiTap: the Save button\n`,
    );
  }
});

after(async () => {
  await model?.close();
  for (const app of apps) await app.close().catch(() => {});
  for (const x of displays) await x.close().catch(() => {});
  if (work) await rm(work, { recursive: true, force: true });
});

interface Summary {
  files: { file: string; device?: string; status: string; error?: string }[];
  matrix?: { devices: string[]; cells: { device: string; script: string; status: string }[] };
  mergedReport: string | null;
}

/** Runs `sdk run` on both displays, `DISPLAY` being the first; its summary. */
async function runOnPool(mode: string): Promise<Summary> {
  await rm(join(work, "summary.json"), { force: true });
  const out = await runSdk(
    work,
    {
      ...model.modelConfig(),
      DISPLAY: displays[0].display,
      SDK_NUT_JS_DIR: nutJsDir(),
      SDK_RUN_DIR: join(work, "sdk_run"),
      // The device markers of this file's runs live in its own folder.
      TMPDIR: work,
    },
    "run",
    ...Object.keys(SCRIPTS),
    "--devices",
    "computer:all",
    ...displays.flatMap((x) => ["--display", x.display]),
    mode,
    "--summary",
    "summary.json",
  );
  assert.equal(out.code, 0, out.stdout + out.stderr);
  return JSON.parse(await readFile(join(work, "summary.json"), "utf8")) as Summary;
}

/** Each app's state before a run, to count the saves the run added. */
async function statesBefore(): Promise<DesktopAppState[]> {
  return await Promise.all(apps.map((app) => app.state()));
}

/** The pool's id of display `i`'s only monitor (Xvfb lists one, `screen`). */
const deviceOf = (i: number) => `computer:${displays[i].display}/screen`;

test(
  "--spread runs each computer script on one display of the pool, and the action lands on that display's app",
  {
    timeout: 180_000,
  },
  async () => {
    const before = await statesBefore();
    const summary = await runOnPool("--spread");
    assert.deepEqual(summary.files.map((f) => f.status), ["passed", "passed"]);
    const used = summary.files.map((f) => f.device);
    // Both ran at once, so each on a display of its own.
    assert.deepEqual([...used].sort(), [deviceOf(0), deviceOf(1)].sort());
    for (const [i, app] of apps.entries()) {
      const ran = summary.files.find((f) => f.device === deviceOf(i))!;
      const name = SCRIPTS[ran.file as keyof typeof SCRIPTS];
      await untilAppState(
        () => app.state(),
        (s) => s.name === name && s.clicks === before[i].clicks + 1,
        `${name} typed and saved on ${displays[i].display}`,
      );
    }
    const merged = await readFile(summary.mergedReport!, "utf8");
    for (const i of [0, 1]) assert.ok(merged.includes(deviceOf(i)), `${deviceOf(i)} in the report`);
  },
);

test("--per-device runs every computer script on every display, one script per display at once", {
  timeout: 180_000,
}, async () => {
  const before = await statesBefore();
  const summary = await runOnPool("--per-device");
  assert.equal(summary.files.length, 4);
  assert.deepEqual(summary.files.map((f) => f.status), ["passed", "passed", "passed", "passed"]);
  assert.deepEqual(summary.matrix!.devices, [deviceOf(0), deviceOf(1)]);
  assert.deepEqual(
    summary.matrix!.cells.map((c) => `${c.script} @ ${c.device}`).sort(),
    Object.keys(SCRIPTS).flatMap((s) => [0, 1].map((i) => `${s} @ ${deviceOf(i)}`)).sort(),
  );
  // Each display ran both scripts in order: two saves, the second script's name last.
  for (const [i, app] of apps.entries()) {
    await untilAppState(
      () => app.state(),
      (s) => s.name === SCRIPTS["beta.yaml"] && s.clicks === before[i].clicks + 2,
      `both scripts saved on ${displays[i].display}`,
    );
  }
});

test("ComputerDevice.listDisplays({ display }) lists the monitors of the display given, not DISPLAY's", async () => {
  const [monitor] = await ComputerDevice.listDisplays({ display: displays[1].display });
  assert.deepEqual([monitor.id, monitor.width, monitor.height], ["screen", 1024, 768]);
});
