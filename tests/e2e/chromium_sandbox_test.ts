/**
 * The Chromium the SDK launches (the command line, the playground, the virtual phone) keeps its
 * sandbox unless the process runs as root, where Chromium cannot sandbox: then the SDK says so,
 * once. `SDK_CHROMIUM_NO_SANDBOX=1` turns the sandbox off without a warning. The non-root runs
 * are another local user's, created here (as root, which CI is), or this process's own user.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { isRoot, type LocalUser, localUser } from "../helpers/local_user.ts";

const ROOT_DIR = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "tests/fixtures/chromium_sandbox/launch.ts";
const DENO_ARGS = ["run", "-A", "--node-modules-dir=manual", "--cached-only", FIXTURE];

interface Launch {
  noSandboxFlag: boolean;
  seccomp: number[];
}

let user: LocalUser | undefined;

before(async () => {
  if (isRoot()) user = await localUser("sdksandbox");
});

after(async () => {
  await user?.close();
});

async function finished(
  child: ChildProcess,
): Promise<{ launches: Launch[]; stderr: string; code: number | null }> {
  let stdout = "", stderr = "";
  child.stdout!.on("data", (c: Uint8Array) => stdout += new TextDecoder().decode(c));
  child.stderr!.on("data", (c: Uint8Array) => stderr += new TextDecoder().decode(c));
  child.stdin!.end();
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const launches = stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  assert.equal(code, 0, `the fixture failed:\n${stdout}\n${stderr}`);
  assert.equal(launches.length, 2, stdout);
  return { launches, stderr, code };
}

/** Runs the fixture as a user who is not root. */
function runAsNonRoot(env: Record<string, string> = {}): ChildProcess {
  if (user) return user.deno(DENO_ARGS, { cwd: ROOT_DIR, env });
  return spawn(Deno.execPath(), DENO_ARGS, {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

const sandboxWarnings = (stderr: string) =>
  stderr.split("\n").filter((line) => /sandbox/i.test(line) && /root/.test(line));

test("as root Chromium runs without its sandbox, and the SDK says so once", {
  skip: isRoot() ? false : "needs root",
}, async () => {
  const env = { ...process.env };
  delete env.SDK_CHROMIUM_NO_SANDBOX;
  const { launches, stderr } = await finished(
    spawn(Deno.execPath(), DENO_ARGS, { cwd: ROOT_DIR, env, stdio: ["pipe", "pipe", "pipe"] }),
  );
  for (const launch of launches) {
    assert.equal(launch.noSandboxFlag, true);
    assert.ok(launch.seccomp.length > 0 && launch.seccomp.every((m) => m === 0), stderr);
  }
  const warnings = sandboxWarnings(stderr);
  assert.equal(warnings.length, 1, `one warning for two launches:\n${stderr}`);
  assert.match(warnings[0], /SDK_CHROMIUM_NO_SANDBOX/);
});

test("as another user Chromium keeps its sandbox: no --no-sandbox, renderers under seccomp-bpf, no warning", async () => {
  const { launches, stderr } = await finished(runAsNonRoot());
  for (const launch of launches) {
    assert.equal(launch.noSandboxFlag, false, "the browser has --no-sandbox");
    assert.ok(launch.seccomp.length > 0, "a renderer runs");
    assert.ok(launch.seccomp.every((m) => m === 2), `renderers' Seccomp: ${launch.seccomp}`);
  }
  assert.deepEqual(sandboxWarnings(stderr), []);
});

test("SDK_CHROMIUM_NO_SANDBOX=1 turns the sandbox off on purpose: no warning", async () => {
  const { launches, stderr } = await finished(runAsNonRoot({ SDK_CHROMIUM_NO_SANDBOX: "1" }));
  for (const launch of launches) assert.equal(launch.noSandboxFlag, true);
  assert.deepEqual(sandboxWarnings(stderr), []);
});
