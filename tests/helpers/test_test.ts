/**
 * The helper every test file takes `test` and `after` from: `after` cleanups run once the file's
 * tests are over, also when `--filter` skips some or all of them (node:test's `after` does not run
 * then under Deno). Checked by running `deno test` on a small test file of its own.
 *
 * @module
 */

import { after, test } from "./test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = await mkdtemp(join(tmpdir(), "sdk-test-helper-"));
after(() => rm(dir, { recursive: true, force: true }));

/**
 * A test file with two tests and two cleanups, each line it runs appended to `log`; the first
 * cleanup throws when `failFirst`.
 */
function fixture(log: string, failFirst = false): string {
  const helper = new URL("./test.ts", import.meta.url).href;
  return `import { after, test } from ${JSON.stringify(helper)};
import { appendFileSync } from "node:fs";
const note = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
after(() => {
  note("cleanup 1");
  ${failFirst ? 'throw new Error("cleanup 1 failed");' : ""}
});
after(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  note("cleanup 2");
});
test("first alpha", () => note("test alpha"));
test("second beta", () => note("test beta"));
`;
}

/** Runs the fixture with `deno test` and these extra arguments; returns the log and the exit code. */
async function run(args: string[], failFirst = false): Promise<{ log: string[]; code: number }> {
  const name = `run-${crypto.randomUUID()}`;
  const file = join(dir, `${name}_test.js`);
  const log = join(dir, `${name}.log`);
  await writeFile(file, fixture(log, failFirst));
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", "--no-config", file, ...args],
    stdout: "null",
    stderr: "null",
    stdin: "null",
  }).output();
  const text = await readFile(log, "utf8").catch(() => "");
  return { log: text.split("\n").filter(Boolean), code };
}

test("after(): the cleanups run once, in order, after the file's last test", async () => {
  assert.deepEqual(await run([]), {
    log: ["test alpha", "test beta", "cleanup 1", "cleanup 2"],
    code: 0,
  });
});

test("after(): the cleanups run when --filter skips some of the file's tests", async () => {
  // node:test's `after` runs neither here nor below (issue 41).
  assert.deepEqual(await run(["--filter", "alpha"]), {
    log: ["test alpha", "cleanup 1", "cleanup 2"],
    code: 0,
  });
  assert.deepEqual(await run(["--filter", "beta"]), {
    log: ["test beta", "cleanup 1", "cleanup 2"],
    code: 0,
  });
});

test("after(): the cleanups run when --filter skips every test of the file", async () => {
  assert.deepEqual(await run(["--filter", "no such test"]), {
    log: ["cleanup 1", "cleanup 2"],
    code: 0,
  });
});

test("after(): a failing cleanup fails the run, and the next cleanup still runs", async () => {
  const { log, code } = await run([], true);
  assert.deepEqual(log, ["test alpha", "test beta", "cleanup 1", "cleanup 2"]);
  assert.notEqual(code, 0);
});
