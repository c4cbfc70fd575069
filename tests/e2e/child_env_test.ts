/**
 * The children the SDK starts get the environment they need, not the program's secrets (issue
 * "Security at the local boundary"): a script with `SDK_MODEL_API_KEY` and other keys in its
 * environment starts, through the SDK, Chromium, the adb server, ffmpeg of the mirror and an hdc
 * run (tests/fixtures/child_env/children.ts); this test reads each one's `/proc/<pid>/environ`
 * while it runs.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { freePort } from "../helpers/free_port.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/child_env/children.ts", import.meta.url));
const SECRET = "sk-child-env-test-secret-3f9a";

/** What the fixture's environment holds beyond the test's own. */
const FIXTURE_ENV: Record<string, string> = {
  SDK_MODEL_API_KEY: SECRET,
  SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
  OPENAI_API_KEY: `${SECRET}-openai`,
  SDK_BRIDGE_TOKEN: `${SECRET}-bridge`,
  ANDROID_API_KEY: `${SECRET}-android`,
  // Signing secrets under a tool's prefix: no pattern passes them (issue 36).
  ANDROID_KEYSTORE_PASS: `${SECRET}-keystore`,
  ADB_SIGNING_KEY_PASSPHRASE: `${SECRET}-adb-signing`,
  OHOS_SIGN_PWD: `${SECRET}-ohos-sign`,
  HDC_AUTH_CREDENTIAL: `${SECRET}-hdc`,
  // What each tool may read: passed on.
  ANDROID_SDK_HOME: "/tmp/child-env-android",
  OHOS_HDC_SERVER_PORT: "8710",
  XDG_CURRENT_DESKTOP: "child-env-test",
};

let fixture: ChildProcess;
let adbPort: number;
const children = new Map<string, number>();
let output = "";

async function environ(pid: number): Promise<Record<string, string>> {
  const text = await readFile(`/proc/${pid}/environ`, "utf8");
  return Object.fromEntries(
    text.split("\0").filter(Boolean).map((entry) => {
      const at = entry.indexOf("=");
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
  );
}

async function cmdline(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0");
}

async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : undefined;
}

async function processes(): Promise<number[]> {
  return (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number);
}

before(async () => {
  adbPort = await freePort();
  fixture = spawn(Deno.execPath(), ["run", "-A", FIXTURE], {
    env: { ...process.env, ...FIXTURE_ENV, SDK_TEST_ADB_PORT: String(adbPort) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const take = (chunk: Uint8Array) => {
      output += new TextDecoder().decode(chunk);
      for (const [, kind, pid] of output.matchAll(/^child (\w+) (\d+)$/gm)) {
        children.set(kind, Number(pid));
      }
      if (/^ready$/m.test(output)) resolve();
    };
    fixture.stdout!.on("data", take);
    fixture.stderr!.on("data", take);
    fixture.once("exit", (code) => reject(new Error(`the fixture exited (${code}):\n${output}`)));
  });
  await ready;
  for (const pid of await processes()) {
    if (await parentOf(pid) !== fixture.pid) continue;
    const args = await cmdline(pid);
    if (/chrom/.test(args[0])) children.set("chromium", pid);
  }
  for (const pid of await processes()) {
    const args = await cmdline(pid);
    if (/adb$/.test(args[0]) && args.includes("fork-server") && args.includes(`tcp:${adbPort}`)) {
      children.set("adb server", pid);
    }
  }
});

after(async () => {
  await new Promise<void>((resolve) =>
    execFile("adb", ["-P", String(adbPort), "kill-server"], () => resolve())
  );
  if (fixture && fixture.exitCode === null) {
    const exited = new Promise((resolve) => fixture.once("exit", resolve));
    fixture.stdin!.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (fixture.exitCode === null) fixture.kill("SIGKILL");
  }
});

/** The variables of the fixture's environment no child may see. */
const SECRETS = ["SDK_MODEL_API_KEY", "SDK_MODEL_BASE_URL", "OPENAI_API_KEY", "SDK_BRIDGE_TOKEN"];

function assertNoSecrets(kind: string, env: Record<string, string>): void {
  assert.ok(env.PATH && env.HOME, `${kind}: its environment was read (PATH, HOME)`);
  for (
    const name of [
      ...SECRETS,
      "ANDROID_API_KEY",
      "ANDROID_KEYSTORE_PASS",
      "ADB_SIGNING_KEY_PASSPHRASE",
      "OHOS_SIGN_PWD",
      "HDC_AUTH_CREDENTIAL",
    ]
  ) {
    assert.equal(env[name], undefined, `${kind} has ${name} in its environment`);
  }
  for (const [name, value] of Object.entries(env)) {
    assert.ok(!value.includes(SECRET), `${kind} has the secret in ${name}`);
  }
}

test("Chromium the SDK launches gets no key, only what a browser needs", async () => {
  const pid = children.get("chromium");
  assert.ok(pid, `Chromium found among the fixture's children:\n${output}`);
  const env = await environ(pid);
  assertNoSecrets("Chromium", env);
  assert.equal(env.XDG_CURRENT_DESKTOP, "child-env-test", "the XDG variables pass");
});

test("the adb server the SDK starts (a daemon that outlives the run) gets no key", async () => {
  const pid = children.get("adb server");
  assert.ok(pid, `the adb server on port ${adbPort} runs`);
  const env = await environ(pid);
  assertNoSecrets("the adb server", env);
  assert.equal(env.ANDROID_SDK_HOME, "/tmp/child-env-android", "the ANDROID_ variables pass");
});

test("ffmpeg of the mirror stream gets no key", async () => {
  const pid = children.get("ffmpeg");
  assert.ok(pid, `ffmpeg runs:\n${output}`);
  assert.match((await cmdline(pid))[0], /ffmpeg/);
  assertNoSecrets("ffmpeg", await environ(pid));
});

test("an hdc run gets no key, only HOME and the hdc variables", async () => {
  const pid = children.get("hdc");
  assert.ok(pid, `the hdc run runs:\n${output}`);
  const env = await environ(pid);
  assertNoSecrets("hdc", env);
  assert.equal(env.OHOS_HDC_SERVER_PORT, "8710", "the OHOS_ variables pass");
});
