/**
 * Run logs end to end (docs/logs.md): a real agent run in real Chromium, in a subprocess per
 * `DEBUG` setting, with a realistic API key flowing through every model call. The log file under
 * `<SDK_RUN_DIR>/log` holds the model request and answer and the Tap, never the key or image
 * data; the console shows only the categories `DEBUG` selects.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Looks like a provider key; the test model only answers requests that carry it. */
const API_KEY = `sk-proj-${crypto.randomUUID().replaceAll("-", "")}Zq9`;

/** Output of one run of _run_log_agent.ts in its own process. */
interface Run {
  stdout: string;
  stderr: string;
  /** The log directory's files: name and text. */
  logs: { name: string; text: string }[];
}

/**
 * Runs _run_log_agent.ts in its own process with a fresh `SDK_RUN_DIR` and `DEBUG` (empty for
 * none: the child otherwise inherits this process's environment).
 */
async function runAgent(debug: string): Promise<Run> {
  const runDir = await mkdtemp(join(tmpdir(), "sdk-run-log-e2e-"));
  try {
    const script = new URL("./_run_log_agent.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", script, API_KEY],
      env: { SDK_RUN_DIR: runDir, DEBUG: debug },
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    const [stdout, stderr] = [decode(out.stdout), decode(out.stderr)];
    assert.equal(out.code, 0, `the run failed:\n${stderr}`);
    const dir = join(runDir, "log");
    const logs = await Promise.all(
      (await readdir(dir)).map(async (name) => ({
        name,
        text: await readFile(join(dir, name), "utf8"),
      })),
    );
    return { stdout, stderr, logs };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/** The run's own result line: the page's clicks and what the model server saw. */
function result(run: Run): { clicks: number; authorization: string[] } {
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!);
}

test("a run without DEBUG writes a log file with the model request and answer and the Tap, no key, no image data, nothing on the console", async () => {
  const run = await runAgent("");
  const { clicks, authorization } = result(run);
  assert.equal(clicks, 1, "the Tap really happened");
  assert.ok(
    authorization.length >= 2 && authorization.every((a) => a === "expected"),
    `every model call carried the key: ${authorization}`,
  );
  assert.equal(run.logs.length, 1, "one file for one process");
  const [{ name, text }] = run.logs;
  assert.match(name, /^sdk-\d{8}-\d{6}-\d+\.log$/);
  const lines = text.trimEnd().split("\n");
  const of = (category: string, message: string) =>
    lines.filter((l) => l.split(" ")[1] === category && l.split(" ")[2] === message);
  // Three planning calls (Tap, then done; then "impossible"), each a request and an answer.
  const requests = of("sdk:model", "request");
  assert.equal(requests.length, 3);
  assert.match(requests[0], /"intent":"planning"/);
  assert.match(requests[0], /click the Click me button once/, "the instruction is in the request");
  assert.match(
    requests[0],
    /"image":"image\/(png|jpeg) \d+x\d+, \d+ bytes"/,
    "images by size only",
  );
  const answers = of("sdk:model", "answer");
  assert.equal(answers.length, 3);
  assert.match(answers[0], /Tap the Click me button/, "the model's answer text");
  assert.match(answers[0], /"totalTokens":\d+/);
  // The action, from the agent and from the device seam, with its parameters and time.
  assert.equal(of("sdk:agent", "action").length, 1);
  assert.match(
    of("sdk:agent", "action")[0],
    /"name":"Tap".*"description":"the Click me button".*"ms":\d+/,
  );
  const taps = of("sdk:device", "Tap");
  assert.equal(taps.length, 1);
  assert.match(taps[0], /"param":\{"locate":\{.*"center":\[\d+(\.\d+)?,\d+(\.\d+)?\]/);
  assert.match(of("sdk:agent", "start")[0], /"api":"aiAct"/);
  assert.match(of("sdk:agent", "end")[0], /"api":"aiAct","ms":\d+/);
  assert.equal(of("sdk:agent", "error").length, 1);
  assert.match(of("sdk:agent", "error")[0], /"api":"aiAct".*no checkout button on this page/);
  // What must never be there.
  assert.ok(!text.includes(API_KEY), "the API key is redacted");
  assert.match(
    requests[0],
    /"metadata":\{"gateway_key":"\*\*\*"\}/,
    "the key in the body, cut out",
  );
  assert.ok(!/base64,[A-Za-z0-9+/]/.test(text), "no data URI body");
  assert.ok(!/[A-Za-z0-9+/]{200,}/.test(text), "no long base64 run");
  // DEBUG unset: the console stays quiet.
  assert.ok(!/sdk:(model|agent|device|report) /.test(run.stderr), run.stderr);
});

test("DEBUG=sdk:model prints model lines, not device or agent lines, and still no key", async () => {
  const run = await runAgent("sdk:model");
  assert.equal(result(run).clicks, 1);
  const console = run.stderr.split("\n");
  assert.ok(console.filter((l) => l.startsWith("sdk:model request ")).length === 3, run.stderr);
  assert.ok(console.filter((l) => l.startsWith("sdk:model answer ")).length === 3, run.stderr);
  assert.ok(!console.some((l) => /^sdk:(device|agent|report) /.test(l)), run.stderr);
  assert.ok(!run.stderr.includes(API_KEY));
  // The file still has every category.
  assert.match(run.logs[0].text, / sdk:device Tap /);
});
