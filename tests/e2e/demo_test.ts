/**
 * The README's main job, `deno task demo`, run as a user runs it: without `SDK_MODEL_*` it says
 * it uses the offline scripted test model, signs in and adds the todo item in headless Chromium
 * with plans of several actions, extracts and asserts, and writes its report.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT_DIR = fileURLToPath(new URL("../../", import.meta.url));

test(
  "deno task demo: the offline model, the task done in three planning calls, the report written",
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
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          Deno.execPath(),
          ["run", "-A", "--cached-only", "demo/main.ts"],
          { cwd: ROOT_DIR, env, timeout: 100_000 },
          (error, out, err) => error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
        );
      });
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
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  },
);
