/**
 * `sdk devices` and `sdk run --devices` on the simulator kit (issue 39): three Android phones of
 * different sizes on one private adb server, two WebDriverAgent endpoints (an iPhone and an
 * iPad) and one HarmonyOS device behind the hdc front, all in one Chromium; a suite of four
 * scripts (two Android, one iOS, one HarmonyOS), each asserting through the test model. It runs
 * in both modes (`--per-device`: the matrix; `--spread`), with a phone that disconnects
 * mid-suite, and with a phone another run holds. `sdk` runs as a process, as a user runs it.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { DevicePool } from "@sdk/core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { listMobileADevices } from "@sdk/mobilea";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const MAIN = fileURLToPath(new URL("../../cli/bin.ts", import.meta.url));
const NOTES = "com.example.notes";
/** How long one `sdk` process may take, ms. */
const RUN_TIMEOUT_MS = 90_000;
/** The Android phones: physical size and density. */
const ANDROID = [
  { width: 720, height: 1280, density: 2, model: "Small Phone" },
  { width: 1080, height: 2400, density: 2.625, model: "Tall Phone" },
  { width: 1200, height: 1920, density: 2, model: "Tablet" },
];

let browser: Browser;
let apps: StaticServer;
let work: string;
let model: TestModel;
let adbServer: PrivateAdbServer;
const phones: VirtualPhone[] = [];
const adbFronts: AdbFront[] = [];
const wdaFronts: WdaFront[] = [];
let hdcFront: HdcFront;
/** Called at each assertion the model answers (the disconnect test closes a phone there). */
let onAssert: (() => void) | undefined;

async function phone(options: Parameters<typeof startVirtualPhone>[0]): Promise<VirtualPhone> {
  const started = await startVirtualPhone({ browser, startApp: NOTES, ...options });
  phones.push(started);
  return started;
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  const notes = { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } };
  adbServer = await startPrivateAdbServer();
  for (const size of ANDROID) {
    const front = await startAdbFront(await phone({ ...size, apps: notes }));
    adbFronts.push(front);
    await adbServer.connect(front.serial);
  }
  for (
    const size of [{ width: 1170, height: 2532, density: 3 }, {
      width: 1640,
      height: 2360,
      density: 2,
    }]
  ) {
    wdaFronts.push(await startWdaFront(await phone({ ...size, apps: notes })));
  }
  hdcFront = await startHdcFront(
    await phone({
      width: 1260,
      height: 2720,
      density: 3.25,
      apps: { [NOTES]: { ...notes[NOTES], activity: "EntryAbility" } },
    }),
  );
  model = await startTestModel({
    script: {
      assert: () => {
        onAssert?.();
        return { pass: true };
      },
    },
  });
  work = await mkdtemp(join(tmpdir(), "sdk-device-pool-"));
  await mkdir(join(work, "suite"));
  await mkdir(join(work, "tmp"));
  const script = (section: string, name: string) =>
    `${section}:\n  launch: ${NOTES}\ntasks:\n  - name: ${name}\n    flow:\n` +
    `      - aiAssert: the notes list is shown\n      - aiAssert: the title is shown\n`;
  await writeFile(join(work, "suite", "a1.yaml"), script("mobilea", "list"));
  await writeFile(join(work, "suite", "a2.yaml"), script("mobilea", "title"));
  await writeFile(join(work, "suite", "b1.yaml"), script("mobileb", "ios"));
  await writeFile(join(work, "suite", "c1.yaml"), script("mobilec", "harmony"));
  for (let i = 3; i <= 4; i++) {
    await writeFile(join(work, "suite", `a${i}.yaml`), script("mobilea", `more ${i}`));
  }
});

after(async () => {
  await model?.close();
  for (const front of adbFronts) await front.close().catch(() => {});
  for (const front of wdaFronts) await front.close().catch(() => {});
  await hdcFront?.close();
  await adbServer?.close();
  for (const p of phones) await p.close().catch(() => {});
  await browser?.close();
  await apps?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface Summary {
  failed: number;
  files: { file: string; device?: string; status: string; error?: string; errorCode?: string }[];
  matrix?: {
    devices: string[];
    scripts: string[];
    cells: { device: string; script: string; status: string; report?: string }[];
  };
  mergedReport: string | null;
}

/** The flags that find every simulated device. */
const where = () => [
  "--adb-port",
  String(adbServer.port),
  ...wdaFronts.flatMap((f) => ["--wda", f.url]),
  "--hdc",
  hdcFront.toolPath,
];

/** Runs `sdk args...` as a process with the test model; the summary when it wrote one. */
async function sdk(...args: string[]) {
  const summaryFile = join(work, "summary.json");
  await rm(summaryFile, { force: true });
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    cwd: work,
    // TMPDIR: the device markers of this file's runs live in its own folder.
    env: { ...model.modelConfig(), TMPDIR: join(work, "tmp"), SDK_RUN_DIR: join(work, "sdk_run") },
    stdin: "null",
    // A run that hangs is killed, so the test fails with what it printed.
    signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const text = await readFile(summaryFile, "utf8").catch(() => undefined);
  return {
    code: out.code,
    stdout: decode(out.stdout),
    stderr: decode(out.stderr),
    summary: text ? JSON.parse(text) as Summary : undefined,
  };
}

const summaryFlags = () => ["--summary", join(work, "summary.json")];
const suite = ["suite/a1.yaml", "suite/a2.yaml", "suite/b1.yaml", "suite/c1.yaml"];
/** Four Android scripts, for three phones. */
const ANDROID_SUITE = ["suite/a1.yaml", "suite/a2.yaml", "suite/a3.yaml", "suite/a4.yaml"];

test("sdk devices lists the three Android phones, the two WebDriverAgents and the HarmonyOS device with model, OS and screen", async () => {
  const run = await sdk("devices", ...where(), "--json");
  assert.equal(run.code, 0, run.stderr);
  const devices = JSON.parse(run.stdout) as {
    platform: string;
    id: string;
    model?: string;
    osVersion?: string;
    screen?: { width: number; height: number };
  }[];
  const line = (d: typeof devices[number]) =>
    `${d.platform} ${d.model} ${d.osVersion} ${d.screen?.width}x${d.screen?.height}`;
  assert.deepEqual(devices.map(line).sort(), [
    "mobilea Small Phone Android 14 720x1280",
    "mobilea Tablet Android 14 1200x1920",
    "mobilea Tall Phone Android 14 1080x2400",
    "mobileb iPhone iOS 17.5 1170x2532",
    "mobileb iPhone iOS 17.5 1640x2360",
    "mobilec Simulator Phone Simulator 5.0.0 1260x2720",
  ]);
  const table = await sdk("devices", ...where());
  assert.match(table.stdout, /^platform\s+id\s+model\s+os\s+screen$/m);
  assert.equal(table.stdout.trim().split("\n").length, 7, table.stdout);
});

test("--per-device runs every script on every device of its platform: a 6 x 4 matrix of 9 runs, each on its device", async () => {
  const before = adbFronts.map((f) => f.commands.length);
  const run = await sdk(
    "run",
    ...suite,
    "--devices",
    "all",
    "--per-device",
    ...where(),
    ...summaryFlags(),
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const { matrix, files, mergedReport } = run.summary!;
  assert.equal(matrix!.devices.length, 6);
  assert.deepEqual(matrix!.scripts, suite);
  const cells = matrix!.cells.map((c) => `${c.script} ${c.device.split(":")[0]} ${c.status}`);
  assert.deepEqual(cells.sort(), [
    ...Array(3).fill("suite/a1.yaml mobilea passed"),
    ...Array(3).fill("suite/a2.yaml mobilea passed"),
    ...Array(2).fill("suite/b1.yaml mobileb passed"),
    "suite/c1.yaml mobilec passed",
  ]);
  assert.equal(new Set(matrix!.cells.map((c) => `${c.script}@${c.device}`)).size, 9);
  assert.ok(matrix!.cells.every((c) => c.report), "each cell has its report");
  assert.equal(files.length, 9);
  adbFronts.forEach((f, i) => assert.ok(f.commands.length > before[i], `phone ${i} was driven`));
  const html = await readFile(mergedReport!, "utf8");
  assert.match(html, /"testDevice":"mobilec:/);
  assert.match(run.stdout, /Device matrix:/);
});

test("--spread hands each script to the next free device of its platform: four runs", async () => {
  const run = await sdk(
    "run",
    ...suite,
    "--devices",
    "all",
    "--spread",
    ...where(),
    ...summaryFlags(),
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const files = run.summary!.files;
  assert.deepEqual(files.map((f) => [f.file, f.status, f.device!.split(":")[0]]), [
    ["suite/a1.yaml", "passed", "mobilea"],
    ["suite/a2.yaml", "passed", "mobilea"],
    ["suite/b1.yaml", "passed", "mobileb"],
    ["suite/c1.yaml", "passed", "mobilec"],
  ]);
  assert.notEqual(files[0].device, files[1].device, "two Android files at once: two phones");
});

test("a phone held by another run is left to it: the files go to the other phones, and the run says why", async () => {
  const [held] = await listMobileADevices({ remoteBridgePort: adbServer.port });
  const other = new DevicePool([held], { lockDir: join(work, "tmp", "sdk-device-locks") });
  assert.equal(await other.acquire(), held);
  try {
    const run = await sdk(
      "run",
      ...ANDROID_SUITE,
      "--devices",
      "mobilea:all",
      ...where(),
      ...summaryFlags(),
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(`mobilea:${held.id} is held by another run`));
    const used = run.summary!.files.map((f) => f.device);
    assert.equal(used.length, 4);
    assert.ok(!used.includes(`mobilea:${held.id}`), `the held phone ran nothing: ${used}`);
  } finally {
    await other.close();
  }
});

test("a phone that disconnects mid-suite fails its file with CONNECTION_LOST and leaves the pool; the other files pass on the other phones", async () => {
  const lost = adbFronts[1];
  onAssert = () => {
    onAssert = undefined;
    void lost.close();
  };
  const run = await sdk(
    "run",
    ...ANDROID_SUITE,
    "--devices",
    "mobilea:all",
    "--continue-on-error",
    ...where(),
    ...summaryFlags(),
  );
  onAssert = undefined;
  assert.equal(run.code, 1, "a failed cell fails the run");
  const results = run.summary!.files;
  const onLost = results.filter((f) => f.device === `mobilea:${lost.serial}`);
  assert.equal(
    onLost.length,
    1,
    `one file ran on the phone that went away: ${JSON.stringify(results)}`,
  );
  assert.equal(onLost[0].status, "failed");
  assert.equal(onLost[0].errorCode, "CONNECTION_LOST");
  assert.match(onLost[0].error!, /left the pool/);
  const others = results.filter((f) => f !== onLost[0]);
  assert.deepEqual(others.map((f) => f.status), ["passed", "passed", "passed"]);
});
