import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import http from "node:http";
import { parseMcpArgs } from "./command.ts";
import { serveMcpHttp } from "./server.ts";
import { McpSession } from "./session.ts";

const usage = (message: string) => new TypeError(message);

test("web_open takes http: and https: only: file:, chrome: and data: pages are refused before any browser starts, unless --allow-file-urls", async () => {
  const session = new McpSession();
  for (const url of ["file:///etc/passwd", "chrome://version", "data:text/html,hi", "FILE:/x"]) {
    const started = performance.now();
    const result = await session.call("web_open", { url });
    assert.equal(result.isError, true, url);
    const text = (result.content[0] as { text: string }).text;
    assert.match(text, /^TypeError \(INVALID_ARGUMENT\): web_open opens http: and https: pages/);
    assert.match(text, /--allow-file-urls/);
    assert.ok(performance.now() - started < 1000, "refused before launching anything");
  }
  // With the flag the scheme passes (the remote endpoint is what stops it here, before opening).
  const allowed = new McpSession([], { allowFileUrls: true, allowRemoteCdp: false });
  const result = await allowed.call("web_open", {
    url: "chrome://version",
    cdp_endpoint: "http://192.0.2.1:9222",
  });
  assert.doesNotMatch((result.content[0] as { text: string }).text, /--allow-file-urls/);
  assert.match((result.content[0] as { text: string }).text, /loopback/);
});

test("cdp_endpoint must be on loopback unless --allow-remote-cdp: nothing is fetched from another host", async () => {
  const session = new McpSession();
  for (
    const endpoint of [
      "http://192.0.2.1:9222",
      "ws://example.com:9222/devtools/browser/x",
      "http://169.254.169.254/latest/meta-data",
      "http://127.0.0.1.nip.io:9222",
      "ftp://127.0.0.1:9222",
    ]
  ) {
    const result = await session.call("web_open", {
      url: "https://example.com",
      cdp_endpoint: endpoint,
    });
    assert.equal(result.isError, true, endpoint);
    assert.match(
      (result.content[0] as { text: string }).text,
      /cdp_endpoint .*loopback.*--allow-remote-cdp/,
      endpoint,
    );
  }
});

test("sdk mcp flags: --allow-file-urls, --allow-remote-cdp, --max-sessions, --session-idle-minutes", () => {
  const defaults = parseMcpArgs(["--http"], usage);
  assert.deepEqual(
    [defaults.allowFileUrls, defaults.allowRemoteCdp, defaults.maxSessions, defaults.sessionIdleMs],
    [false, false, 16, 30 * 60_000],
  );
  const set = parseMcpArgs(
    [
      "--http",
      "--allow-file-urls",
      "--allow-remote-cdp",
      "--max-sessions",
      "3",
      "--session-idle-minutes=0.5",
    ],
    usage,
  );
  assert.deepEqual(
    [set.allowFileUrls, set.allowRemoteCdp, set.maxSessions, set.sessionIdleMs],
    [true, true, 3, 30_000],
  );
  assert.throws(() => parseMcpArgs(["--max-sessions", "0"], usage), /--max-sessions/);
  assert.throws(() => parseMcpArgs(["--session-idle-minutes", "-1"], usage), /idle/);
});

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

/** One raw request, with exactly the headers given (a `Host` of one's choosing included). */
function request(
  url: string,
  headers: Record<string, string>,
  body = INIT,
): Promise<{ status: number; session?: string; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
    }, (res) => {
      let text = "";
      res.on("data", (d) => text += d);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          session: res.headers["mcp-session-id"] as string | undefined,
          body: text,
        }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("HTTP: a Host that does not name the listener is refused (DNS rebinding), even with the token", async () => {
  const server = await serveMcpHttp({ port: 0, token: "t".repeat(64) });
  try {
    const port = new URL(server.url).port;
    const auth = { authorization: `Bearer ${"t".repeat(64)}` };
    for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1:1", "127.0.0.1"]) {
      const r = await request(server.url, { ...auth, host });
      assert.equal(r.status, 403, `Host ${JSON.stringify(host)}: ${r.body}`);
      assert.match(r.body, /Host/);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      assert.equal((await request(server.url, { ...auth, host })).status, 200, host);
    }
  } finally {
    await server.close();
  }
});

test("HTTP: sessions are capped (503 past the cap) and closed after their idle time", async () => {
  const token = "k".repeat(64);
  const server = await serveMcpHttp({ port: 0, token, maxSessions: 2, sessionIdleMs: 400 });
  try {
    const auth = { authorization: `Bearer ${token}` };
    const a = await request(server.url, auth);
    const b = await request(server.url, auth);
    assert.ok(a.session && b.session, `${a.status} ${b.status}`);
    const c = await request(server.url, auth);
    assert.equal(c.status, 503, c.body);
    assert.match(c.body, /2 sessions/);
    // Idle past 400 ms: both are closed, and their ids are unknown.
    await new Promise((r) => setTimeout(r, 1200));
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const again = await request(server.url, {
      ...auth,
      "mcp-session-id": a.session!,
      "mcp-protocol-version": "2025-06-18",
    }, list);
    assert.equal(again.status, 404, again.body);
    // The places are free again.
    assert.equal((await request(server.url, auth)).status, 200);
  } finally {
    await server.close();
  }
});
