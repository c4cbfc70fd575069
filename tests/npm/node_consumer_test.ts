/**
 * The npm build works for a Node user on every Node major the packages declare:
 * `scripts/build_npm.ts` emits the packages, `npm pack` packs them, and a scratch Node project
 * installs the tarballs once (real copies, not symlinks, so package resolution is the one users
 * get) plus `playwright-core`, with npm running on the lowest declared Node, where it must not
 * warn EBADENGINE. Then `consumer.mjs`, which drives real Chromium through `DriverBPageAgent` and
 * the scripted test model, runs under each Node major of {@link nodeMajorsToTest}, Node binaries
 * from the npm registry, never the machine's own Node. Last, the Playwright Test project of
 * tests/playwright_test/ runs with the installed `@playwright/test` and
 * `@sdk/web/playwright-test`, with 2 workers and as 2 shards merged into one report, and the
 * phone project of tests/playwright_test/phones/ (docs/device-pool.md) with `@sdk/mobilea`: three
 * workers, a simulated phone each (tests/npm/phones_project.ts).
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { parseReportHtml } from "../../core/report/_format.ts";
import { findChromium, launchChromium, measure } from "../helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../helpers/static_server.ts";
import { installNode, newestNodeMajor, nodeMajorsToTest } from "./node_versions.ts";
import { type Env, envWithNode, run } from "./run.ts";
import { runPhonesProject } from "./phones_project.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TOOLS = join(ROOT, "npm", ".tools");

/** What consumer.mjs prints as its last line. */
interface ConsumerResult {
  node: string;
  counter: number;
  aiNumber: number;
  reportFile: string | null | undefined;
  reportExists: boolean;
  calls: string[];
  /** The `sdk run` of the package's bin: its exit code and the count its script read. */
  cli: { code: number; count: string | null };
}

/** `playwright-core@^1.65.1`, from the root import map, so the consumer gets the tested range. */
async function playwrightSpec(): Promise<string> {
  const config = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8")) as {
    imports: Record<string, string>;
  };
  return config.imports["playwright-core"].replace(/^npm:/, "");
}

/** The `engines.node` of each built package, e.g. `{ "@sdk/core": ">=22.0.0", ... }`. */
async function builtEngines(): Promise<Record<string, string>> {
  const engines: Record<string, string> = {};
  for (const dir of ["core", "web", "cli", "mobilea"]) {
    const pkg = JSON.parse(await readFile(join(ROOT, "npm", dir, "package.json"), "utf8")) as {
      name: string;
      engines: { node: string };
    };
    engines[pkg.name] = pkg.engines.node;
  }
  return engines;
}

test("npm packages: a Node consumer installed from the tarballs taps twice and reads the counter, on each declared Node major", async (t) => {
  const chromiumPath = await findChromium();
  const work = await mkdtemp(join(tmpdir(), "sdk-npm-consumer-"));
  try {
    // process.execPath is the deno binary running this test.
    const [, newest] = await Promise.all([
      run(process.execPath, ["run", "--allow-all", "scripts/build_npm.ts"], ROOT),
      newestNodeMajor(ROOT),
    ]);
    const engines = await builtEngines();
    const majors = [
      ...new Set(Object.values(engines).flatMap((engine) => nodeMajorsToTest(engine, newest))),
    ].sort((a, b) => a - b);
    const nodes = await Promise.all(majors.map((major) => installNode(TOOLS, major)));
    // npm runs on the lowest declared Node: a dependency needing more makes it warn EBADENGINE.
    const npmEnv = envWithNode(nodes[0]);

    const tarballs: string[] = [];
    for (const dir of ["core", "web", "cli", "mobilea"]) {
      const packed = await run(
        "npm",
        ["pack", "--json", "--pack-destination", work],
        join(ROOT, "npm", dir),
        { env: npmEnv },
      );
      const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
      tarballs.push(join(work, filename));
    }

    const app = join(work, "app");
    await mkdir(app);
    // The project's own package.json keeps npm from installing into a parent folder.
    await writeFile(
      join(app, "package.json"),
      JSON.stringify({ name: "sdk-npm-consumer", private: true, type: "module" }, null, 2),
    );
    const install = await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        ...tarballs,
        await playwrightSpec(),
        (await playwrightSpec()).replace(/^playwright-core@/, "@playwright/test@"),
      ],
      app,
      { env: npmEnv },
    );
    assert.doesNotMatch(
      install.stderr,
      /EBADENGINE/,
      `npm install on Node ${majors[0]} warns about engines (declared: ${
        JSON.stringify(engines)
      }):\n${install.stderr}`,
    );
    await copyFile(new URL("./consumer.mjs", import.meta.url), join(app, "consumer.mjs"));

    // The consumer must not pick up a real model from the developer's environment.
    const baseEnv: Env = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith("SDK_")),
    );
    baseEnv.SDK_CHROMIUM_PATH = chromiumPath;
    // Side by side: each run has its own Chromium and mostly waits, so all cost about what one did.
    await Promise.all(majors.map((major, index) =>
      t.test(`Node ${major}`, async () => {
        const node = nodes[index];
        const { stdout } = await run(node, ["consumer.mjs"], app, {
          env: envWithNode(node, baseEnv),
          timeoutMs: 90_000,
        });
        const line = stdout.trim().split("\n").findLast((l) => l.startsWith("{"));
        assert.ok(line, `consumer.mjs printed no JSON line:\n${stdout}`);
        const result = JSON.parse(line) as ConsumerResult;

        assert.match(result.node, new RegExp(`^v${major}\\.`));
        assert.equal(result.counter, 2);
        assert.equal(result.aiNumber, 2);
        assert.ok(result.reportFile?.startsWith(app), `report file ${result.reportFile} in ${app}`);
        assert.equal(result.reportExists, true);
        assert.deepEqual(result.calls, ["locate:200", "locate:200", "extract:200", "locate:200"]);
        assert.deepEqual(result.cli, { code: 0, count: "1" });
      })
    ));

    await t.test("Playwright Test: 2 workers, then 2 shards merged into one report", async () => {
      await runPlaywrightProject(app, nodes[0], { ...baseEnv, SDK_CHROMIUM_PATH: chromiumPath });
    });
    await t.test("Playwright Test: a phone per worker, three workers on three simulated phones", async () => {
      await runPhonesProject(app, nodes[0], baseEnv);
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

/** The four tests of tests/playwright_test/taps.spec.mjs. */
const PLAYWRIGHT_TESTS = [1, 2, 3, 4].map((n) => `taps the button ${n} times`);

/**
 * Runs the Playwright Test project of tests/playwright_test/ in the scratch project `app` with
 * the installed `@playwright/test` and `@sdk/web/playwright-test`: once with 2 workers, then as
 * 2 shards merged by `mergeShardReports`, each merged report opened in Chromium. The test model
 * runs here and answers every locate with the button's box, measured in Chromium on the same
 * page at the project's viewport.
 */
async function runPlaywrightProject(app: string, node: string, env: Env): Promise<void> {
  for (const file of ["playwright.config.mjs", "taps.spec.mjs"]) {
    await copyFile(new URL(`../playwright_test/${file}`, import.meta.url), join(app, file));
  }
  const fixtures = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  let model: TestModel | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(`${fixtures.url}actions.html`);
    const box = await measure(page, "#click-button");
    model = await startTestModel({ script: { locate: () => box } });
    const reportDir = join(app, "reports");
    const shardDir = join(reportDir, "shards");
    const runEnv = {
      ...envWithNode(node, env),
      ...model.modelConfig(),
      FIXTURE_URL: fixtures.url,
      SDK_RUN_DIR: join(app, "sdk_run"),
    };
    const cli = join(app, "node_modules", "@playwright", "test", "cli.js");
    const playwright = (args: string[], name: string, dir: string) =>
      run(node, [cli, "test", ...args], app, {
        env: { ...runEnv, SDK_REPORT_NAME: name, SDK_REPORT_DIR: dir },
        timeoutMs: 180_000,
      });

    const whole = await playwright(["--workers", "2"], "whole", reportDir);
    assert.match(whole.stdout, /Running 4 tests using 2 workers/, whole.stdout);
    assert.match(whole.stdout, /4 passed/, whole.stdout);
    assert.match(whole.stdout, /SDK report: .*whole\.html/);
    await assertMergedReport(browser, join(reportDir, "whole.html"), PLAYWRIGHT_TESTS);

    for (const shard of ["1/2", "2/2"]) {
      const one = await playwright(["--shard", shard], "run", shardDir);
      assert.match(one.stdout, /2 passed/, one.stdout);
    }
    const merge = await run(
      node,
      [
        "--input-type=module",
        "-e",
        `import { mergeShardReports } from "@sdk/web/playwright-test";
       console.log(await mergeShardReports(${JSON.stringify(shardDir)}, "sharded"));`,
      ],
      app,
      { env: runEnv },
    );
    const merged = merge.stdout.trim();
    assert.equal(merged, join(shardDir, "sharded.html"));
    await assertMergedReport(browser, merged, PLAYWRIGHT_TESTS);
  } finally {
    await model?.close();
    await browser.close();
    await fixtures.close();
  }
}

/** Opens a merged report in Chromium and checks it lists each test once, each with its taps. */
async function assertMergedReport(
  browser: Browser,
  file: string,
  titles: readonly string[],
): Promise<void> {
  const parsed = parseReportHtml(await readFile(file, "utf8"));
  const sources = parsed.sources.map((s) => s.testTitle);
  for (const title of titles) {
    assert.equal(
      sources.filter((s) => s.endsWith(title)).length,
      1,
      `${file} lists "${title}" once: ${JSON.stringify(sources)}`,
    );
  }
  const taps = parsed.executions.filter((e) => e.apiName === "aiTap").length;
  assert.equal(taps, 1 + 2 + 3 + 4, `${file} holds every test's taps`);
  const page = await browser.newPage();
  try {
    await page.goto(pathToFileURL(file).href);
    const text = await page.locator("body").innerText();
    for (const title of titles) assert.ok(text.includes(title), `the viewer shows "${title}"`);
  } finally {
    await page.close();
  }
}

/** The major of the `node` on the PATH, or undefined when there is none. */
async function machineNodeMajor(): Promise<number | undefined> {
  try {
    const { stdout } = await run("node", ["--version"], ROOT, { timeoutMs: 10_000 });
    return Number(/^v(\d+)\./.exec(stdout.trim())?.[1]);
  } catch {
    return undefined;
  }
}

const machineMajor = await machineNodeMajor();

test(
  "npm packages: on the machine's Node 20 the sdk bin says it needs Node 22 and exits 2, where loading the command line would die on a SyntaxError; without playwright-core, launchChromium says to install it",
  {
    skip: machineMajor === undefined || machineMajor >= 22
      ? `the machine's node is ${
        machineMajor ?? "missing"
      }, not older than 22 (cli/runtime_check_test.ts checks the function with fake versions)`
      : false,
    timeout: 300_000,
  },
  async () => {
    const work = await mkdtemp(join(tmpdir(), "sdk-npm-old-node-"));
    try {
      await run(process.execPath, ["run", "--allow-all", "scripts/build_npm.ts"], ROOT);
      const tarballs: string[] = [];
      for (const dir of ["core", "web", "cli"]) {
        const packed = await run(
          "npm",
          ["pack", "--json", "--pack-destination", work],
          join(ROOT, "npm", dir),
        );
        const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
        tarballs.push(join(work, filename));
      }
      const app = join(work, "app");
      await mkdir(app);
      await writeFile(
        join(app, "package.json"),
        JSON.stringify({ name: "sdk-old-node", private: true, type: "module" }),
      );
      // npm on the machine's Node installs anyway (it only warns EBADENGINE), as a user's would.
      await run(
        "npm",
        ["install", "--no-audit", "--no-fund", "--prefer-offline", ...tarballs],
        app,
      );
      const sdk = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          execFile(
            "node",
            [join(app, "node_modules", ".bin", "sdk"), "run", "flows/"],
            { cwd: app, timeout: 30_000 },
            (error, stdout, stderr) =>
              resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
          );
        },
      );
      assert.equal(sdk.code, 2, `exit code; stderr:\n${sdk.stderr}`);
      assert.match(sdk.stderr, new RegExp(`needs Node 22 or newer; this is ${machineMajor}\\.`));
      assert.doesNotMatch(sdk.stderr, /SyntaxError/);
      assert.equal(sdk.stdout, "");
      // What the bin used to do: load the command line first. It does not link on this Node.
      const direct = await new Promise<string>((resolve) => {
        execFile(
          "node",
          [join(app, "node_modules", "@sdk", "cli", "main.js")],
          { cwd: app, timeout: 30_000 },
          (_error, _stdout, stderr) => resolve(stderr),
        );
      });
      assert.match(direct, /SyntaxError: .*does not provide an export named 'glob'/);
      // playwright-core, an optional peer, is not installed here: launching Chromium says so.
      const peer = await new Promise<string>((resolve) => {
        execFile(
          "node",
          [
            "--input-type=module",
            "-e",
            `import("@sdk/web/chromium").then((m) => m.launchChromium()).then(` +
            `() => console.log("launched"), (e) => console.log(JSON.stringify([e.name, e.code, ` +
            `e.dependency, e.message])))`,
          ],
          { cwd: app, timeout: 30_000 },
          (_error, stdout) => resolve(stdout.trim()),
        );
      });
      const [name, code, dependency, message] = JSON.parse(peer) as string[];
      assert.deepEqual(
        [name, code, dependency],
        ["MissingDependencyError", "DEPENDENCY_MISSING", "playwright-core"],
      );
      assert.match(message, /npm install playwright-core/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
);
