/**
 * The README's quick-start programs run as written: the Deno sample and the Node sample, taken
 * from the README's fences, each run in a process of its own (Deno, with this workspace's config
 * and its lockfile frozen: the Node sample's bare imports resolve as in a Node project that
 * installed the packages) against the test model on 127.0.0.1, as `SDK_MODEL_*` give it. The only
 * change is the page: `https://example.com` and `http://127.0.0.1:8080/` become a local fixture
 * page of the same shape (tests/fixtures/readme/). Each must finish on its own: a sample that
 * leaves its browser open never exits.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { launchChromium, measure } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/readme/", import.meta.url));

let browser: Browser;
let site: StaticServer;
let work: string;

before(async () => {
  browser = await launchChromium();
  site = await serveStatic(FIXTURES);
  work = await mkdtemp(join(tmpdir(), "sdk-readme-"));
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The code of the first fence of `lang` after the README heading `heading`. */
async function readmeSample(heading: string, lang: string): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `README has the heading ${heading}`);
  const fence = new RegExp("\\n```" + lang + "\\n([\\s\\S]*?)\\n```\\n");
  const m = fence.exec(readme.slice(at));
  assert.ok(m, `README has a ${lang} sample under ${heading}`);
  return m[1];
}

/** A box of the fixture page `path`, measured at `viewport` as the sample's page has it. */
async function boxOf(
  path: string,
  selector: string,
  viewport: { width: number; height: number },
): Promise<TargetBox> {
  const page = await browser.newPage({ viewport });
  try {
    await page.goto(new URL(path, site.url).href);
    return await measure(page, selector);
  } finally {
    await page.close();
  }
}

interface SampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Whether it was killed for not exiting in time. */
  hung: boolean;
}

/** Runs a sample file with Deno in the workspace's config, the test model's variables set. */
function runSample(file: string, model: TestModel, limitMs: number): Promise<SampleRun> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("SDK_") && value !== undefined) env[key] = value;
  }
  Object.assign(env, model.modelConfig(), {
    SDK_RUN_DIR: join(work, "sdk_run"),
    NO_COLOR: "1",
  });
  return new Promise((done) => {
    execFile(
      Deno.execPath(),
      [
        "run",
        "--allow-all",
        "--frozen",
        "--cached-only",
        "--config",
        join(ROOT, "deno.json"),
        file,
      ],
      { cwd: work, env, timeout: limitMs, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        const failed = error as (Error & { code?: number; killed?: boolean }) | null;
        done({
          code: failed ? (typeof failed.code === "number" ? failed.code : null) : 0,
          stdout,
          stderr,
          hung: failed?.killed === true,
        });
      },
    );
  });
}

test(
  "README's Deno sample runs as written and exits: a heading read, an assertion, a link followed",
  {
    timeout: 120_000,
  },
  async () => {
    const code = await readmeSample("### Deno", "ts");
    assert.match(code, /"https:\/\/example\.com"/);
    assert.match(code, /executablePath: "\/usr\/bin\/chromium"/);
    const viewport = { width: 1280, height: 800 };
    const link = await boxOf("example.html", "#more", viewport);
    const model = await startTestModel({
      viewport,
      script: {
        extract: (call) => /heading/.test(call.demand) ? "Example Domain" : null,
        assert: (call) => ({
          pass: /one link/.test(call.assertion),
          thought: "one link: Learn more",
        }),
        locate: () => link,
        plan: (call) =>
          call.history.length === 0
            ? {
              log: "Click the link",
              action: {
                type: "Tap",
                param: { locate: { prompt: "the Learn more link", box: link } },
              },
            }
            : { log: "The new page has loaded", finished: true },
      },
    });
    try {
      const file = join(work, "readme_deno.ts");
      await writeFile(file, code.replace("https://example.com", `${site.url}example.html`));
      const run = await runSample(file, model, 90_000);
      assert.equal(
        run.hung,
        false,
        `the Deno sample did not exit in 90 s:\n${run.stdout}\n${run.stderr}`,
      );
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /^Example Domain \d+$/m);
      assert.deepEqual(model.calls.map((c) => c.kind), ["extract", "assert", "plan", "plan"]);
    } finally {
      await model.close();
    }
  },
);

test("README's Node sample runs as written and exits: the Increment button tapped", {
  timeout: 120_000,
}, async () => {
  const code = await readmeSample("### Node", "js");
  assert.match(code, /"http:\/\/127\.0\.0\.1:8080\/"/);
  // The sample's page keeps Playwright's default viewport.
  const viewport = { width: 1280, height: 720 };
  const button = await boxOf("counter.html", "#inc", viewport);
  const model = await startTestModel({
    viewport,
    script: { locate: (call) => /increment/i.test(call.target) ? button : null },
  });
  try {
    const file = join(work, "readme_node.mjs");
    await writeFile(file, code.replace("http://127.0.0.1:8080/", `${site.url}counter.html`));
    const run = await runSample(file, model, 45_000);
    assert.equal(
      run.hung,
      false,
      "the Node sample did not exit in 45 s: the browser it launched is still open\n" +
        `${run.stdout}\n${run.stderr}`,
    );
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate"]);
  } finally {
    await model.close();
  }
});
