import { after, test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DevicePool, type PoolDevice } from "@sdk/core";
import { runOnDevices } from "./device_run.ts";
import type { Preparation } from "./prepare.ts";
import type { FileResult } from "./summary.ts";

const lockDir = await mkdtemp(join(tmpdir(), "sdk-device-run-test-"));
after(() => rm(lockDir, { recursive: true, force: true }));

const device = (platform: string, id: string): PoolDevice => ({
  platform,
  id,
  section: platform === "mobileb"
    ? { driverPort: Number(id) }
    : platform === "computer"
    ? { display: id.split("/")[0], displayId: id.split("/")[1] }
    : { deviceId: id },
});
const platformFile = (section: string, extra = ""): Preparation => ({
  ok: true,
  prepared: { kind: "platform", section, text: `${section}:\n${extra}tasks: []\n` },
  warnings: [],
});
const webFile: Preparation = {
  ok: true,
  prepared: { kind: "feature", text: "Feature: x" },
  warnings: [],
};

/** Runs the files; `fails(index, device)` says which runs fail, `gone` which devices then vanish. */
async function run(
  preparations: Preparation[],
  options: {
    perDevice: boolean;
    fails?: (index: number, device?: PoolDevice) => boolean;
    gone?: Set<string>;
  },
) {
  const devices = [
    device("mobilea", "p1"),
    device("mobilea", "p2"),
    device("mobileb", "8100"),
    device("computer", ":1/screen"),
    device("computer", ":2/screen"),
  ];
  const pool = new DevicePool(devices, {
    lockDir,
    isReachable: (d) => Promise.resolve(!options.gone?.has(d.id)),
  });
  const ran: string[] = [];
  const results = await runOnDevices({
    shown: preparations.map((_, i) => `f${i}.yaml`),
    preparations,
    pool,
    perDevice: options.perDevice,
    concurrent: 3,
    shouldStart: () => true,
    signal: new AbortController().signal,
    run: (index, d) => {
      ran.push(`f${index}@${d?.id ?? "-"}`);
      const failed = options.fails?.(index, d) ?? false;
      return Promise.resolve<FileResult>({
        file: `f${index}.yaml`,
        status: failed ? "failed" : "passed",
        durationMs: 1,
        items: [],
        ...(failed && { error: "the screenshot failed" }),
      });
    },
  });
  await pool.close();
  return {
    ran,
    results: results.map((r) => `${r.file} ${r.device ?? "-"} ${r.status}`),
    raw: results,
  };
}

test("--per-device runs each device file on every device of its platform, a web file once, a pinned file on its device only", async () => {
  const { results } = await run(
    [
      platformFile("mobilea"),
      platformFile("mobileb"),
      webFile,
      platformFile("mobilea", "  deviceId: p2\n"),
    ],
    { perDevice: true },
  );
  assert.deepEqual(results, [
    "f0.yaml mobilea:p1 passed",
    "f0.yaml mobilea:p2 passed",
    "f1.yaml mobileb:8100 passed",
    "f2.yaml - passed",
    "f3.yaml mobilea:p2 passed",
  ]);
});

test("a file that names its device through a variable (deviceId: ${VAR}) runs on that device of the pool", async () => {
  Deno.env.set("SDK_TEST_POOL_SERIAL", "p2");
  try {
    const { results } = await run(
      [platformFile("mobilea", "  deviceId: ${SDK_TEST_POOL_SERIAL}\n")],
      { perDevice: true },
    );
    assert.deepEqual(results, ["f0.yaml mobilea:p2 passed"]);
  } finally {
    Deno.env.delete("SDK_TEST_POOL_SERIAL");
  }
});

test("--per-device: a device that goes away fails its run with CONNECTION_LOST and skips its later cells; the other device goes on", async () => {
  const gone = new Set<string>();
  const { results, raw } = await run([platformFile("mobilea"), platformFile("mobilea")], {
    perDevice: true,
    fails: (i, d) => {
      if (i === 0 && d?.id === "p1") gone.add("p1");
      return gone.has(d?.id ?? "");
    },
    gone,
  });
  assert.deepEqual(results, [
    "f0.yaml mobilea:p1 failed",
    "f0.yaml mobilea:p2 passed",
    "f1.yaml mobilea:p1 skipped",
    "f1.yaml mobilea:p2 passed",
  ]);
  assert.equal(raw[0].errorCode, "CONNECTION_LOST");
  assert.match(raw[2].error!, /left the pool/);
});

test("--spread: a failure on a device that still answers keeps it; a file of a platform with no device left fails", async () => {
  const { results, raw } = await run(
    [platformFile("mobilea"), platformFile("mobilea"), platformFile("mobilec")],
    { perDevice: false, fails: (i) => i === 0 },
  );
  assert.deepEqual(results.slice(0, 2).map((r) => r.replace(/p[12]/, "p")), [
    "f0.yaml mobilea:p failed",
    "f1.yaml mobilea:p passed",
  ]);
  assert.equal(raw[0].errorCode, undefined, "the device answers: not lost");
  assert.equal(results[2], "f2.yaml mobilec:- failed");
  assert.match(raw[2].error!, /no mobilec device is left in the pool/);
});

test("--per-device: a desktop file runs on every display, one pinned by display on it only; a headless or rdp file once, outside the pool", async () => {
  const { results } = await run(
    [
      platformFile("computer"),
      platformFile("computer", "  display: ':2'\n"),
      platformFile("computer", "  headless: true\n"),
      platformFile("computer", "  rdp: { host: 10.0.0.5 }\n"),
    ],
    { perDevice: true },
  );
  assert.deepEqual(results, [
    "f0.yaml computer::1/screen passed",
    "f0.yaml computer::2/screen passed",
    "f1.yaml computer::2/screen passed",
    "f2.yaml - passed",
    "f3.yaml - passed",
  ]);
});
