/**
 * Who may read what the SDK writes (issue 36): run log files 0600 in a 0700 folder, the plan cache
 * and the observed frames in 0700 folders, on Deno (whose `node:fs` `appendFileSync` ignores the
 * umask) and on Node; reports follow the umask, since people share them.
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { RotatingLogFile } from "./log_file.ts";
import { EXPECTED_MODES as EXPECTED, mode, writeAll } from "./_file_modes_entry.ts";

test("Deno, umask 022: the run log 0600 in a 0700 folder, cache and frames folders 0700; the report and the run folder follow the umask", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-modes-"));
  const old = process.umask(0o022);
  try {
    assert.deepEqual(await writeAll(dir), EXPECTED);
  } finally {
    process.umask(old);
    await rm(dir, { recursive: true, force: true });
  }
});

test("Deno: a log file left 0666 by an older version is made 0600 before it is written to", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-modes-"));
  try {
    const file = join(dir, "sdk-old.log");
    await writeFile(file, "old\n", { mode: 0o666 });
    const log = new RotatingLogFile({
      dir,
      maxFileBytes: 1 << 20,
      maxTotalBytes: 4 << 20,
      stem: "sdk-old",
    });
    await log.ready;
    log.append("new\n");
    log.flush();
    assert.equal(await mode(file), "600");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** The `node` on PATH, when there is one that has `process.getBuiltinModule` (20.16 and newer). */
async function nodeBinary(): Promise<string | undefined> {
  return await new Promise((resolve) =>
    execFile(
      "node",
      ["-e", "process.stdout.write(String(!!process.getBuiltinModule))"],
      (e, out) => resolve(!e && out === "true" ? "node" : undefined),
    )
  );
}

test("Node, umask 022: the same modes (this file's writeAll bundled with esbuild)", async (t) => {
  const node = await nodeBinary();
  if (!node) return t.skip("no node with process.getBuiltinModule on PATH");
  const dir = await mkdtemp(join(tmpdir(), "sdk-modes-node-"));
  try {
    const esbuild = await import("esbuild");
    const entry = join(dir, "entry.ts");
    const here = fileURLToPath(new URL(".", import.meta.url));
    await writeFile(
      entry,
      `import { writeAll } from ${JSON.stringify(join(here, "_file_modes_entry.ts"))};\n` +
        `console.log(JSON.stringify(await writeAll(${JSON.stringify(join(dir, "out"))})));\n`,
    );
    await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: join(dir, "bundle.mjs"),
      // The CommonJS dependencies (yaml) require Node's modules.
      banner: {
        js:
          'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
      },
      logLevel: "silent",
    });
    await esbuild.stop();
    const out = await new Promise<string>((resolve, reject) =>
      execFile("sh", ["-c", `umask 022; exec ${node} ${join(dir, "bundle.mjs")}`], {
        cwd: fileURLToPath(new URL("../../", import.meta.url)),
      }, (e, stdout, stderr) => e ? reject(new Error(`${e}\n${stderr}`)) : resolve(stdout))
    );
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)!), EXPECTED);
    assert.ok((await readdir(join(dir, "out"))).includes("run"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
