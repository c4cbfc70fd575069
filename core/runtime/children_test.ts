import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { childEnv } from "./children.ts";

const FIXTURE = fileURLToPath(new URL("./testdata/adopt_child.ts", import.meta.url));

function isAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/** Waits up to 2 s for `pid` to be gone (a killed child is reaped by init a moment later). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Runs the fixture in `mode`; `signal` is sent once it prints "waiting". */
async function run(mode: string, signal?: Deno.Signal) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-run", "--allow-env", FIXTURE, mode],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let out = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      out += decoder.decode(value, { stream: true });
      if (signal && out.includes("waiting")) {
        child.kill(signal);
        signal = undefined;
      }
    }
    const status = await child.status;
    const stderr = await new Response(child.stderr).text();
    const pid = Number(/pid (\d+)/.exec(out)?.[1]);
    assert.ok(pid > 0, `the fixture printed its child's pid:\n${out}\n${stderr}`);
    return { code: status.code, out, pid };
  } finally {
    clearTimeout(timer);
  }
}

test("adoptChild(): a script that ends without cleaning up exits at once, and its child ends with it", async () => {
  const { code, pid } = await run("end");
  assert.equal(code, 0);
  assert.ok(await gone(pid), `child ${pid} outlived the script`);
});

test("holdOpen(): the script stays alive while a call waits on an adopted child", async () => {
  const { code, out, pid } = await run("hold");
  assert.equal(code, 0);
  assert.match(out, /held/);
  assert.ok(await gone(pid));
});

for (
  const [mode, expected] of [
    ["deno-exit", 3],
    ["process-exit", 4],
    ["throw", 1],
    ["reject", 1],
  ] as const
) {
  test(`adoptChild(): the child ends when the script ends by ${mode}`, async () => {
    const { code, pid } = await run(mode);
    assert.equal(code, expected);
    assert.ok(await gone(pid), `child ${pid} outlived the script`);
  });
}

for (const [signal, expected] of [["SIGTERM", 143], ["SIGINT", 130], ["SIGHUP", 129]] as const) {
  test(`adoptChild(): ${signal} to the script ends its child, and the script exits ${expected}`, async () => {
    const { code, pid } = await run("wait", signal);
    assert.equal(code, expected);
    assert.ok(await gone(pid), `child ${pid} outlived the script`);
  });
}

test("adoptChild(): a SIGTERM the program listens to is left to it; the child ends when it exits", async () => {
  const { code, pid } = await run("wait-listening", "SIGTERM");
  assert.equal(code, 7);
  assert.ok(await gone(pid), `child ${pid} outlived the script`);
});

test("childEnv() passes only the base variables and those a tool names, never the SDK's keys", () => {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, {
      SDK_MODEL_API_KEY: "sk-secret",
      SDK_MODEL_NAME: "m",
      ANDROID_HOME: "/sdk",
      ANDROID_API_KEY: "leak",
      DISPLAY: ":7",
      OTHER: "x",
    });
    const env = childEnv([/^ANDROID_/, "DISPLAY"], { XAUTHORITY: "/tmp/a" });
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.ANDROID_HOME, "/sdk");
    assert.equal(env.DISPLAY, ":7");
    assert.equal(env.XAUTHORITY, "/tmp/a");
    for (const name of ["SDK_MODEL_API_KEY", "SDK_MODEL_NAME", "ANDROID_API_KEY", "OTHER"]) {
      assert.equal(env[name], undefined, name);
    }
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
});
