/**
 * The README's main job, `deno task demo`, run as a user runs it: without `SDK_MODEL_*` it says
 * it uses the offline scripted test model, signs in and adds the todo item in headless Chromium
 * with plans of several actions, extracts and asserts, and writes its report.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseReportHtml } from "../../core/report/_format.ts";

const ROOT_DIR = fileURLToPath(new URL("../../", import.meta.url));

test(
  "deno task demo: the offline model, the task done in three planning calls, the report written; a re-run replaces it",
  {
    timeout: 120_000,
  },
  async () => {
    const runDir = await mkdtemp(join(tmpdir(), "sdk-demo-"));
    try {
      const env: Record<string, string> = { SDK_RUN_DIR: runDir, SDK_CHROMIUM_NO_SANDBOX: "1" };
      for (const [key, value] of Object.entries(process.env)) {
        if (!key.startsWith("SDK_") && value !== undefined) env[key] ??= value;
      }
      const runDemo = () =>
        new Promise<string>((resolve, reject) => {
          execFile(
            Deno.execPath(),
            ["run", "-A", "--cached-only", "demo/main.ts"],
            { cwd: ROOT_DIR, env, timeout: 100_000 },
            (error, out, err) =>
              error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out + err),
          );
        });
      const stdout = await runDemo();
      assert.match(stdout, /Model: OFFLINE SCRIPTED TEST MODEL\./);
      assert.match(stdout, /aiAct finished: Added "Water the plants"/);
      assert.match(stdout, /aiQuery: \[.*"Water the plants"\]/);
      assert.match(stdout, /aiAssert: passed/);
      // Sign-in fields and button in one plan, the item and Add in the next, then "finished";
      // one extraction and one assertion.
      assert.match(stdout, /Model calls: 5,/);
      const reports = await readdir(join(runDir, "report"));
      assert.deepEqual(reports, ["demo.html"]);
      const html = await readFile(join(runDir, "report", "demo.html"), "utf8");
      assert.ok(html.includes("Water the plants"), "the report holds the task");
      // A re-run replaces its own report: sdk_run/report/demo.html is the last run's, no demo-2.
      const firstRun = parseReportHtml(html).meta!.createdAt;
      const again = await runDemo();
      assert.doesNotMatch(again, /is in use|belongs to an agent still running/);
      assert.ok(again.includes(`Report: ${join(runDir, "report", "demo.html")}`), again);
      assert.deepEqual(await readdir(join(runDir, "report")), ["demo.html"]);
      const rerun = parseReportHtml(await readFile(join(runDir, "report", "demo.html"), "utf8"));
      assert.ok(rerun.meta!.createdAt > firstRun, "the second run's report");
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  },
);

/** The environment of a demo run: this one's, without any SDK_ variable, plus `extra`. */
function demoEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { SDK_CHROMIUM_NO_SANDBOX: "1", ...extra };
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("SDK_") && value !== undefined) env[key] ??= value;
  }
  return env;
}

test(
  "deno task demo with two of the three model variables set fails naming the missing one, before Chromium starts",
  {
    timeout: 60_000,
  },
  async () => {
    const runDir = await mkdtemp(join(tmpdir(), "sdk-demo-"));
    try {
      const env = demoEnv({
        SDK_RUN_DIR: runDir,
        SDK_MODEL_NAME: "qwen3-vl-plus",
        SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
      });
      const started = performance.now();
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          Deno.execPath(),
          ["run", "-A", "--cached-only", "demo/main.ts"],
          { cwd: ROOT_DIR, env, timeout: 50_000 },
          (error, stdout, stderr) =>
            resolve({ code: (error as { code?: number } | null)?.code ?? 0, stdout, stderr }),
        );
      });
      assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
      assert.doesNotMatch(run.stdout, /OFFLINE|No SDK_MODEL_\* variables are set/);
      assert.match(run.stderr, /^demo: ModelConfigError \(MODEL_CONFIG_INVALID\): /m);
      assert.match(run.stderr, /SDK_MODEL_NAME and SDK_MODEL_BASE_URL are set/);
      assert.match(run.stderr, /SDK_MODEL_API_KEY is not set/);
      assert.match(run.stderr, /unset SDK_MODEL_NAME, SDK_MODEL_BASE_URL to run it offline/);
      assert.ok(performance.now() - started < 20_000, "it fails at once");
      assert.deepEqual(await readdir(runDir), [], "no report: nothing ran");
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  },
);

test(
  "Ctrl+C in the demo: the report path printed, exit 130, and no Chromium profile or singleton folder left in TMPDIR",
  {
    timeout: 90_000,
  },
  async () => {
    const runDir = await mkdtemp(join(tmpdir(), "sdk-demo-"));
    const tmp = await mkdtemp(join(tmpdir(), "sdk-demo-tmp-"));
    try {
      // Its own process group, as a terminal's foreground job: Ctrl+C signals the whole group.
      const child = spawn(Deno.execPath(), ["run", "-A", "--cached-only", "demo/main.ts"], {
        cwd: ROOT_DIR,
        env: demoEnv({ SDK_RUN_DIR: runDir, TMPDIR: tmp }),
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "", stderr = "";
      child.stderr.on("data", (d) => stderr += d);
      const exited = new Promise<number | null>((resolve) =>
        child.on("exit", (code) => resolve(code))
      );
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no task started:\n${stdout}\n${stderr}`)),
          60_000,
        );
        child.stdout.on("data", (d) => {
          stdout += d;
          if (stdout.includes("> aiAct:")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      process.kill(-child.pid!, "SIGINT");
      const code = await exited;
      assert.equal(code, 130, `${stdout}\n${stderr}`);
      assert.match(stdout, /Interrupted \(Ctrl\+C\)/);
      const report = join(runDir, "report", "demo.html");
      assert.ok(stdout.includes(`Report: ${report}`), stdout);
      assert.ok(
        (await readFile(report, "utf8")).includes("Sign in as alice"),
        "the partial report",
      );
      const left = (await readdir(tmp)).filter((f) => /chrom|playwright/i.test(f));
      assert.deepEqual(left, [], `left in TMPDIR: ${left.join(", ")}`);
      assert.doesNotMatch(stderr, /Uncaught|error:/);
    } finally {
      await rm(runDir, { recursive: true, force: true });
      await rm(tmp, { recursive: true, force: true });
    }
  },
);

test(
  "deno task demo:yaml: the YAML quick start runs demo/flow.yaml through sdk run on the bundled app with the offline model",
  {
    timeout: 120_000,
  },
  async () => {
    const runDir = await mkdtemp(join(tmpdir(), "sdk-demo-"));
    try {
      const summaryFile = join(runDir, "summary.json");
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          Deno.execPath(),
          ["task", "demo:yaml", "--summary", summaryFile],
          { cwd: ROOT_DIR, env: demoEnv({ SDK_RUN_DIR: runDir, NO_COLOR: "1" }), timeout: 100_000 },
          (error, stdout, stderr) =>
            resolve({ code: (error as { code?: number } | null)?.code ?? 0, stdout, stderr }),
        );
      });
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /Model: OFFLINE SCRIPTED TEST MODEL/);
      assert.match(run.stdout, /PASSED +demo\/flow\.yaml +[\d.]+ m?s +2\/2/);
      const summary = JSON.parse(await readFile(summaryFile, "utf8"));
      assert.deepEqual(
        summary.files[0].items.map((i: { name: string; status: string }) => [i.name, i.status]),
        [["sign in and add a todo", "passed"], ["check the list", "passed"]],
      );
      assert.equal(summary.files[0].report, join(runDir, "report", "demo-flow.html"));
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  },
);
