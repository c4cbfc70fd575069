/**
 * Device pool benchmark (issue 39): an eight-script suite through `sdk run --devices <ids>
 * --spread` on 1, 2, 4 and 6 simulated Android phones (one private adb server, one Chromium for
 * every phone), with the test model answering each call after 2 s, as a real model would. Each
 * script launches the notes app and asserts twice (two model calls), so one script is about 4 s
 * of model time plus the phone's screenshots.
 *
 * `sdk run` runs as a process, as a user runs it: its start (about 1-2 s, the same for every
 * device count) is inside each figure. The last line reads:
 *
 *     device pool: 1 device <a> s, 2 devices <b> s, 4 devices <c> s, 6 devices <d> s; speedup at 4 <a/c>
 *
 * and the numbers go to `bench/output/devices.json`. Exit code 0 even when the goal (speedup at
 * 4 >= 3) is missed; 1 when a run fails.
 *
 *     deno run --allow-all bench/devices.ts
 *
 * @module
 */

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { startPrivateAdbServer } from "../tests/helpers/adb.ts";
import { launchChromium } from "../tests/helpers/browser.ts";
import { serveStatic } from "../tests/helpers/static_server.ts";

const MODEL_DELAY_MS = 2_000;
const SCRIPTS = 8;
const DEVICE_COUNTS = [1, 2, 4, 6];
const NOTES = "com.example.notes";
const MAIN = fileURLToPath(new URL("../cli/bin.ts", import.meta.url));

const browser = await launchChromium();
const apps = await serveStatic(
  fileURLToPath(new URL("../tests/fixtures/mobile/", import.meta.url)),
);
const server = await startPrivateAdbServer();
const model = await startTestModel({
  script: {
    assert: async () => {
      await new Promise((r) => setTimeout(r, MODEL_DELAY_MS));
      return { pass: true };
    },
  },
});
const work = await mkdtemp(join(tmpdir(), "sdk-bench-devices-"));
const phones: VirtualPhone[] = [];
const fronts: AdbFront[] = [];
let exitCode = 0;
try {
  for (let i = 0; i < Math.max(...DEVICE_COUNTS); i++) {
    const phone = await startVirtualPhone({
      browser,
      width: 720,
      height: 1280,
      density: 2,
      apps: { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } },
      startApp: NOTES,
    });
    phones.push(phone);
    const front = await startAdbFront(phone);
    fronts.push(front);
    await server.connect(front.serial);
  }
  await mkdir(join(work, "suite"));
  for (let i = 1; i <= SCRIPTS; i++) {
    await writeFile(
      join(work, "suite", `s${i}.yaml`),
      `mobilea:\n  launch: ${NOTES}\ntasks:\n  - name: script ${i}\n    flow:\n` +
        `      - aiAssert: the notes list is shown\n      - aiAssert: the title is shown\n`,
    );
  }
  const seconds: Record<number, number> = {};
  for (const count of DEVICE_COUNTS) {
    const ids = fronts.slice(0, count).map((f) => f.serial).join(",");
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        MAIN,
        "run",
        "suite/",
        "--devices",
        ids,
        "--spread",
        "--adb-port",
        String(server.port),
      ],
      cwd: work,
      env: { ...model.modelConfig(), SDK_RUN_DIR: join(work, "sdk_run"), TMPDIR: work },
      stdin: "null",
    }).output();
    seconds[count] = (performance.now() - started) / 1000;
    if (out.code !== 0) {
      console.error(new TextDecoder().decode(out.stdout), new TextDecoder().decode(out.stderr));
      throw new Error(`sdk run on ${count} devices exited with ${out.code}`);
    }
    console.log(`${count} device${count === 1 ? "" : "s"}: ${seconds[count].toFixed(1)} s`);
  }
  const speedup = seconds[1] / seconds[4];
  await mkdir(new URL("output/", import.meta.url), { recursive: true });
  await writeFile(
    new URL("output/devices.json", import.meta.url),
    JSON.stringify({ modelDelayMs: MODEL_DELAY_MS, scripts: SCRIPTS, seconds, speedup }, null, 2),
  );
  const s = (n: number) => seconds[n].toFixed(1);
  console.log(
    `device pool: 1 device ${s(1)} s, 2 devices ${s(2)} s, 4 devices ${s(4)} s, ` +
      `6 devices ${s(6)} s; speedup at 4 ${speedup.toFixed(2)}`,
  );
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  for (const front of fronts) await front.close();
  await server.close();
  for (const phone of phones) await phone.close();
  await model.close();
  await browser.close();
  await apps.close();
  await rm(work, { recursive: true, force: true });
}
Deno.exit(exitCode);
