/**
 * The X displays the SDK starts are private, and the programs it starts see only what they
 * need (issue "Security at the local boundary"):
 *
 * - a headless device's Xvfb and an RDP device's Xvfb take no client without the cookie of the
 *   device's X authority file (0600 in a 0700 folder): another local user (created here, its
 *   clients run with `runuser`) cannot open the display with `xdpyinfo` or `xwininfo`, nor read
 *   the file; root's clients without the file are refused too; with `device.xauthority` they
 *   work, and so do the SDK's own clients (the nut-js host, xrandr, xwininfo, xfreerdp);
 * - in a child process with `SDK_MODEL_API_KEY` set, every process the SDK starts (Xvfb twice,
 *   the nut-js hosts, xfreerdp, and through wrappers on `PATH` the short-lived xrandr and
 *   xwininfo) is read from `/proc/<pid>/environ`: the key is in none, and the X clients have
 *   `DISPLAY` and `XAUTHORITY`.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { agentForComputer, agentForRDPComputer, type ComputerAgent } from "@sdk/computer";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  ensureDesktopTools,
  ensureLocalUser,
  nutJsDir,
  runAs,
  type ShadowServer,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  type TestDisplay,
} from "../helpers/desktop.ts";

const OTHER = "sdk-x11-other";
const USER = "sdk-private";
const PASSWORD = `Pv-${randomBytes(9).toString("base64url")}!`;
const CHILD = fileURLToPath(new URL("../fixtures/desktop/env_child.ts", import.meta.url));

let remote: TestDisplay;
let app: DesktopApp;
let shadow: ShadowServer;
let model: TestModel;
let scratch: string;
const agents: ComputerAgent<never>[] = [];
/** The app whose name field the test model locates. */
let located: DesktopApp | undefined;

before(async () => {
  await ensureDesktopTools();
  await ensureLocalUser(OTHER);
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  remote = await startTestDisplay("800x600x24");
  app = await startDesktopApp(remote.display);
  shadow = await startShadowServer(remote.display, USER, PASSWORD);
  model = await startTestModel({
    script: {
      locate: async () => {
        const box = (await located!.state()).widgets.name;
        return { left: box.x, top: box.y, width: box.width, height: box.height };
      },
    },
  });
  scratch = await mkdtemp(join(tmpdir(), "sdk-private-"));
});

after(async () => {
  for (const agent of agents) await agent.destroy();
  await model?.close();
  await shadow?.close();
  await app?.close();
  await remote?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs an X client as root with exactly `env` (and PATH); resolves its exit code and output. */
function runAsRoot(
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: process.env.PATH!, ...env }, timeout: 30_000 }, (
      e,
      stdout,
      stderr,
    ) =>
      resolve({
        code: e ? Number((e as { code?: unknown }).code ?? 1) : 0,
        output: `${stdout}${stderr}`,
      }));
  });
}

/** Asserts who can open `display`: only a client with the cookie file. */
async function assertPrivate(display: string, xauthority: string): Promise<void> {
  assert.equal(statSync(xauthority).mode & 0o777, 0o600, "the cookie file is the user's only");
  assert.equal(statSync(dirname(xauthority)).mode & 0o777, 0o700, "in a private folder");
  for (const [file, args] of [["xdpyinfo", []], ["xwininfo", ["-root"]]] as const) {
    const other = await runAs(OTHER, file, ["-display", display, ...args]);
    assert.notEqual(other.code, 0, `${OTHER} opened ${display} with ${file}: ${other.output}`);
    assert.match(other.output, /Authorization required|unable to open display/);
    const stolen = await runAs(OTHER, file, ["-display", display, ...args], {
      XAUTHORITY: xauthority,
    });
    assert.notEqual(stolen.code, 0, `${OTHER} used the cookie file: ${stolen.output}`);
  }
  const read = await runAs(OTHER, "cat", [xauthority]);
  assert.notEqual(read.code, 0, "another user cannot read the cookie");
  assert.match(read.output, /Permission denied/);
  const bare = await runAsRoot("xdpyinfo", ["-display", display], {
    XAUTHORITY: "/nonexistent",
  });
  assert.notEqual(bare.code, 0, "without the cookie even root's client is refused");
  const own = await runAsRoot("xwininfo", ["-root", "-display", display], {
    XAUTHORITY: xauthority,
  });
  assert.equal(own.code, 0, own.output);
  assert.match(own.output, /Window id: .* \(the root window\)/);
}

test(
  "a headless device's display admits only clients with its cookie; the SDK's own clients work",
  {
    timeout: 90_000,
  },
  async () => {
    const agent = await agentForComputer({
      headless: true,
      xvfbResolution: "800x600x24",
      // xrandr must answer for a displayId: the SDK's xrandr run has the cookie.
      displayId: "screen",
      modelConfig: model.modelConfig(),
      generateReport: false,
    });
    agents.push(agent as ComputerAgent<never>);
    const device = agent.interface;
    const { display, xauthority } = device;
    assert.match(String(display), /^:\d+$/);
    assert.ok(xauthority, "the device names its X authority file");
    await assertPrivate(display!, xauthority!);
    // The nut-js host (screenshots) and the SDK's own X connection (typing) work.
    assert.deepEqual(await device.size(), { width: 800, height: 600, dpr: 1 });
    assert.match(await device.screenshotBase64(), /^data:image\/png;base64,/);
    // The user's app opens its window there with device.xauthority, and the agent types into it.
    const own = await startDesktopApp(display!, xauthority);
    try {
      located = own;
      await agent.aiInput("the name field", { value: "private", keyboardTypeDelay: 1 });
      const deadline = Date.now() + 10_000;
      while ((await own.state()).name !== "private") {
        assert.ok(Date.now() < deadline, `the app got: ${(await own.state()).name}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await own.close();
    }
    await agent.destroy();
    assert.equal(existsSync(dirname(xauthority!)), false, "destroy() removed the cookie file");
  },
);

test("an RDP device's display admits only clients with its cookie", {
  timeout: 90_000,
}, async () => {
  const agent = await agentForRDPComputer({
    host: "127.0.0.1",
    port: shadow.port,
    username: USER,
    password: PASSWORD,
    ignoreCertificate: true,
    desktopWidth: 800,
    desktopHeight: 600,
    modelConfig: model.modelConfig(),
    generateReport: false,
  });
  agents.push(agent as ComputerAgent<never>);
  const { display, xauthority } = agent.interface;
  await assertPrivate(display!, xauthority!);
  const tree = await runAsRoot("xwininfo", ["-root", "-tree", "-display", display!], {
    XAUTHORITY: xauthority!,
  });
  assert.match(tree.output, /"FreeRDP: /, "the client's window is there for the cookie holder");
  await agent.destroy();
  assert.equal(existsSync(xauthority!), false);
});

test("the programs the SDK starts get DISPLAY and XAUTHORITY, never SDK_MODEL_API_KEY", {
  timeout: 120_000,
}, async () => {
  const key = `sk-test-${randomBytes(12).toString("hex")}`;
  // Short-lived xrandr and xwininfo: wrappers first on PATH write their environment to a file.
  const wrappers = join(scratch, "bin");
  const dumps = join(scratch, "env");
  await Deno.mkdir(wrappers);
  await Deno.mkdir(dumps);
  for (const tool of ["xrandr", "xwininfo"]) {
    const real = (await runAsRoot("sh", ["-c", `command -v ${tool}`], {})).output.trim();
    await writeFile(
      join(wrappers, tool),
      `#!/bin/sh\ncat /proc/$$/environ > ${dumps}/${tool}.$$\nexec ${real} "$@"\n`,
    );
    await chmod(join(wrappers, tool), 0o755);
  }
  const result = await new Promise<Record<string, unknown>>((resolve, reject) => {
    execFile(
      Deno.execPath(),
      ["run", "--allow-all", CHILD],
      {
        env: {
          ...process.env as Record<string, string>,
          PATH: `${wrappers}:${process.env.PATH}`,
          SDK_MODEL_API_KEY: key,
          SDK_TEST_RDP_PORT: String(shadow.port),
          SDK_TEST_RDP_USER: USER,
          SDK_TEST_RDP_PASSWORD: PASSWORD,
        },
        timeout: 100_000,
      },
      (e, stdout, stderr) => {
        try {
          resolve(JSON.parse(String(stdout).trim().split("\n").at(-1)!));
        } catch {
          reject(new Error(`the child failed: ${e?.message}\n${stdout}\n${stderr}`));
        }
      },
    );
  });
  assert.equal(result.error, undefined, String(result.error));
  assert.equal(result.selfHasKey, true, "the child itself has the key");
  const children = result.children as { name: string; vars: string[]; hasKey: boolean }[];
  const names = children.map((c) => c.name);
  assert.equal(names.filter((n) => n === "Xvfb").length, 2, names.join(" "));
  assert.ok(names.includes("xfreerdp"), names.join(" "));
  assert.equal(names.filter((n) => n === "deno").length, 2, `two nut-js hosts: ${names}`);
  for (const child of children) {
    assert.equal(child.hasKey, false, `${child.name} has the key`);
    assert.ok(!child.vars.includes("SDK_MODEL_API_KEY"), child.name);
    assert.ok(!child.vars.includes("SDK_TEST_RDP_PASSWORD"), `${child.name}: the password`);
    if (child.name !== "Xvfb") {
      assert.ok(child.vars.includes("DISPLAY"), `${child.name}: ${child.vars}`);
      assert.ok(child.vars.includes("XAUTHORITY"), `${child.name}: ${child.vars}`);
    } else {
      assert.ok(!child.vars.includes("DISPLAY"), "Xvfb needs no DISPLAY");
    }
  }
  const dumped = await readdir(dumps);
  for (const tool of ["xrandr", "xwininfo"]) {
    const files = dumped.filter((f) => f.startsWith(`${tool}.`));
    assert.ok(files.length > 0, `${tool} ran (${dumped})`);
    for (const file of files) {
      const environ = await readFile(join(dumps, file), "utf8");
      assert.ok(!environ.includes(key), `${file} has the key`);
      assert.match(environ, /(^|\0)XAUTHORITY=/, `${file} has XAUTHORITY`);
    }
  }
});
