/**
 * The Playwright Test project of tests/playwright_test/phones/ (docs/device-pool.md, "Playwright
 * Test: a device per worker") on simulated phones: three Android phones of one size on one
 * private adb server, the test model answering for the notes app, and the project's three
 * workers, each taking a phone through its own `DevicePool` of the npm build.
 *
 * @module
 */

import assert from "node:assert/strict";
import { copyFile, mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { parseReportHtml } from "../../core/report/_format.ts";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { launchChromium, measure } from "../helpers/browser.ts";
import { serveStatic } from "../helpers/static_server.ts";
import { type Env, envWithNode, run } from "./run.ts";

const NOTES = "com.example.notes";
/** The phones: one size, so one set of boxes answers for all of them. */
const PHONE = { width: 720, height: 1280, density: 2 };
const PHONE_COUNT = 3;
/** The tests of notes.spec.mjs: test n opens Note n and counts it up n times. */
const NOTE_TESTS = [1, 2, 3, 4];

/** What notes.spec.mjs logs of each test that passed. */
interface LoggedTest {
  n: number;
  worker: number;
  device: string;
  start: number;
  end: number;
}

/** The boxes of the notes app's targets, measured on a phone's page at the project's size. */
async function notesTargets(page: Page): Promise<Record<string, TargetBox>> {
  const targets: Record<string, TargetBox> = {};
  for (const n of NOTE_TESTS) targets[`Note ${n}`] = await measure(page, `#note-${n}`);
  await page.evaluate(() => location.hash = "#/note/1");
  targets["the +1 button"] = await measure(page, "#increment");
  targets["the Back button"] = await measure(page, "#back");
  await page.evaluate(() => history.back());
  await page.locator("#list-screen").waitFor();
  return targets;
}

/**
 * Runs the phones project in the scratch project `app` (where `@sdk/core`, `@sdk/mobilea`,
 * `@sdk/web` and `@playwright/test` are installed) with `node`, and checks that every test
 * passed on its worker's own phone: each worker held one phone, no two workers the same, all
 * three were used, each phone's notes hold the counts of the tests that ran on it, the merged
 * report has every test's taps, and no device marker is left.
 */
export async function runPhonesProject(app: string, node: string, env: Env): Promise<void> {
  const project = join(app, "phones");
  await mkdir(project);
  for (const file of ["playwright.config.mjs", "fixtures.mjs", "notes.spec.mjs"]) {
    await copyFile(
      new URL(`../playwright_test/phones/${file}`, import.meta.url),
      join(project, file),
    );
  }
  const browser = await launchChromium();
  const apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  const phones: VirtualPhone[] = [];
  const fronts: AdbFront[] = [];
  let adbServer: PrivateAdbServer | undefined;
  let model: TestModel | undefined;
  try {
    const notes = { [NOTES]: { url: `${apps.url}notes/index.html`, label: "Notes" } };
    adbServer = await startPrivateAdbServer();
    for (let i = 0; i < PHONE_COUNT; i++) {
      const phone = await startVirtualPhone({ browser, startApp: NOTES, apps: notes, ...PHONE });
      phones.push(phone);
      const front = await startAdbFront(phone);
      fronts.push(front);
      await adbServer.connect(front.serial);
    }
    const targets = await notesTargets(phones[0].foregroundPage());
    model = await startTestModel({
      script: { locate: ({ target }) => targets[target.trim()] ?? null },
      imagePixelsPerCssPixel: PHONE.density,
    });
    const log = join(app, "phones.jsonl");
    const tmp = join(app, "phones-tmp");
    await mkdir(tmp);
    const cli = join(app, "node_modules", "@playwright", "test", "cli.js");
    const result = await run(node, [cli, "test", "--config", "phones/playwright.config.mjs"], app, {
      env: {
        ...envWithNode(node, env),
        ...model.modelConfig(),
        ANDROID_ADB_SERVER_PORT: String(adbServer.port),
        PHONES_LOG: log,
        // The device markers of this run live here, to be checked after it.
        TMPDIR: tmp,
        SDK_RUN_DIR: join(app, "phones_run"),
        SDK_REPORT_DIR: join(app, "phones_report"),
      },
      timeoutMs: 180_000,
    });
    assert.match(result.stdout, /Running 4 tests using 3 workers/, result.stdout);
    assert.match(result.stdout, /4 passed/, result.stdout);

    const logged = (await readFile(log, "utf8")).trim().split("\n").map((l) =>
      JSON.parse(l) as LoggedTest
    );
    assert.deepEqual(logged.map((t) => t.n).sort((a, b) => a - b), NOTE_TESTS);
    const deviceOf = new Map<number, string>();
    for (const t of logged) {
      assert.equal(
        deviceOf.get(t.worker) ?? t.device,
        t.device,
        `worker ${t.worker} kept its phone`,
      );
      deviceOf.set(t.worker, t.device);
    }
    const held = [...deviceOf.values()];
    assert.equal(new Set(held).size, held.length, `no phone held by two workers: ${held}`);
    assert.deepEqual(new Set(held), new Set(fronts.map((f) => f.serial)), "every phone was used");

    for (const [i, front] of fronts.entries()) {
      // The app's own `notes` (a top-level const of its script, so not on globalThis).
      const counts = await phones[i].foregroundPage().evaluate<number[]>(
        "notes.map((note) => note.count)",
      );
      const expected = counts.map((_, index) =>
        logged.some((t) => t.device === front.serial && t.n === index + 1) ? index + 1 : 0
      );
      assert.deepEqual(counts, expected, `the counts of ${front.serial} are its tests'`);
    }

    const report = parseReportHtml(
      await readFile(join(app, "phones_report", "phones.html"), "utf8"),
    );
    const titles = report.sources.map((source) => source.testTitle);
    for (const n of NOTE_TESTS) {
      const title = `note ${n} counts to ${n}`;
      assert.equal(titles.filter((t) => t.endsWith(title)).length, 1, `one "${title}": ${titles}`);
    }
    const taps = report.executions.filter((e) => e.apiName === "aiTap").length;
    const sum = NOTE_TESTS.reduce((a, n) => a + n, 0);
    assert.equal(taps, sum + 2 * NOTE_TESTS.length, "the merged report holds every test's taps");
    assert.deepEqual(await readdir(join(tmp, "sdk-device-locks")), [], "no marker is left");
  } finally {
    await model?.close();
    for (const front of fronts) await front.close().catch(() => {});
    await adbServer?.close();
    for (const phone of phones) await phone.close().catch(() => {});
    await apps.close();
    await browser.close();
  }
}
