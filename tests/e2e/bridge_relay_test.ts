/**
 * The bridge against relays and floods (issue 36), with the built SDK Bridge extension in
 * headless Chromium as in bridge_security_test.ts:
 *
 * - a relay on `127.0.0.1:<port>` (where the extension dials) passing bytes to the SDK listening
 *   on `[::1]:<port>` gets nothing through: the proofs bind the address the extension dialled, and
 *   the bridge does not listen where the extension does not dial;
 * - before pairing, a frame of more than a few KB closes the socket (1009) before it is buffered,
 *   and a socket gets one pairing; the real extension still pairs at once.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import * as fs from "node:fs/promises";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext, Worker } from "playwright-core";
import { WebSocket } from "ws";
import { AgentOverBrowserBridge } from "@sdk/web";
import { SdkTypeError } from "@sdk/core";
import { BridgeServer } from "../../web/bridge/_server.ts";
import { launchWithBridgeExtension } from "../helpers/bridge_extension.ts";
import { freePort } from "../helpers/free_port.ts";

const TOKEN = "relay-pairing-token-0c7e9a1b";

let tmp: string;
let context: BrowserContext;
let worker: Worker;

// The extension's chrome.* API as the service worker sees it (only what the tests use).
declare const chrome: {
  storage: { local: { set(items: Record<string, unknown>): Promise<void> } };
};

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-relay-"));
  // The extension looks at a port where nothing listens until a test points it elsewhere.
  ({ context, worker } = await launchWithBridgeExtension(tmp, {
    port: await freePort(),
    token: TOKEN,
  }));
});

after(async () => {
  await context?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

function pointExtension(port: number): Promise<void> {
  return worker.evaluate((port) => chrome.storage.local.set({ port }), port);
}

/** A TCP relay on 127.0.0.1:`port` to `[::1]:port`, keeping what the server sent. */
async function startRelay(port: number) {
  const fromServer: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: "::1", port });
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => fromServer.push(chunk));
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    seen: () => Buffer.concat(fromServer).toString("latin1"),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test(
  "a relay on 127.0.0.1 to the SDK on [::1] at the same port gets no pairing: the proofs bind the address the extension dialled",
  {
    timeout: 60_000,
  },
  async () => {
    const port = await freePort();
    // The public API does not listen where the extension does not dial.
    assert.throws(
      () => new AgentOverBrowserBridge({ host: "::1", port, token: TOKEN }),
      (e: unknown) =>
        e instanceof SdkTypeError && /127\.0\.0\.1/.test(e.message) && /::1/.test(e.message),
    );
    // Below it, a server on [::1] (as an SDK could before) behind the relay.
    const server = new BridgeServer({ host: "::1", port, token: TOKEN });
    await server.listen();
    const relay = await startRelay(port);
    try {
      const waited = server.waitForClient(20_000).then(() => "paired", (e: Error) => e.message);
      await pointExtension(port);
      const outcome = await waited;
      assert.notEqual(outcome, "paired", "the relayed pairing succeeded");
      assert.match(outcome, /pairing token does not match/);
      assert.ok(!server.connected);
      assert.ok(!relay.seen().includes("welcome"), "the server welcomed a relayed extension");
    } finally {
      await pointExtension(await freePort());
      await relay.close();
      await server.close();
    }
  },
);

test(
  "before pairing a frame of more than a few KB closes the socket (1009) unread; one pairing per socket; the real extension pairs meanwhile",
  {
    timeout: 60_000,
  },
  async () => {
    const port = await freePort();
    const agent = new AgentOverBrowserBridge({
      port,
      token: TOKEN,
      connectTimeout: 20_000,
      generateReport: false,
      autoPrintReportMsg: false,
      modelConfig: {
        SDK_MODEL_NAME: "m",
        SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
        SDK_MODEL_API_KEY: "k",
      },
    });
    const open = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}`, {
          headers: { origin: `chrome-extension://${"c".repeat(32)}` },
        });
        ws.on("open", () => resolve(ws));
        ws.on("error", reject);
      });
    const closed = (ws: WebSocket) =>
      new Promise<number>((resolve) => ws.on("close", (code: number) => resolve(code)));
    try {
      const connected = agent.connectCurrentTab();
      connected.catch(() => {});
      while (agent.port !== port) await new Promise((r) => setTimeout(r, 20));
      // Floods: 64 KB frames of junk, and a hello padded to 1 MB.
      const floods = await Promise.all(Array.from({ length: 8 }, open));
      const codes = floods.map(closed);
      const junk = Buffer.alloc(64 * 1024, 0x61);
      const started = performance.now();
      floods.forEach((ws, i) =>
        ws.send(
          i % 2 === 0 ? junk : JSON.stringify({
            type: "hello",
            protocol: 3,
            nonce: "0".repeat(64),
            pad: "x".repeat(1 << 20),
          }),
        )
      );
      assert.deepEqual(await Promise.all(codes), Array(8).fill(1009));
      assert.ok(performance.now() - started < 3000, "closed at once, not at the pairing deadline");
      // One pairing per socket: a second hello is refused.
      const twice = await open();
      const twiceClosed = closed(twice);
      const frames: string[] = [];
      twice.on("message", (d: unknown) => frames.push(String(d)));
      const hello = JSON.stringify({ type: "hello", protocol: 3, nonce: "1".repeat(64) });
      twice.send(hello);
      await new Promise((r) => setTimeout(r, 200));
      twice.send(hello);
      assert.ok((await twiceClosed) >= 4000);
      assert.equal(frames.filter((f) => f.includes("challenge")).length, 1);
      // The real extension pairs, and its large frames (screenshots) pass after pairing.
      const page = await context.newPage();
      await page.setContent(`<h1 style="font-size:90px">${"A page of some size ".repeat(40)}</h1>`);
      await page.bringToFront();
      await pointExtension(port);
      const paired = performance.now();
      await connected;
      assert.ok(performance.now() - paired < 10_000);
      const shot = await agent.interface.screenshotBase64();
      assert.ok(shot.length > 8 * 1024, "a screenshot of more than a few KB came through");
      await page.close();
    } finally {
      await pointExtension(await freePort());
      await agent.destroy();
    }
  },
);
