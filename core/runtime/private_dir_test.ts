import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { privateTempDir } from "./private_dir.ts";

const FIXTURE = fileURLToPath(new URL("./testdata/private_dir_child.ts", import.meta.url));

test("privateTempDir() makes a folder of this user only, which remove() deletes (twice is fine)", async () => {
  const dir = await privateTempDir("sdk-private-dir-test-");
  assert.match(basename(dir.path), /^sdk-private-dir-test-\w{6}$/);
  assert.equal(statSync(dir.path).mode & 0o777, 0o700);
  await dir.remove();
  assert.equal(existsSync(dir.path), false);
  await dir.remove();
});

/** Runs the fixture in `mode`, sending `signal` once it waits; its exit code and folder. */
async function run(mode: string, signal?: Deno.Signal): Promise<{ code: number; dir: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-sys", FIXTURE, mode],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  let out = "";
  try {
    const decoder = new TextDecoder();
    for await (const bytes of child.stdout) {
      out += decoder.decode(bytes, { stream: true });
      if (signal && out.includes("waiting")) {
        child.kill(signal);
        signal = undefined;
      }
    }
    const { code } = await child.status;
    const dir = /^dir (.+)$/m.exec(out)?.[1];
    assert.ok(dir, `the fixture printed its folder:\n${out}`);
    return { code, dir };
  } finally {
    clearTimeout(timer);
  }
}

for (
  const [mode, signal, exitCode] of [
    ["end", undefined, 0],
    ["throw", undefined, 1],
    ["wait", "SIGINT", 130],
    ["wait", "SIGTERM", 143],
  ] as const
) {
  test(`a private folder is removed when the process ends (${signal ?? mode}), with no child adopted`, async () => {
    const { code, dir } = await run(mode, signal);
    assert.equal(code, exitCode);
    assert.equal(existsSync(dir), false, `${dir} was left`);
  });
}
