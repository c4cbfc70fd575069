import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  adoptedChildPids,
  ConnectionError,
  DeviceNotFoundError,
  MissingDependencyError,
  ToolError,
} from "@sdk/core";
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
        error instanceof MissingDependencyError && error.code === "DEPENDENCY_MISSING" &&
        error.dependency === "hdc" &&
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

test("runTool's failures are the SDK's errors, and each run is an adopted child", {
  timeout: 20_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-tool-"));
  try {
    const hdc = join(dir, "hdc");
    await writeFile(
      hdc,
      '#!/bin/sh\ncase "$1" in\n' +
        "  gone) echo '[Fail]Not match target founded, check connect-key please'; exit 1;;\n" +
        "  down) echo '[Fail]Connect server failed'; exit 1;;\n" +
        "  bad) echo 'hdc: broken pipe (0x2f)' >&2; exit 3;;\n" +
        "  hang) exec sleep 30;;\n" +
        "esac\necho ok\n",
    );
    await chmod(hdc, 0o755);
    const codeOf = async (args: string[], timeout?: number) => {
      try {
        await runTool(hdc, args, timeout);
      } catch (error) {
        return error as Error & { code?: string };
      }
      assert.fail(`${args.join(" ")} did not fail`);
    };
    const gone = await codeOf(["gone"]);
    assert.ok(gone instanceof DeviceNotFoundError, String(gone));
    assert.equal(gone.code, "DEVICE_NOT_FOUND");
    assert.match(gone.message, /hdc gone failed \(exit code 1\): \[Fail\]Not match target/);
    const down = await codeOf(["down"]);
    assert.ok(down instanceof ConnectionError && down.kind === "refused", String(down));
    assert.equal(down.code, "CONNECTION_REFUSED");
    const bad = await codeOf(["bad"]);
    assert.ok(bad instanceof ToolError, String(bad));
    assert.equal(bad.code, "TOOL_FAILED");
    assert.equal(bad.status, 3);
    assert.equal(bad.output, "hdc: broken pipe (0x2f)");
    const hang = runTool(hdc, ["hang"], 2000);
    // While it runs, the run is an adopted child of the process (killed if the process ends).
    let adopted = false;
    while (!adopted) {
      adopted = adoptedChildPids().length === 1;
      if (!adopted) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const late = await hang.catch((error) => error as ConnectionError);
    assert.ok(late instanceof ConnectionError && late.kind === "timeout", String(late));
    assert.equal(late.code, "CONNECTION_TIMEOUT");
    assert.match(late.message, /hdc hang did not finish within 2000 ms/);
    assert.deepEqual(adoptedChildPids(), []);
    const nowhere = await runTool(join(dir, "nothing"), ["list"]).catch((error) => error as Error);
    assert.ok(nowhere instanceof MissingDependencyError, String(nowhere));
    assert.equal(nowhere.dependency, "hdc");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
