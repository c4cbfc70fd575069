/**
 * Batch files end to end through `sdk run`, as a subprocess with the test model over HTTP in the
 * system Chromium: the files a batch names (globs from its folder), its switches (concurrent,
 * continueOnError, summary, retry, shareBrowserContext), its `web` section applied to every file,
 * and flags that outrank its keys.
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { measureFixture } from "../helpers/browser.ts";
import { runSdk } from "../helpers/cli.ts";
import { FIXTURE_APP_DIR } from "../helpers/static_server.ts";

let model: TestModel;
let work: string;

before(async () => {
  const [button] = await measureFixture("actions.html", ["#click-button"]);
  model = await startTestModel({
    viewport: { width: 1280, height: 800 },
    script: {
      locate: (call) => /click me/i.test(call.target) ? button : null,
      assert: (call) => ({ pass: !/NOT THERE/.test(call.assertion) }),
    },
  });
  work = await mkdtemp(join(tmpdir(), "sdk-batch-"));
  // The scripts name only the page: the batch's web section serves the fixture app to each.
  const flows = join(work, "suite", "flows");
  await mkdir(flows, { recursive: true });
  const script = (tasks: string) => `web:\n  url: actions.html\ntasks:\n${tasks}`;
  await writeFile(
    join(flows, "0-broken.yaml"),
    script("  - name: absent\n    flow:\n      - aiAssert: the page shows a NOT THERE banner\n"),
  );
  await writeFile(
    join(flows, "a.yaml"),
    script(
      "  - name: tap\n    flow:\n      - aiTap: the Click me button\n" +
        "      - javascript: document.cookie = 'batch=shared; path=/'\n",
    ),
  );
  await writeFile(
    join(flows, "b.yaml"),
    script(
      "  - name: read\n    flow:\n      - javascript: document.cookie\n        name: cookie\n",
    ).replace("url: actions.html", "url: actions.html\n  output: ../out/b.json"),
  );
  await writeFile(
    join(work, "suite", "batch.yaml"),
    [
      "files:",
      "  - flows/*.yaml",
      "concurrent: 2",
      "continueOnError: true",
      "summary: out/summary.json",
      "web:",
      `  serve: ${JSON.stringify(FIXTURE_APP_DIR)}`,
      "  viewportWidth: 1280",
      "  viewportHeight: 800",
    ].join("\n") + "\n",
  );
});

after(async () => {
  await model.close();
  await rm(work, { recursive: true, force: true });
});

/** Runs `sdk <args>` in `work` with the test model's variables. */
const sdk = (...args: string[]) =>
  runSdk(work, { ...model.modelConfig(), SDK_RUN_DIR: join(work, "sdk_run") }, ...args);

/** `sdk run --config suite/batch.yaml --concurrent 1 <flags>`: the suite's files in order. */
const suite = (...flags: string[]) =>
  sdk("run", "--config", "suite/batch.yaml", "--concurrent", "1", ...flags);

interface Summary {
  concurrent: number;
  files: { file: string; status: string; attempts?: number; error?: string }[];
}

const summaryAt = async (path: string): Promise<Summary> =>
  JSON.parse(await readFile(join(work, path), "utf8"));

test("sdk run batch.yaml runs the files its glob names from its folder, two at a time, on past a failure, with its web section in every file, and writes its summary beside it", async () => {
  const run = await sdk("run", "suite/batch.yaml");
  assert.equal(run.code, 1, `one file fails\n${run.stdout}\n${run.stderr}`);
  const summary = await summaryAt("suite/out/summary.json");
  assert.equal(summary.concurrent, 2);
  assert.deepEqual(
    summary.files.map((f) => [f.file, f.status]),
    [
      ["suite/flows/0-broken.yaml", "failed"],
      ["suite/flows/a.yaml", "passed"],
      ["suite/flows/b.yaml", "passed"],
    ],
    run.stdout,
  );
  assert.match(summary.files[0].error!, /NOT THERE/);
});

test("flags outrank the batch's keys: --concurrent, --no-continue-on-error and --summary", async () => {
  const run = await suite("--no-continue-on-error", "--summary", "out/flags.json");
  assert.equal(run.code, 1);
  const summary = await summaryAt("out/flags.json");
  assert.equal(summary.concurrent, 1);
  assert.deepEqual(summary.files.map((f) => f.status), ["failed", "skipped", "skipped"]);
});

test("--retry runs a failed file again, and shareBrowserContext lets a later file read the cookie an earlier one set", async () => {
  const run = await suite(
    "--retry",
    "1",
    "--share-browser-context",
    "--summary",
    "out/shared.json",
  );
  assert.equal(run.code, 1, run.stderr);
  const summary = await summaryAt("out/shared.json");
  assert.equal(summary.files[0].attempts, 2, "the failing file ran twice");
  assert.equal(summary.files[1].attempts, undefined, "a passing file ran once");
  const output = JSON.parse(await readFile(join(work, "suite", "out", "b.json"), "utf8"));
  assert.match(output.cookie, /batch=shared/);
});

test("a batch file's unknown key fails with the closest known one; a batch given with other paths is a usage error", async () => {
  await writeFile(join(work, "typo.yaml"), "files: [suite/flows/a.yaml]\nconcurent: 2\n");
  const typo = await sdk("run", "typo.yaml");
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /typo\.yaml:2:1: .*unknown key 'concurent'.*did you mean 'concurrent'/);
  const mixed = await sdk("run", "typo.yaml", "suite/flows/a.yaml");
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /typo\.yaml is a batch file/);
});
