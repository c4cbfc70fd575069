import { test } from "node:test";
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTool, listTargets, runTool } from "./tool.ts";

test("TOOL_HOME and TOOL_HOME/toolchains are looked in before PATH", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-tool-"));
  try {
    await mkdir(join(dir, "home", "toolchains"), { recursive: true });
    await mkdir(join(dir, "bin"));
    for (const path of [join(dir, "home", "toolchains", "hdc"), join(dir, "bin", "hdc")]) {
      await writeFile(path, '#!/bin/sh\necho "$@"\n');
      await chmod(path, 0o755);
    }
    const env = { TOOL_HOME: join(dir, "home"), PATH: join(dir, "bin"), HOME: dir };
    assert.equal(findTool({}, env), join(dir, "home", "toolchains", "hdc"));
    assert.equal(
      findTool({}, { ...env, TOOL_HOME: join(dir, "nothing") }),
      join(dir, "bin", "hdc"),
    );
    // Nowhere: the message lists every place and says how to install hdc.
    assert.throws(
      () => findTool({}, { PATH: join(dir, "nothing"), HOME: dir }),
      (error: Error) =>
        error.message.startsWith(
          "The HarmonyOS device tool (hdc) was not found. Looked in: TOOL_HOME (not set); ",
        ) && error.message.includes(join(dir, "nothing", "hdc")) &&
        error.message.includes(
          join(dir, "command-line-tools", "sdk", "default", "openharmony", "toolchains", "hdc"),
        ) && error.message.includes("DevEco Studio"),
    );
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
