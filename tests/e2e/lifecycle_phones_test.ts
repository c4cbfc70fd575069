/**
 * The phones end cleanly however their script ends (issue 24): a MobileA script (the mirror
 * stream on, so an ffmpeg child runs) and a MobileC script (an hdc child per screenshot and tap)
 * are each ended by the six ways of tests/helpers/lifecycle.ts, at a random moment shortly after
 * their first action. Each time, no process the script started survives it (the adb server is
 * allowed to stay, as adb's own does; here it is the test's private one, not the script's), the
 * exit code is the way's, no folder the SDK made is left in the script's `TMPDIR` (MobileC's
 * screenshots), and the report the script wrote parses.
 *
 * The test starts what the scripts need and passes it by environment: the simulator (virtual
 * phones in one Chromium, the adb front with a private adb server and a stand-in scrcpy server
 * jar, the hdc front) and the offline test model.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { DEFAULT_SCRCPY_SERVER_PATH } from "@sdk/mobilea";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { phoneBox } from "../helpers/phone.ts";
import { END_WAYS, type EndBy, parseReport, runAndEnd } from "../helpers/lifecycle.ts";

const NOTES = "com.example.notes";
const SCRIPTS = {
  mobilea: fileURLToPath(new URL("../fixtures/lifecycle/mobilea.ts", import.meta.url)),
  mobilec: fileURLToPath(new URL("../fixtures/lifecycle/mobilec.ts", import.meta.url)),
};
/** The exit code of each way (signals: 128 + the signal's number). */
const EXIT_CODES: Readonly<Record<EndBy, number>> = {
  "end-without-destroy": 0,
  sigint: 130,
  sigterm: 143,
  "deno-exit": 3,
  "process-exit": 4,
  "uncaught-error": 1,
};
/** How long a script may take to end by itself (or by a signal), ms. */
const RUN_TIMEOUT_MS = 90_000;
/**
 * How soon a script that stopped acting without `destroy()` must have exited, ms: far less than
 * what would hold it open (the mirror's 30 s idle timeout, a socket that is never closed).
 */
const EXIT_PROMPTLY_MS = 10_000;

let browser: Browser;
let apps: StaticServer;
let androidPhone: VirtualPhone;
let harmonyPhone: VirtualPhone;
let adbFront: AdbFront;
let adbServer: PrivateAdbServer;
let hdcFront: HdcFront;
let jarDir: string;
const models: Record<"mobilea" | "mobilec", TestModel | undefined> = {
  mobilea: undefined,
  mobilec: undefined,
};
const runDirs: string[] = [];

/** A test model that locates "the title" on `phone`'s notes list, at the phone's density. */
async function titleModel(phone: VirtualPhone): Promise<TestModel> {
  const title = await phoneBox(phone, "#list-title");
  return await startTestModel({
    script: { locate: () => title },
    imagePixelsPerCssPixel: phone.density,
  });
}

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  const notes = `${apps.url}notes/index.html`;
  androidPhone = await startVirtualPhone({
    browser,
    width: 1080,
    height: 2400,
    density: 2.625,
    apps: { [NOTES]: { url: notes, label: "Notes" } },
    startApp: NOTES,
  });
  harmonyPhone = await startVirtualPhone({
    browser,
    width: 1260,
    height: 2720,
    density: 3.25,
    apps: { [NOTES]: { url: notes, label: "Notes", activity: "EntryAbility" } },
    startApp: NOTES,
  });
  adbFront = await startAdbFront(androidPhone);
  adbServer = await startPrivateAdbServer();
  await adbServer.connect(adbFront.serial);
  // A stand-in file at the scrcpy server jar's path: the simulator then runs its scrcpy server,
  // and the scripts' mirror decodes its video with ffmpeg.
  jarDir = await mkdtemp(join(tmpdir(), "sdk-lifecycle-"));
  await writeFile(join(jarDir, "scrcpy-server"), "a stand-in for scrcpy-server-v3.3.3");
  const push = await adbServer.run([
    "-s",
    adbFront.serial,
    "push",
    join(jarDir, "scrcpy-server"),
    DEFAULT_SCRCPY_SERVER_PATH,
  ]);
  assert.equal(push.code, 0, push.stderr);
  hdcFront = await startHdcFront(harmonyPhone);
  models.mobilea = await titleModel(androidPhone);
  models.mobilec = await titleModel(harmonyPhone);
});

after(async () => {
  await Promise.allSettled(Object.values(models).map((m) => m?.close()));
  await hdcFront?.close();
  await adbServer?.close();
  await adbFront?.close();
  await androidPhone?.close();
  await harmonyPhone?.close();
  await apps?.close();
  await browser?.close();
  if (jarDir) await rm(jarDir, { recursive: true, force: true });
  await Promise.allSettled(runDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What the platform's script needs, by environment. */
function environment(platform: "mobilea" | "mobilec", runDir: string): Record<string, string> {
  const env: Record<string, string> = { ...models[platform]!.modelConfig(), SDK_RUN_DIR: runDir };
  if (platform === "mobilea") {
    env.SDK_TEST_SERIAL = adbFront.serial;
    env.SDK_TEST_ADB_PORT = String(adbServer.port);
  } else {
    env.SDK_TEST_CONNECT_KEY = hdcFront.connectKey;
    env.SDK_TEST_TOOL_PATH = hdcFront.toolPath;
  }
  return env;
}

for (const platform of ["mobilea", "mobilec"] as const) {
  for (const way of END_WAYS) {
    test(
      `${platform}: a script ended by ${way} leaves no process behind, exits ${
        EXIT_CODES[way]
      }, and its report parses`,
      { timeout: RUN_TIMEOUT_MS + 30_000 },
      async () => {
        const runDir = await mkdtemp(join(tmpdir(), `sdk-lifecycle-${platform}-`));
        runDirs.push(runDir);
        const hdcRunsBefore = hdcFront.commands.length;
        // Its own temporary folder: what the SDK made there must be gone when it ends.
        const tmp = join(runDir, "tmp");
        await mkdir(tmp);
        const run = await runAndEnd({
          script: SCRIPTS[platform],
          env: { ...environment(platform, runDir), TMPDIR: tmp },
          endBy: way,
          // A random moment within the first half second after the first action.
          afterReadyMs: Math.floor(Math.random() * 500),
          timeoutMs: RUN_TIMEOUT_MS,
        });
        const seen = run.descendants.map((p) => `${p.name}(${p.pid})`).join(", ");
        const ended = Date.now();
        assert.match(run.output, /^ready$/m, `the script never acted:\n${run.output}`);
        assert.equal(run.code, EXIT_CODES[way], `exit code for ${way}:\n${run.output}`);
        if (way === "end-without-destroy") {
          // Nothing of the SDK held it open once it stopped (ended is after the survivors check,
          // which takes up to 2 s).
          const stopped = Number(/^stopping (\d+)$/m.exec(run.output)?.[1]);
          assert.ok(stopped > 0, run.output);
          assert.ok(
            ended - stopped < EXIT_PROMPTLY_MS,
            `it exited ${ended - stopped} ms after it stopped acting`,
          );
        }
        // The adb server may stay (as adb's own does); nothing else the script started may.
        const survivors = run.survivors.filter((p) => p.name !== "adb");
        assert.deepEqual(survivors, [], `survivors of ${way} (seen: ${seen}):\n${run.output}`);
        if (platform === "mobilea") {
          // The mirror ran, so there was an ffmpeg to end, and it was adopted.
          assert.match(run.output, /^mirror connected$/m, run.output);
          const adopted = (/^adopted (.*)$/m.exec(run.output)?.[1] ?? "").split(" ").filter(Boolean)
            .map(Number);
          const ffmpeg = run.descendants.filter((p) => p.name === "ffmpeg");
          assert.ok(ffmpeg.length > 0, `no ffmpeg seen: ${seen}`);
          assert.ok(
            ffmpeg.some((p) => adopted.includes(p.pid)),
            `ffmpeg ${ffmpeg.map((p) => p.pid)} not among the adopted children ${adopted}`,
          );
        } else {
          // Each screenshot and tap was an hdc run: there were children to end. The front counts
          // them; sampling /proc every 50 ms can miss runs this short.
          assert.ok(hdcFront.commands.length > hdcRunsBefore, "no hdc run reached the front");
        }
        assert.deepEqual(
          (await readdir(tmp)).filter((name) => name.startsWith("sdk-")),
          [],
          `folders the SDK left in TMPDIR after ${way}`,
        );
        assert.ok(run.reportFile, `no report printed:\n${run.output}`);
        assert.ok((await parseReport(run.reportFile)) >= 1, "the report has no execution");
      },
    );
  }
}
