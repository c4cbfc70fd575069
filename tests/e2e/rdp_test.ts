/**
 * `RDPDevice` end to end over real RDP on 127.0.0.1: the "remote" desktop is a private Xvfb with
 * the Tk fixture app, served by FreeRDP's shadow server (`freerdp-shadow-cli`, Debian
 * `freerdp2-shadow-x11`) with NLA and a test user in a SAM file written by the test (password
 * random per run, its NT hash computed in the test; `startShadowServer`). The device runs FreeRDP's client (`xfreerdp`) on its
 * own Xvfb and drives it; the test model locates from the remote app's own geometry, and every
 * check reads the remote app's state.
 *
 * @module
 */

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import process from "node:process";
import { agentForRDPComputer, type ComputerAgent, RDPDevice } from "@sdk/computer";
import { startTestModel } from "@sdk/core/testing";
import type { TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  nutJsDir,
  type ShadowServer,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  startXrdp,
  type TestDisplay,
} from "../helpers/desktop.ts";
import { freePort } from "../helpers/free_port.ts";

const USER = "sdk-tester";
const PASSWORD = `Pw-${randomBytes(9).toString("base64url")}!`;

let remote: TestDisplay;
let app: DesktopApp;
let shadow: ShadowServer;
let port: number;
let model: TestModel;
const agents: ComputerAgent<RDPDevice>[] = [];

before(async () => {
  await ensureDesktopTools();
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  remote = await startTestDisplay("1024x768x24");
  app = await startDesktopApp(remote.display);
  shadow = await startShadowServer(remote.display, USER, PASSWORD);
  port = shadow.port;
  model = await startTestModel({
    script: {
      locate: async (call) => {
        const w = (await app.state()).widgets;
        const box = call.target.includes("name field")
          ? w.name
          : call.target.includes("Save")
          ? w.save
          : undefined;
        return box ? { left: box.x, top: box.y, width: box.width, height: box.height } : null;
      },
    },
  });
});

after(async () => {
  for (const agent of agents) await agent.destroy();
  await model?.close();
  await shadow?.close();
  await app?.close();
  await remote?.close();
});

async function untilState(
  read: () => Promise<DesktopAppState | undefined>,
  check: (s: DesktopAppState) => boolean,
  what: string,
): Promise<DesktopAppState> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await read();
    if (state && check(state)) return state;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(state)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function until(
  check: (s: DesktopAppState) => boolean,
  what: string,
): Promise<DesktopAppState> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await app.state();
    if (check(state)) return state;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(state)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every process's command line and environment that mentions `needle`. */
async function processesMentioning(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir("/proc")).filter((p) => /^\d+$/.test(p))) {
    for (const file of ["cmdline", "environ"]) {
      try {
        const text = (await readFile(`/proc/${pid}/${file}`)).toString().replaceAll("\0", " ");
        if (text.includes(needle)) found.push(`${pid}/${file}: ${text.slice(0, 120)}`);
      } catch {
        // The process ended meanwhile, or is not readable.
      }
    }
  }
  return found;
}

const base = () => ({
  host: "127.0.0.1",
  port,
  username: USER,
  desktopWidth: 1024,
  desktopHeight: 768,
  modelConfig: model.modelConfig(),
  generateReport: false,
  waitAfterAction: 100,
});

test("the agent logs in over RDP, clicks and types in the remote app", async () => {
  const agent = await agentForRDPComputer({
    ...base(),
    password: PASSWORD,
    ignoreCertificate: true,
  });
  agents.push(agent);
  assert.deepEqual(await agent.interface.size(), { width: 1024, height: 768, dpr: 1 });
  assert.equal(
    (await processesMentioning(PASSWORD)).length,
    0,
    "the password is in no process listing",
  );
  const before = (await app.state()).clicks;
  await agent.aiTap("the Save button");
  await until((s) => s.clicks === before + 1, "a click on the remote Save button");
  const text = "Hello, RDP! (1+1=2) #ok";
  await agent.aiInput("the name field", { value: text });
  await until((s) => s.name === text, `the remote field to read ${JSON.stringify(text)}`);
  await agent.destroy();
  assert.equal(agent.interface.display, undefined, "destroy() cleared the connection state");
});

test("a wrong password is refused with a clear error", async () => {
  await assert.rejects(
    agentForRDPComputer({ ...base(), password: "not-the-password", ignoreCertificate: true }),
    /Cannot connect to the RDP server at 127\.0\.0\.1:\d+: the server refused the credentials/,
  );
});

test("a host where nothing listens is named", async () => {
  const closed = await freePort();
  await assert.rejects(
    agentForRDPComputer({ ...base(), port: closed, password: PASSWORD, ignoreCertificate: true }),
    new RegExp(
      `Cannot connect to the RDP server at 127\\.0\\.0\\.1:${closed}: connect ECONNREFUSED`,
    ),
  );
});

test("without ignoreCertificate the server's self-signed certificate is rejected", async () => {
  await assert.rejects(
    agentForRDPComputer({ ...base(), password: PASSWORD }),
    /certificate could not be verified and was rejected; set ignoreCertificate: true/,
  );
});

test("RDP options are checked in the constructor", () => {
  assert.throws(() => new RDPDevice({ host: "" }), /'host' .* is required/);
  assert.throws(() => new RDPDevice({ host: "h", port: 0 }), /'port' must be an integer 1-65535/);
  assert.throws(
    () => new RDPDevice({ host: "h", securityProtocol: "ssl" as "tls" }),
    /'securityProtocol' must be 'auto', 'tls', 'nla' or 'rdp'/,
  );
  assert.throws(
    () => new RDPDevice({ host: "h", localAddress: "10.0.0.2" }),
    /cannot choose its source address/,
  );
  assert.throws(
    () => new RDPDevice({ host: "h", desktopWidth: 50 }),
    /'desktopWidth' must be an integer 200-8192/,
  );
});

test("xrdp: the agent logs in to a session of a test user, clicks and types in its app", async () => {
  const password = `Xr-${randomBytes(9).toString("base64url")}`;
  const xrdp = await startXrdp("sdk-xrdp-tester", password);
  try {
    const session = (check: (s: DesktopAppState) => boolean, what: string) =>
      untilState(() => xrdp.state(), check, what);
    const m = await startTestModel({
      script: {
        locate: async (call) => {
          const w = (await session(() => true, "the session's app")).widgets;
          const box = call.target.includes("name field") ? w.name : w.save;
          return { left: box.x, top: box.y, width: box.width, height: box.height };
        },
      },
    });
    try {
      const agent = await agentForRDPComputer({
        ...base(),
        port: xrdp.port,
        username: "sdk-xrdp-tester",
        password,
        ignoreCertificate: true,
        modelConfig: m.modelConfig(),
      });
      agents.push(agent);
      await session(() => true, "the app to start in the xrdp session");
      assert.equal(
        (await processesMentioning(password)).length,
        0,
        "the password is in no process listing",
      );
      await agent.aiTap("the Save button");
      await session((s) => s.clicks === 1, "a click on Save in the xrdp session");
      await agent.aiInput("the name field", { value: "Over xrdp: OK!" });
      await session((s) => s.name === "Over xrdp: OK!", "the typed text in the xrdp session");
      await agent.destroy();
    } finally {
      await m.close();
    }
  } finally {
    await xrdp.close();
  }
});
