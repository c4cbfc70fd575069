/// <reference lib="dom" />

/**
 * The `sdk` command line end to end, as a subprocess: `sdk run` on tests/fixtures/cli (two YAML
 * scripts and a feature file) with the test model over HTTP, in the system Chromium. The model
 * cannot see the command line's pages, so the boxes it answers are measured here on the same
 * fixture page at the same viewport; what the pages really did is read back through the scripts'
 * `javascript` item and their output file.
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { parseReportHtml } from "../../core/report/_format.ts";
import { launchChromium, measure } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";
import { freePort } from "../helpers/free_port.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAIN = join(ROOT, "cli/bin.ts");
const FIXTURES = join(ROOT, "tests/fixtures/cli");

let browser: Browser;
let model: TestModel;
let button: TargetBox;
let work: string;

before(async () => {
  browser = await launchChromium();
  const app = await serveStatic(FIXTURE_APP_DIR);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${app.url}actions.html`);
  button = await measure(page, "#click-button");
  await page.close();
  await app.close();
  model = await startTestModel({
    viewport: { width: 1280, height: 800 },
    script: {
      locate: (call) => /click me/i.test(call.target) ? button : null,
      plan: (call) =>
        call.history.length === 0
          ? {
            log: "Tap the Click me button",
            action: {
              type: "Tap",
              param: { locate: { prompt: "the Click me button", box: button } },
            },
          }
          : { log: "Done", finished: true },
      assert: (call) => ({ pass: !/NOT THERE/.test(call.assertion) }),
    },
  });
  work = await mkdtemp(join(tmpdir(), "sdk-cli-"));
});

after(async () => {
  await model.close();
  await browser.close();
  await rm(work, { recursive: true, force: true });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sdk <args>` in `work` with the test model's variables (and `env`). */
async function sdk(...args: string[]): Promise<CliRun> {
  return await sdkWith({}, ...args);
}

async function sdkWith(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    cwd: work,
    env: {
      ...model.modelConfig(),
      SDK_RUN_DIR: join(work, "sdk_run"),
      SDK_CLI_TEST_OUT: join(work, "out"),
      ...env,
    },
    stdin: "null",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

test("sdk run --concurrent 2 runs a folder of three files, exits 1 for the failing one, and writes the summary, the outputs and one merged report", async () => {
  const summaryFile = join(work, "out/summary.json");
  const run = await sdk(
    "run",
    FIXTURES,
    "--concurrent",
    "2",
    "--continue-on-error",
    "--summary",
    summaryFile,
  );
  assert.equal(run.code, 1, `exit code 1 for a failed file\n${run.stdout}\n${run.stderr}`);

  const summary = JSON.parse(await readFile(summaryFile, "utf8"));
  const byFile = Object.fromEntries(
    summary.files.map((f: { file: string }) => [f.file.split("/").pop(), f]),
  );
  assert.deepEqual(
    [summary.passed, summary.failed, summary.skipped, summary.concurrent],
    [2, 1, 0, 2],
  );
  assert.equal(byFile["counter.yaml"].status, "passed");
  assert.deepEqual(byFile["counter.yaml"].items.map((i: { name: string }) => i.name), [
    "tap twice",
    "check",
  ]);
  assert.equal(byFile["todo.feature"].status, "passed");
  assert.equal(byFile["broken.yaml"].status, "failed");
  assert.match(byFile["broken.yaml"].error, /NOT THERE/);

  // The page's own count, read by the script's javascript item.
  assert.deepEqual(JSON.parse(await readFile(join(work, "out/counter.json"), "utf8")), {
    clicks: 2,
  });

  // Plain progress lines (stdout is not a terminal) and the table.
  assert.match(run.stdout, /\[start\] .*counter\.yaml/);
  assert.match(run.stdout, /\[step\] {2}.*counter\.yaml: aiTap/);
  assert.match(run.stdout, /FAILED +.*broken\.yaml/);
  assert.match(run.stdout, /2 passed, 1 failed, 0 skipped/);

  // One merged report holding each file's executions, opened in Chromium.
  const merged = summary.mergedReport as string;
  assert.ok(merged && merged.endsWith(".html"), `merged report: ${merged}`);
  assert.match(run.stdout, new RegExp(`report: ${merged.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  const parsed = parseReportHtml(await readFile(merged, "utf8"));
  assert.ok(parsed.executions.some((e) => e.apiName === "aiTap"));
  assert.ok(parsed.executions.some((e) => e.apiName === "aiAct"));
  assert.ok(parsed.executions.some((e) => e.apiName === "aiAssert" && e.status === "failed"));
  const page = await browser.newPage();
  try {
    await page.goto(`file://${merged}`);
    await page.waitForFunction(() => document.querySelector("#hdr")?.childElementCount);
    const text = await page.evaluate(() => document.body.innerText);
    for (const name of ["counter.yaml", "todo.feature", "broken.yaml"]) {
      assert.ok(text.includes(name), `the merged report lists ${name}`);
    }
  } finally {
    await page.close();
  }
});

test("without --continue-on-error, files after the first failure are skipped", async () => {
  const summaryFile = join(work, "out/stop.json");
  const run = await sdk(
    "run",
    join(FIXTURES, "broken.yaml"),
    join(FIXTURES, "counter.yaml"),
    "--summary",
    summaryFile,
  );
  assert.equal(run.code, 1);
  const summary = JSON.parse(await readFile(summaryFile, "utf8"));
  assert.deepEqual(summary.files.map((f: { status: string }) => f.status), ["failed", "skipped"]);
});

test("usage errors exit 2 naming the problem; a bad script fails naming its file, line and key", async () => {
  const unknown = await sdk("run", FIXTURES, "--wait-after-acton", "5");
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /unknown flag --wait-after-acton \(did you mean --wait-after-action\?\)/,
  );
  const missing = await sdk("run", "nothing-here.yaml");
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no such file or folder: nothing-here\.yaml/);

  const bad = join(work, "bad.yaml");
  await Deno.writeTextFile(
    bad,
    "web:\n  url: http://127.0.0.1:9/\ntasks:\n  - name: t\n    flow:\n      - aiTapp: the button\n",
  );
  const run = await sdk("run", "bad.yaml", "--summary", join(work, "out/bad.json"));
  assert.equal(run.code, 1);
  const file = JSON.parse(await readFile(join(work, "out/bad.json"), "utf8")).files[0];
  assert.match(file.error, /^bad\.yaml:6:\d+: .*aiTapp/);
});

test("an invalid script fails its file (exit 1), a YAML syntax error too; every error is listed, with paths as typed; a failed file lists its completed and failed tasks; 'target:' warns", async () => {
  const dir = join(work, "rules");
  await Deno.mkdir(join(dir, "bad"), { recursive: true });
  const serve = `  serve: ${JSON.stringify(FIXTURE_APP_DIR)}\n  url: actions.html\n`;
  await Deno.writeTextFile(
    join(dir, "bad", "syntax.yaml"),
    "web:\n  url: https://example.com\ntasks:\n  - name: t\n    flow:\n      - aiTap: [open\n",
  );
  await Deno.writeTextFile(
    join(dir, "bad", "many.yaml"),
    `web:\n${serve}tasks:\n  - name: t\n    flow:\n      - aiTapp: the button\n      - sleep: soon\n`,
  );
  await Deno.writeTextFile(
    join(dir, "items.yaml"),
    `web:\n${serve}tasks:\n` +
      "  - name: first\n    flow:\n      - aiTap: the Click me button\n" +
      "  - name: second\n    flow:\n      - aiAssert: the page shows a NOT THERE banner\n" +
      "  - name: third\n    flow:\n      - sleep: 1\n",
  );
  await Deno.writeTextFile(
    join(dir, "old.yaml"),
    `target:\n${serve}tasks:\n  - name: only\n    flow:\n      - sleep: 1\n`,
  );
  const summaryFile = join(work, "out/rules.json");
  const absolute = join(dir, "old.yaml");
  const run = await sdk(
    "run",
    "./rules/bad/syntax.yaml",
    "rules/bad/many.yaml",
    "rules/items.yaml",
    absolute,
    "--continue-on-error",
    "--summary",
    summaryFile,
  );
  assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
  const files = JSON.parse(await readFile(summaryFile, "utf8")).files;
  assert.deepEqual(
    files.map((f: { file: string; status: string }) => [f.file, f.status]),
    [
      ["./rules/bad/syntax.yaml", "failed"],
      ["rules/bad/many.yaml", "failed"],
      ["rules/items.yaml", "failed"],
      [absolute, "passed"],
    ],
  );
  assert.match(files[0].error, /^\.\/rules\/bad\/syntax\.yaml:7:1: invalid YAML/);
  // Both errors of the file, each with the path as typed; the web script is offered web keys.
  assert.match(files[1].error, /^rules\/bad\/many\.yaml:7:9: .*'aiTapp'.*did you mean 'aiTap'/);
  assert.match(files[1].error, /\nrules\/bad\/many\.yaml:8:16: 'sleep'/);
  assert.doesNotMatch(files[1].error, /runBridgeShell|runDriverRequest|runToolShell/);
  assert.deepEqual(files[1].items, []);
  // The failed file's tasks: the one that passed, the one that failed; the third never ran.
  assert.deepEqual(
    files[2].items.map((i: { name: string; status: string }) => [i.name, i.status]),
    [["first", "passed"], ["second", "failed"]],
  );
  assert.match(files[2].items[1].error, /NOT THERE/);
  assert.match(run.stdout, /FAILED +rules\/items\.yaml +[\d.]+ m?s +1\/2/);
  assert.deepEqual(files[3].warnings.length, 1);
  assert.match(files[3].warnings[0], /old\.yaml:1:1: 'target' is the former name of 'web'/);
  assert.match(run.stdout + run.stderr, /'target' is the former name of 'web'/);
});

test("a page that does not open fails its file with a NavigationError naming the file:line of its url, the address and what to check, without terminal escapes", async () => {
  const port = await freePort();
  await Deno.writeTextFile(
    join(work, "unreachable.yaml"),
    `web:\n  url: http://127.0.0.1:${port}/login\ntasks:\n  - name: t\n    flow:\n      - sleep: 1\n`,
  );
  await Deno.writeTextFile(
    join(work, "unreachable.feature"),
    `@url:http://127.0.0.1:${port}/\nFeature: F\n\n  Scenario: S\n    Then the page shows a heading\n`,
  );
  const summaryFile = join(work, "out/unreachable.json");
  const run = await sdk(
    "run",
    "unreachable.yaml",
    "unreachable.feature",
    "--continue-on-error",
    "--summary",
    summaryFile,
  );
  assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
  assert.ok(!(run.stdout + run.stderr).includes("\u001b"), "no terminal escapes when piped");
  const [yaml, feature] = JSON.parse(await readFile(summaryFile, "utf8")).files;
  const address = `http://127.0.0.1:${port}/`;
  assert.equal(
    yaml.error,
    `unreachable.yaml:2:8: Cannot open ${address}login: net::ERR_CONNECTION_REFUSED; nothing ` +
      `accepts connections there: check that the server runs and listens on that host and port`,
  );
  assert.match(
    feature.items[0].error,
    new RegExp(`^unreachable\\.feature:4: Cannot open ${address}: net::ERR_CONNECTION_REFUSED; `),
  );
  assert.match(run.stdout, /unreachable\.yaml:2:8: Cannot open/);
});

test("sdk run checks its scripts and the model settings before it starts Chromium: a typo or a missing key fails at once, with no browser", async () => {
  await Deno.writeTextFile(
    join(work, "typo.yaml"),
    `web:\n  url: http://127.0.0.1:9/\ntasks:\n  - name: t\n    flow:\n      - aiTapp: the button\n`,
  );
  await Deno.writeTextFile(
    join(work, "keyless.yaml"),
    `web:\n  url: http://127.0.0.1:9/\ntasks:\n  - name: t\n    flow:\n      - aiTap: the button\n`,
  );
  // A Chromium that cannot start: a run that launched it would stop with MissingDependencyError.
  const noChromium = { SDK_CHROMIUM_PATH: join(work, "no-chromium") };
  const summaryFile = join(work, "out/early.json");
  const started = performance.now();
  const typo = await sdkWith(noChromium, "run", "typo.yaml", "--summary", summaryFile);
  assert.equal(typo.code, 1, `${typo.stdout}\n${typo.stderr}`);
  assert.doesNotMatch(typo.stderr, /MissingDependencyError|Chromium/);
  assert.match(JSON.parse(await readFile(summaryFile, "utf8")).files[0].error, /^typo\.yaml:6:9: /);
  // The model's key forgotten: the file fails naming it, before any browser.
  const keyless = await sdkWith(
    { ...noChromium, SDK_MODEL_API_KEY: "" },
    "run",
    "keyless.yaml",
    "--summary",
    summaryFile,
  );
  assert.equal(keyless.code, 1, `${keyless.stdout}\n${keyless.stderr}`);
  assert.doesNotMatch(keyless.stderr, /MissingDependencyError|Chromium/);
  const error = JSON.parse(await readFile(summaryFile, "utf8")).files[0].error;
  assert.match(error, /SDK_MODEL_API_KEY is not set/);
  // Both runs together took what starting Deno twice takes.
  assert.ok(performance.now() - started < 15_000, `${performance.now() - started} ms`);
});

test("an SDK error that stops the whole run is one line with its class and code, exit 1", {
  timeout: 60_000,
}, async () => {
  const run = await sdkWith({ SDK_CHROMIUM_PATH: join(work, "no-chromium") }, "run", FIXTURES);
  assert.equal(run.code, 1);
  assert.equal(
    run.stderr,
    `sdk: MissingDependencyError (DEPENDENCY_MISSING): SDK_CHROMIUM_PATH is set to ` +
      `'${join(work, "no-chromium")}', which is not an executable file. Point it at a Chromium ` +
      `or Chrome binary, or unset it to search the usual places.\n`,
  );
});

test("sdk --help lists the flags and sdk --version prints the version", async () => {
  const help = await sdk("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--concurrent N/);
  assert.match(help.stdout, /--wait-after-action/);
  const version = await sdk("--version");
  assert.match(version.stdout, /^sdk \d+\.\d+\.\d+/);
});

test("Ctrl+C during sdk run stops the running file, still writes the summary and the merged report, and exits 1", async () => {
  const slow = join(work, "slow.yaml");
  await Deno.writeTextFile(
    slow,
    [
      "web:",
      `  serve: ${join(ROOT, "tests/fixtures/app")}`,
      "  url: actions.html",
      "agent:",
      "  waitAfterAction: 0",
      "tasks:",
      "  - name: tap then wait",
      "    flow:",
      "      - aiTap: the Click me button",
      "      - sleep: 60000",
      "",
    ].join("\n"),
  );
  const summaryFile = join(work, "out/interrupted.json");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, "run", slow, "--summary", summaryFile],
    cwd: work,
    env: { ...model.modelConfig(), SDK_RUN_DIR: join(work, "sdk_run") },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  while (!/\[step\] .*aiTap/.test(stdout)) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  child.kill("SIGINT");
  const rest = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) stdout += r.value;
  })();
  const [status] = await Promise.all([child.status, rest]);
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 1, `exit code 1 after Ctrl+C\n${stdout}\n${stderr}`);
  const summary = JSON.parse(await readFile(summaryFile, "utf8"));
  assert.equal(summary.files[0].status, "failed");
  assert.match(summary.files[0].error, /interrupted/);
  const parsed = parseReportHtml(await readFile(summary.mergedReport, "utf8"));
  assert.ok(parsed.executions.some((e) => e.apiName === "aiTap" && e.status === "passed"));
});
