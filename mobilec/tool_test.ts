import { test } from "node:test";
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { findTool, listTargets, runTool } from "./tool.ts";

function withEnv(values: Record<string, string>, body: () => void): void {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  Object.assign(process.env, values);
  try {
    body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test("TOOL_HOME and TOOL_HOME/toolchains are looked in before PATH", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-tool-"));
  try {
    await mkdir(join(dir, "home", "toolchains"), { recursive: true });
    await mkdir(join(dir, "bin"));
    for (const path of [join(dir, "home", "toolchains", "hdc"), join(dir, "bin", "hdc")]) {
      await writeFile(path, '#!/bin/sh\necho "$@"\n');
      await chmod(path, 0o755);
    }
    withEnv({ TOOL_HOME: join(dir, "home"), PATH: join(dir, "bin"), HOME: dir }, () => {
      assert.equal(findTool(), join(dir, "home", "toolchains", "hdc"));
      process.env.TOOL_HOME = join(dir, "nothing");
      assert.equal(findTool(), join(dir, "bin", "hdc"));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("runTool passes each argument as it is, and [Fail] output is an error", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-tool-"));
  try {
    const hdc = join(dir, "hdc");
    await writeFile(
      hdc,
      '#!/bin/sh\nif [ "$1" = list ]; then printf "[Empty]\\n"; exit 0; fi\n' +
        'if [ "$1" = bad ]; then echo "[Fail]Not match target founded"; exit 0; fi\n' +
        'for a in "$@"; do echo "<$a>"; done\n',
    );
    await chmod(hdc, 0o755);
    const run = await runTool(hdc, ["shell", "echo 'a b'; $HOME"]);
    assert.equal(run.stdout, "<shell>\n<echo 'a b'; $HOME>\n");
    await assert.rejects(runTool(hdc, ["bad"]), /hdc bad failed: \[Fail\]Not match target/);
    assert.deepEqual(await listTargets({ toolPath: hdc }), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
