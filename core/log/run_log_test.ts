import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_LOG_ENTRY_CHARS, RunLog } from "./run_log.ts";

const KEY = "sk-live-51HrealLookingKey0123456789abcdef";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "sdk-runlog-test-"));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true });
  }
}

test("every entry goes to the file; only selected categories go to the console", async () => {
  await withDir(async (dir) => {
    const printed: string[] = [];
    const log = new RunLog({ debug: "sdk:*,-sdk:device", dir, print: (l) => printed.push(l) });
    log.write("sdk:model", "request", { intent: "planning" });
    log.write("sdk:device", "Tap", { param: { x: 1 } });
    log.category("sdk:agent")("start", { api: "aiTap" });
    await log.ready;
    log.flush();
    assert.deepEqual(printed, [
      'sdk:model request {"intent":"planning"}',
      'sdk:agent start {"api":"aiTap"}',
    ]);
    const lines = (await readFile(log.file!, "utf8")).trimEnd().split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z sdk:model request /);
    assert.match(lines[1], / sdk:device Tap \{"param":\{"x":1\}\}$/);
    assert.match(lines[2], / sdk:agent start /);
    assert.ok(log.printed("sdk:report") && !log.printed("sdk:device"));
  });
});

test("keys, auth headers and images are redacted in the file and on the console", async () => {
  await withDir(async (dir) => {
    const printed: string[] = [];
    const log = new RunLog({ debug: "sdk:*", dir, print: (l) => printed.push(l) });
    log.addSecret(KEY);
    log.write("sdk:model", "error", {
      error: new Error(`401 for key ${KEY}`),
      headers: { Authorization: `Bearer ${KEY}`, "api-key": "other-secret-value" },
      image: `data:image/png;base64,${"iVBORw0KGgo".repeat(100)}`,
    });
    await log.ready;
    log.flush();
    const text = await readFile(log.file!, "utf8");
    for (const out of [text, printed.join("\n")]) {
      assert.ok(!out.includes(KEY), out);
      assert.ok(!out.includes("other-secret-value"));
      assert.ok(!out.includes("iVBORw0KGgo"));
      assert.ok(out.includes("Error: 401 for key ***"));
      assert.ok(out.includes('"Authorization":"Bearer ***"'));
      assert.ok(out.includes("[image/png base64, 825 bytes left out]"));
    }
  });
});

test("an entry is cut at MAX_LOG_ENTRY_CHARS", () => {
  const printed: string[] = [];
  const log = new RunLog({ debug: "sdk:model", dir: false, print: (l) => printed.push(l) });
  log.write("sdk:model", "answer", { content: "word ".repeat(MAX_LOG_ENTRY_CHARS) });
  assert.equal(printed.length, 1);
  assert.ok(printed[0].length < MAX_LOG_ENTRY_CHARS + 100);
  assert.match(printed[0], / \[\d+ characters cut\]$/);
});

test("without a directory no file is written", () => {
  const log = new RunLog({ debug: "", dir: false, print: () => assert.fail("nothing selected") });
  log.write("sdk:model", "request");
  log.flush();
  assert.equal(log.file, undefined);
});

test("in a browser-like runtime: console per localStorage.debug, no file", async () => {
  await withDir(async (dir) => {
    const probe = join(dir, "probe.ts");
    // No Deno and no process global: the runtime module sees a browser page.
    await writeFile(
      probe,
      `localStorage.setItem("debug", "sdk:model");
delete (globalThis as Record<string, unknown>).Deno;
delete (globalThis as Record<string, unknown>).process;
const { logger, runLog } = await import(${JSON.stringify(import.meta.resolve("./run_log.ts"))});
logger("sdk:model")("request", { intent: "planning" });
logger("sdk:device")("Tap", {});
await runLog().ready;
runLog().flush();
console.log("file:", String(runLog().file));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `--location=http://localhost/${dir}`, probe],
      env: { SDK_RUN_DIR: dir, DEBUG: "sdk:*" },
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.equal(stdout.trim(), "file: undefined");
    assert.equal(stderr.trim(), 'sdk:model request {"intent":"planning"}');
    assert.deepEqual((await readdir(dir)).sort(), ["probe.ts"], "no log directory");
  });
});
