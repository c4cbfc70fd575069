/**
 * The desktop agents end with their script however it ends (issue 24): a child script per
 * platform (`tests/fixtures/lifecycle/desktop_local.ts`: headless, its own Xvfb and nut-js host;
 * `desktop_rdp.ts`: its private Xvfb, xfreerdp and nut-js host against this file's RDP server)
 * acts through the offline test model until it is ended by each way of `END_WAYS`, at a random
 * moment 50-650 ms after its first action. Then no process it started may survive (pid and
 * start time), nor a private folder it made in its `TMPDIR` (the X authority, the RDP client's
 * home), the exit code must fit the way, a script that ends without `destroy()` must exit by
 * itself, and the report it printed must parse.
 *
 * Under Node (a bundle of `desktop_node.ts` with the nut-js host beside it): a script that acts
 * and ends without `destroy()` runs its actions to the end (Node exits with 13 when a top-level
 * await waits on nothing that holds the process) and then exits by itself, its Xvfb gone.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  ensureDesktopTools,
  nutJsDir,
  type ShadowServer,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  type TestDisplay,
} from "../helpers/desktop.ts";
import { END_WAYS, type EndBy, parseReport, runAndEnd } from "../helpers/lifecycle.ts";

const FIXTURES = new URL("../fixtures/lifecycle/", import.meta.url);
const USER = "sdk-lifecycle";
const PASSWORD = `Lc-${randomBytes(9).toString("base64url")}!`;

/** The exit code each way must give. */
const EXIT_CODES: Readonly<Record<EndBy, number>> = {
  "end-without-destroy": 0,
  sigint: 130,
  sigterm: 143,
  "deno-exit": 3,
  "process-exit": 4,
  "uncaught-error": 1,
};

/** The programs each platform's script starts, which must have been seen running. */
const STARTED: Readonly<Record<string, string[]>> = {
  local: ["Xvfb", "deno"],
  rdp: ["Xvfb", "xfreerdp", "deno"],
};

let remote: TestDisplay;
let app: DesktopApp;
let shadow: ShadowServer;
let model: TestModel;
let runDir: string;
let nodeScript: string;

before(async () => {
  await ensureDesktopTools();
  remote = await startTestDisplay("1024x768x24");
  app = await startDesktopApp(remote.display);
  shadow = await startShadowServer(remote.display, USER, PASSWORD);
  // Locates the remote app's Save button; on the local script's empty display it is the same
  // place, where a click does nothing.
  model = await startTestModel({
    script: {
      locate: async () => {
        const save = (await app.state()).widgets.save;
        return { left: save.x, top: save.y, width: save.width, height: save.height };
      },
    },
  });
  runDir = await mkdtemp(join(tmpdir(), "sdk-lifecycle-desktop-"));
  // Node: the script and the nut-js host as ES modules side by side (the host is found next to
  // the module that starts it).
  nodeScript = join(runDir, "desktop_node.mjs");
  await bundle(fileURLToPath(new URL("desktop_node.ts", FIXTURES)), nodeScript);
  await bundle(
    fileURLToPath(new URL("../../computer/native_host.ts", import.meta.url)),
    join(runDir, "native_host.js"),
  );
  await writeFile(join(runDir, "package.json"), '{ "type": "module" }\n');
});

function bundle(entry: string, output: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      Deno.execPath(),
      ["bundle", "--platform", "deno", "-o", output, entry],
      (e, _stdout, stderr) => e ? reject(new Error(`deno bundle ${entry}: ${stderr}`)) : resolve(),
    );
  });
}

/** Whether `pid` runs (a zombie, killed and not yet reaped, does not). */
async function running(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

after(async () => {
  await model?.close();
  await shadow?.close();
  await app?.close();
  await remote?.close();
  if (runDir) await rm(runDir, { recursive: true, force: true });
});

function env(platform: string): Record<string, string> {
  return {
    ...process.env as Record<string, string>,
    DISPLAY: "",
    SDK_NUT_JS_DIR: nutJsDir(),
    SDK_RUN_DIR: join(runDir, platform),
    SDK_TEST_MODEL_CONFIG: JSON.stringify(model.modelConfig()),
    SDK_TEST_RDP_PORT: String(shadow.port),
    SDK_TEST_RDP_USER: USER,
    SDK_TEST_RDP_PASSWORD: PASSWORD,
  };
}

for (const platform of ["local", "rdp"] as const) {
  for (const endBy of END_WAYS) {
    test(`desktop ${platform}: ended by ${endBy}, the script leaves no process behind`, {
      timeout: 120_000,
    }, async () => {
      const afterReadyMs = 50 + Math.floor(Math.random() * 600);
      // The script's own temporary folder: its X authority and the RDP client's home go there.
      const tmp = join(runDir, `tmp-${platform}-${endBy}`);
      await mkdir(tmp);
      const run = await runAndEnd({
        script: fileURLToPath(new URL(`desktop_${platform}.ts`, FIXTURES)),
        env: { ...env(platform), TMPDIR: tmp },
        endBy,
        afterReadyMs,
        // A script that ends without destroy() must exit by itself well within this.
        timeoutMs: 60_000,
      });
      const context = `${endBy} after ${afterReadyMs} ms; output:\n${run.output}`;
      assert.match(run.output, /^ready$/m, context);
      for (const name of STARTED[platform]) {
        assert.ok(
          run.descendants.some((p) => p.name === name),
          `${name} was seen running (${JSON.stringify(run.descendants)}); ${context}`,
        );
      }
      assert.deepEqual(run.survivors, [], `no process the script started survives; ${context}`);
      assert.deepEqual(
        (await readdir(tmp)).filter((name) => /^sdk-(x11|rdp)-/.test(name)),
        [],
        `no X authority or client home folder is left; ${context}`,
      );
      assert.equal(run.signal, null, context);
      assert.equal(run.code, EXIT_CODES[endBy], context);
      // The script prints its report right after `ready`, before any way of ending comes.
      assert.ok(run.reportFile, `a report was printed; ${context}`);
      assert.ok((await parseReport(run.reportFile)) >= 1, `the report parses; ${context}`);
    });
  }
}

test("node: a desktop script that ends without destroy() runs to its end, then exits by itself", {
  timeout: 120_000,
}, async () => {
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>(
    (resolve) => {
      execFile(
        "node",
        [nodeScript],
        { env: { ...env("node"), SDK_RUN_DIR: join(runDir, "node") }, timeout: 60_000 },
        (e, stdout, stderr) =>
          resolve({ code: e ? (e as { code?: number }).code ?? null : 0, output: stdout + stderr }),
      );
    },
  );
  assert.match(output, /^done$/m, `all five taps ran; exit ${code}:\n${output}`);
  assert.equal(code, 0, output);
  assert.ok(Date.now() - started < 60_000, "it exited by itself");
  const xvfb = Number(/^xvfb (\d+)$/m.exec(output)?.[1]);
  assert.ok(xvfb > 0, output);
  // A killed child is reaped a moment later.
  for (let i = 0; i < 40 && await running(xvfb); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(await running(xvfb), false, "its Xvfb ended with it");
});
