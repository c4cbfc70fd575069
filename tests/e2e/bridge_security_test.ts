/// <reference lib="dom" />
/**
 * The bridge's local boundary, tried as an attacker on the same machine would (issue "Security
 * at the local boundary"): headless Chromium with the built SDK Bridge extension, as in
 * bridge_test.ts.
 *
 * - A rogue server on the port the extension connects to, run by another local user (created
 *   here when this process is root, as CI is; else a process of this user): it must get neither
 *   the pairing token nor an answer to its commands, and the popup says why.
 * - A forged extension client (a `ws` client with a `chrome-extension://` Origin): it gets no
 *   welcome, no command and nothing the agent types.
 * - Pairing is required by default; `allowUnpaired` needs the popup's consent too.
 *
 * @module
 */

import { afterEach, before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { WebSocket } from "ws";
import { AgentOverBrowserBridge, type AgentOverBrowserBridgeOptions } from "@sdk/web";
import { ConnectionError, SdkTypeError } from "@sdk/core";
import type { TestModel, TestModelScript } from "@sdk/core/testing";
import { measure } from "../helpers/browser.ts";
import {
  launchWithBridgeExtension,
  openFixture as openPage,
  startBridgeAgent,
} from "../helpers/bridge_extension.ts";
import { freePort } from "../helpers/free_port.ts";
import { isRoot, type LocalUser, localUser } from "../helpers/local_user.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";

const TOKEN = "security-pairing-token-5e1f0c2a9b";
const ROGUE = fileURLToPath(new URL("../fixtures/bridge/rogue_server.js", import.meta.url));
const SESSION_COOKIE = "httponly-session-7d41b2";

let tmp: string;
let context: BrowserContext;
let worker: Worker;
let app: StaticServer;
let port: number;
let rogueUser: LocalUser | undefined;
const models: TestModel[] = [];
const agents: AgentOverBrowserBridge[] = [];

// The extension's chrome.* API as the service worker sees it (only what the tests use).
declare const chrome: {
  storage: { local: { set(items: Record<string, unknown>): Promise<void> } };
};

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-security-"));
  app = await serveStatic(FIXTURE_APP_DIR);
  port = await freePort();
  ({ context, worker } = await launchWithBridgeExtension(tmp, { port, token: TOKEN }));
  // A logged-in site: its session cookie is HttpOnly (no page script reads it).
  await context.addCookies([{
    name: "session",
    value: SESSION_COOKIE,
    url: app.url,
    httpOnly: true,
  }]);
  if (isRoot()) rogueUser = await localUser("sdkrogue");
});

afterEach(async () => {
  await Promise.allSettled(agents.splice(0).map((a) => a.destroy()));
  await setExtension({ port, allowUnpaired: false });
});

after(async () => {
  await Promise.allSettled(models.map((m) => m.close()));
  await context?.close();
  await app?.close();
  await rogueUser?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

function setExtension(items: Record<string, unknown>): Promise<void> {
  return worker.evaluate((items) => chrome.storage.local.set(items), items);
}

function bridge(
  page: () => Page,
  script: TestModelScript,
  options: AgentOverBrowserBridgeOptions = {},
): Promise<AgentOverBrowserBridge> {
  return startBridgeAgent({ port, token: TOKEN, models, agents }, page, script, options);
}

const openFixture = (file: string): Promise<Page> => openPage(context, app.url, file);

/** Polls `check` every 20 ms until it holds; fails naming `what` after `ms`. */
async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The rogue server's events, as it prints them. */
interface RogueEvents {
  listening?: number;
  received: string[];
  closed: number[];
  output: string;
}

function startRogue(roguePort: number, url: string): { child: ChildProcess; events: RogueEvents } {
  const args = ["run", "--allow-net", "--no-config", ROGUE, String(roguePort), url];
  const child = rogueUser
    ? rogueUser.deno(args, { cwd: os.tmpdir() })
    : spawn(Deno.execPath(), args, { stdio: ["pipe", "pipe", "pipe"] });
  const events: RogueEvents = { received: [], closed: [], output: "" };
  let pending = "";
  child.stdout!.on("data", (chunk: Uint8Array) => {
    pending += new TextDecoder().decode(chunk);
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      events.output += `${line}\n`;
      const event = JSON.parse(line);
      if ("listening" in event) events.listening = event.listening;
      if ("received" in event) events.received.push(event.received);
      if ("closed" in event) events.closed.push(event.closed);
    }
  });
  child.stderr!.on("data", (chunk: Uint8Array) => {
    events.output += new TextDecoder().decode(chunk);
  });
  return { child, events };
}

test("pairing is required: without a token the bridge refuses to start unless allowUnpaired", () => {
  const saved = process.env.SDK_BRIDGE_TOKEN;
  delete process.env.SDK_BRIDGE_TOKEN;
  try {
    assert.throws(() => new AgentOverBrowserBridge({ port }), (error: Error) => {
      assert.ok(error instanceof SdkTypeError, `${error.name}: ${error.message}`);
      assert.equal(error.code, "INVALID_ARGUMENT");
      assert.match(error.message, /SDK_BRIDGE_TOKEN/);
      assert.match(error.message, /popup/);
      assert.match(error.message, /allowUnpaired/);
      return true;
    });
    assert.throws(
      // deno-lint-ignore no-explicit-any
      () => new AgentOverBrowserBridge({ port, allowUnpaired: "yes" as any }),
      /'allowUnpaired' must be a boolean/,
    );
    // Beyond loopback, even allowUnpaired needs the token.
    assert.throws(
      () => new AgentOverBrowserBridge({ host: "0.0.0.0", allowUnpaired: true }),
      /pairing token/,
    );
    // Opting out, or a token, is accepted.
    agents.push(new AgentOverBrowserBridge({ port, allowUnpaired: true }));
    agents.push(new AgentOverBrowserBridge({ port, token: TOKEN }));
  } finally {
    if (saved !== undefined) process.env.SDK_BRIDGE_TOKEN = saved;
  }
});

test(
  "a rogue server on the extension's port (another local user's program) gets neither the pairing token nor an answer; the popup says why",
  { timeout: 60_000 },
  async () => {
    const roguePort = await freePort();
    const bait = new URL("rogue-opened.html", app.url).href;
    const opened: string[] = [];
    const onPage = (page: Page) => opened.push(page.url());
    context.on("page", onPage);
    const { child, events } = startRogue(roguePort, bait);
    try {
      await until(() => events.listening === roguePort, `the rogue server:\n${events.output}`);
      // No SDK listens; the extension goes where it is told (as after "Save & reconnect").
      await setExtension({ port: roguePort });
      // The extension decides: it closes the socket, or it answers the rogue's commands.
      await until(
        () => events.closed.length > 0 || events.received.some((f) => /"id":/.test(f)),
        `the extension's decision:\n${events.output}`,
      );
      const frames = events.received.map((text) => JSON.parse(text));
      assert.equal(frames[0]?.type, "hello", events.output);
      for (const text of events.received) {
        assert.ok(!text.includes(TOKEN), `the rogue got the pairing token: ${text}`);
        assert.ok(!text.includes(SESSION_COOKIE), `the rogue got the session cookie: ${text}`);
      }
      for (const frame of frames) {
        assert.equal(frame.token, undefined, "the hello carries no token");
        assert.equal(
          typeof frame.id,
          "undefined",
          `the extension answered: ${JSON.stringify(frame)}`,
        );
        assert.notEqual(frame.type, "auth", "the extension proved itself to an unproven server");
      }
      assert.ok(frames.some((f) => f.type === "refuse"), "the extension says it refuses");
      // Its popup says why, and nothing was opened for the rogue.
      const popup = await context.newPage();
      try {
        await popup.goto(new URL("popup.html", worker.url()).href);
        await popup.locator("#state", { hasText: "did not prove" }).waitFor();
        assert.match(await popup.locator("#state").innerText(), new RegExp(`:${roguePort}`));
      } finally {
        await popup.close();
      }
      assert.deepEqual(opened.filter((url) => url.includes("rogue-opened")), []);
      assert.ok(!context.pages().some((p) => p.url().includes("rogue-opened")));
    } finally {
      context.off("page", onPage);
      await setExtension({ port });
      child.kill("SIGTERM");
      await new Promise((resolve) =>
        child.exitCode !== null ? resolve(null) : child.once("exit", resolve)
      );
    }
    if (rogueUser) {
      // It really was another user's process.
      assert.notEqual(rogueUser.uid, process.getuid?.());
    }
  },
);

/** What a forged client got: every frame, and its close code. */
interface Forged {
  frames: Record<string, unknown>[];
  code: number;
}

/**
 * A `ws` client posing as the extension: a `chrome-extension://` Origin, then `first` as its
 * hello, and `answer` (given the server's frames so far) after each frame it gets.
 */
function forge(
  first: Record<string, unknown>,
  answer?: (frame: Record<string, unknown>) => Record<string, unknown> | undefined,
): Promise<Forged> {
  return new Promise((resolve) => {
    const frames: Record<string, unknown>[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, {
      headers: { origin: `chrome-extension://${"b".repeat(32)}` },
    });
    ws.on("open", () => ws.send(JSON.stringify(first)));
    ws.on("message", (data: unknown) => {
      const frame = JSON.parse(String(data));
      frames.push(frame);
      const reply = answer?.(frame);
      if (reply) ws.send(JSON.stringify(reply));
    });
    ws.on("close", (code: number) => resolve({ frames, code }));
    ws.on("error", () => {});
  });
}

const nonce = () =>
  [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

test("forged extension clients get no welcome, no command and nothing the agent types", {
  timeout: 60_000,
}, async () => {
  const page = await openFixture("actions.html");
  const agent = await bridge(() => page, { locate: () => measure(page, "#key-input") });
  // The real extension looks elsewhere while the forged clients try, so the agent waits for one.
  await setExtension({ port: await freePort() });
  const connected = agent.connectCurrentTab();
  connected.catch(() => {});
  await until(() => agent.port === port, "the bridge to listen");
  const tries = await Promise.all([
    // The old hello, with a guessed token.
    forge({ type: "hello", token: "guessed-token-0000", version: "0.1.0" }),
    // The new hello, then a made-up proof.
    forge(
      { type: "hello", protocol: 3, nonce: nonce(), version: "0.1.0" },
      (f) => f.type === "challenge" ? { type: "auth", proof: nonce() } : undefined,
    ),
    // The new hello, then the server's own proof sent back.
    forge(
      { type: "hello", protocol: 3, nonce: nonce(), version: "0.1.0" },
      (f) => f.type === "challenge" ? { type: "auth", proof: f.proof } : undefined,
    ),
    // Claiming to be unpaired.
    forge(
      { type: "hello", protocol: 3, nonce: nonce(), version: "0.1.0" },
      (f) => f.type === "challenge" ? { type: "auth", unpaired: true } : undefined,
    ),
  ]);
  for (const { frames, code } of tries) {
    assert.ok(code >= 4000, `closed by the bridge (${code})`);
    for (const frame of frames) {
      assert.notEqual(frame.type, "welcome");
      assert.equal(
        frame.id,
        undefined,
        `a command reached a forged client: ${JSON.stringify(frame)}`,
      );
    }
  }
  // None of them made the connect call fail; the real extension connects and the agent types.
  await setExtension({ port });
  await connected;
  const password = "hunter2-not-for-forgers";
  const late = forge({ type: "hello", protocol: 3, nonce: nonce(), version: "0.1.0" });
  await agent.aiInput("the key input", { value: password });
  assert.equal(await page.inputValue("#key-input"), password);
  const { frames, code } = await late;
  assert.equal(code, 4002, "one extension per bridge");
  assert.ok(!JSON.stringify(frames).includes(password));
  await agent.destroy();
  await page.close();
});

test(
  "allowUnpaired: the extension refuses an SDK without the token at once, unless its popup allows it",
  {
    timeout: 60_000,
  },
  async () => {
    const page = await openFixture("input.html");
    const ownPort = await freePort();
    const unpaired = await bridge(() => page, {}, {
      port: ownPort,
      token: undefined,
      allowUnpaired: true,
      connectTimeout: 30_000,
    });
    const outcome = unpaired.connectCurrentTab().then(
      () => assert.fail("connected without the popup's consent"),
      (e: unknown) => ({ error: e as Error, at: performance.now() }),
    );
    await until(() => unpaired.port === ownPort, "the bridge to listen");
    const sent = performance.now();
    await setExtension({ port: ownPort });
    const { error, at } = await outcome;
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_REFUSED");
    assert.match(error.message, /without the pairing token/);
    assert.match(error.message, /popup/);
    assert.ok(at - sent < 5000, `refused ${Math.round(at - sent)} ms after the extension came`);
    await unpaired.destroy();

    // With the popup's consent, it connects.
    const consented = await bridge(() => page, {}, {
      port: ownPort,
      token: undefined,
      allowUnpaired: true,
    });
    await setExtension({ allowUnpaired: true });
    await consented.connectCurrentTab();
    assert.equal(await consented.evaluateJavaScript("1 + 1"), 2);
    const popup = await context.newPage();
    await popup.goto(new URL("popup.html", worker.url()).href);
    await popup.locator("#state.connected", { hasText: "unpaired" }).waitFor();
    await popup.close();
    await consented.destroy();
    await page.close();
  },
);
