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

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import process from "node:process";
import { agentForRDPComputer, type ComputerAgent, RDPDevice } from "@sdk/computer";
import { ConnectionError, SdkRangeError, SdkTypeError, ToolError } from "@sdk/core";
import { startTestModel } from "@sdk/core/testing";
import type { TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  locateNameOrSave,
  nutJsDir,
  type ShadowServer,
  startDesktopApp,
  startShadowServer,
  startTestDisplay,
  startXrdp,
  type TestDisplay,
  untilAppState,
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
      locate: (call) => locateNameOrSave(app, call.target),
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

const untilState = (
  read: () => Promise<DesktopAppState | undefined>,
  check: (s: DesktopAppState) => boolean,
  what: string,
) => untilAppState(read, check, what, 30_000);

const until = (check: (s: DesktopAppState) => boolean, what: string) =>
  untilAppState(() => app.state(), check, what, 15_000);

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

test(
  "the agent logs in over RDP, clicks and types in the remote app",
  { timeout: 90_000 },
  async () => {
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
    // Every printable ASCII character, key by key through the private display's keymap.
    const text = "Hello, RDP! (1+1=2) #ok " + ` !"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~ AbZ09`;
    await agent.aiInput("the name field", { value: text });
    await until((s) => s.name === text, `the remote field to read ${JSON.stringify(text)}`);
    await agent.destroy();
    assert.equal(agent.interface.display, undefined, "destroy() cleared the connection state");
  },
);

test("with the remote's Caps Lock on, text arrives as written", { timeout: 90_000 }, async () => {
  const agent = await agentForRDPComputer({
    ...base(),
    password: PASSWORD,
    ignoreCertificate: true,
  });
  agents.push(agent);
  await agent.aiKeyboardPress("the name field", { keyName: "CapsLock" });
  try {
    await agent.aiInput("the name field", { value: "Hello, RDP" });
    await until((s) => s.name === "Hello, RDP", "the remote field to read Hello, RDP");
  } finally {
    await agent.aiKeyboardPress("the name field", { keyName: "CapsLock" });
  }
  await agent.destroy();
});

test(
  "the shadow server has no clipboard channel: characters no key types are an SdkTypeError naming them, before the field is clicked, emptied or typed into",
  { timeout: 90_000 },
  async () => {
    const agent = await agentForRDPComputer({
      ...base(),
      password: PASSWORD,
      ignoreCertificate: true,
    });
    agents.push(agent);
    await agent.aiInput("the name field", { value: "kept" });
    await until((s) => s.name === "kept", "the field to read kept");
    const keys = (await app.state()).keys.length;
    // The default mode, replace, would empty the field first: the check comes before it.
    const error = await rejection(agent.aiInput("the name field", { value: "Grüße 你好" }));
    assert.ok(error instanceof SdkTypeError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "INVALID_ARGUMENT");
    assert.match(
      error.message,
      /^Cannot type "ü", "ß", "你", "好" over RDP to 127\.0\.0\.1:\d+: no key of the keymap types them, and the RDP server offers no clipboard channel \(cliprdr\)/,
    );
    // Keys arrive in order: once typeOnly's "!" is in, any key of the failed call would be too.
    await agent.aiInput("the name field", { value: "!", mode: "typeOnly" });
    const state = await until((s) => s.name === "kept!", "the field to read kept!");
    assert.deepEqual(state.keys.slice(keys), ["Control_L", "End", "Shift_L", "exclam"]);
    await agent.destroy();
  },
);

/** What `work` rejects with (it must reject). */
async function rejection(work: Promise<unknown>): Promise<Error> {
  return await work.then(
    () => assert.fail("it did not fail"),
    (e: Error) => e,
  );
}

/** Asserts a ToolError of xfreerdp whose output is its own error lines, without noise. */
function assertClientError(error: Error, message: RegExp, said: RegExp): void {
  assert.ok(error instanceof ToolError, `${error.name}: ${error.message}`);
  assert.equal(error.code, "TOOL_FAILED");
  assert.equal(error.tool, "xfreerdp");
  assert.match(error.message, message);
  assert.match(error.output, said);
  assert.match(error.message, /\(xfreerdp: .+\)$/, "the message quotes the client's last error");
  assert.doesNotMatch(
    error.output,
    /@@@|\[DEBUG\]|\[ERROR\]|^\[\d/m,
    "no banners, levels or times",
  );
  assert.ok(error.output.split("\n").length <= 8);
}

test("a wrong password is a ToolError quoting the client", { timeout: 60_000 }, async () => {
  const error = await rejection(
    agentForRDPComputer({ ...base(), password: "not-the-password", ignoreCertificate: true }),
  );
  assertClientError(
    error,
    /Cannot connect to the RDP server at 127\.0\.0\.1:\d+: the server refused the credentials/,
    /ERRCONNECT_|failed/,
  );
});

test("a host where nothing listens is a ConnectionError (refused) naming it", {
  timeout: 60_000,
}, async () => {
  const closed = await freePort();
  const started = Date.now();
  const error = await rejection(
    agentForRDPComputer({ ...base(), port: closed, password: PASSWORD, ignoreCertificate: true }),
  );
  assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
  assert.equal(error.code, "CONNECTION_REFUSED");
  assert.equal(error.kind, "refused");
  assert.equal(error.endpoint, `127.0.0.1:${closed}`);
  assert.match(
    error.message,
    new RegExp(
      `Cannot connect to the RDP server at 127\\.0\\.0\\.1:${closed}: connect ECONNREFUSED`,
    ),
  );
  assert.ok(Date.now() - started < 5000, "it failed at once");
});

test(
  "without ignoreCertificate the server's self-signed certificate is a ToolError quoting the client",
  {
    timeout: 60_000,
  },
  async () => {
    const error = await rejection(agentForRDPComputer({ ...base(), password: PASSWORD }));
    assertClientError(
      error,
      /certificate could not be verified and was rejected; set ignoreCertificate: true/,
      /certificate not trusted|ERRCONNECT_TLS_CONNECT_FAILED/,
    );
  },
);

test("the RDP connection dropping under a running agent is a ConnectionError (lost)", {
  timeout: 90_000,
}, async () => {
  const second = await startShadowServer(remote.display, USER, PASSWORD);
  let closed = false;
  try {
    const agent = await agentForRDPComputer({
      ...base(),
      port: second.port,
      password: PASSWORD,
      ignoreCertificate: true,
    });
    agents.push(agent);
    await agent.interface.screenshotBase64();
    await second.close();
    closed = true;
    // The client notices the server gone asynchronously: call until the device says so.
    const deadline = Date.now() + 30_000;
    let error: Error | undefined;
    while (!error) {
      try {
        await agent.interface.screenshotBase64();
      } catch (e) {
        error = e as Error;
      }
      if (!error && Date.now() > deadline) {
        assert.fail("the device kept working after the server left");
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_LOST");
    assert.equal(error.kind, "lost");
    assert.equal(error.endpoint, `127.0.0.1:${second.port}`);
    assert.match(
      error.message,
      /The RDP connection to 127\.0\.0\.1:\d+ was lost: the RDP client ended/,
    );
    // Every later call says the same.
    await assert.rejects(agent.interface.size(), ConnectionError);
  } finally {
    if (!closed) await second.close();
  }
});

test("RDP options are checked in the constructor", { timeout: 10_000 }, () => {
  for (
    const [options, builtIn, coded] of [
      [{ host: "" }, TypeError, SdkTypeError],
      [{ host: "h", port: 0 }, TypeError, SdkTypeError],
      [{ host: "h", localAddress: "10.0.0.2" }, TypeError, SdkTypeError],
      [{ host: "h", desktopWidth: 50 }, RangeError, SdkRangeError],
      [{ host: "h", keyboardTypeDelay: -1 }, RangeError, SdkRangeError],
      [{ host: "h", sessionStartTimeout: -1 }, RangeError, SdkRangeError],
      [{ host: "h", sessionStartTimeout: Number.NaN }, RangeError, SdkRangeError],
      [{ host: "h", sessionStartTimeout: 600_001 }, RangeError, SdkRangeError],
    ] as const
  ) {
    assert.throws(() => new RDPDevice(options), (e: unknown) => {
      assert.ok(e instanceof builtIn && e instanceof coded, `${JSON.stringify(options)}: ${e}`);
      assert.equal(
        (e as SdkTypeError).code,
        builtIn === TypeError ? "INVALID_ARGUMENT" : "ARGUMENT_OUT_OF_RANGE",
      );
      return true;
    });
  }
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
  assert.throws(
    () => new RDPDevice({ host: "h", sessionStartTimeout: "10s" as unknown as number }),
    /'sessionStartTimeout' must be a number 0-600000 \(ms; 0 turns the check off\): current value is "10s"/,
  );
  assert.ok(new RDPDevice({ host: "h", sessionStartTimeout: 0 }));
});

test("xrdp: the agent logs in to a session of a test user, clicks and types in its app", {
  timeout: 120_000,
}, async () => {
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
      // Accents and CJK have no key on the keymap: pasted through the clipboard channel, each
      // paste confirmed; the ASCII around them is typed key by key, in order.
      for (const text of ["Grüße 你好", 'a "ü" (ß) {你} 好!', "Ünïcödé ½ € — 世界"]) {
        await agent.aiInput("the name field", { value: text });
        await session((s) => s.name === text, `${JSON.stringify(text)} in the xrdp session`);
      }
      await agent.destroy();
    } finally {
      await m.close();
    }
  } finally {
    await xrdp.close();
  }
});

test(
  "xrdp: a session that never starts (its socket folder 0755) fails the connect with a ConnectionError (timeout) after sessionStartTimeout",
  { timeout: 120_000 },
  async () => {
    const password = `Xr-${randomBytes(9).toString("base64url")}`;
    const xrdp = await startXrdp("sdk-xrdp-tester", password, { sockdirMode: 0o755 });
    try {
      const started = Date.now();
      const error = await rejection(
        agentForRDPComputer({
          ...base(),
          port: xrdp.port,
          username: "sdk-xrdp-tester",
          password,
          ignoreCertificate: true,
        }),
      );
      const ms = Date.now() - started;
      assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
      assert.equal(error.code, "CONNECTION_TIMEOUT");
      assert.equal(error.kind, "timeout");
      assert.equal(error.endpoint, `127.0.0.1:${xrdp.port}`);
      assert.match(
        error.message,
        /its screen stayed all black for 10 s after the connection, so the remote session did not start\. Likely causes: .*\/run\/xrdp\/sockdir .*mode 3777/,
      );
      assert.ok(ms >= 10_000, `it waited the default 10 s (${ms} ms)`);
    } finally {
      await xrdp.close();
    }
  },
);
