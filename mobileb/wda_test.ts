import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { ConnectionError, ToolError } from "@sdk/core";
import { driverAnswerOf, WdaClient } from "./wda.ts";

// A raw TCP server answering each connection with `answer(request)`: real HTTP bytes, so that
// the client's fetch sees exactly what a driver would send (or a connection cut half-way).
async function rawServer(
  answer: (request: string, socket: import("node:net").Socket) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(data)?.[1] ?? 0);
      if (data.length < end + 4 + length) return;
      answer(data, socket);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    // Connections a test left hanging are cut, so the server can close.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function json(socket: import("node:net").Socket, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${
      Buffer.byteLength(text)
    }\r\nconnection: close\r\n\r\n${text}`,
  );
}

test("request returns the value of WDA's answer and sends POST bodies as JSON", {
  timeout: 20_000,
}, async () => {
  const seen: string[] = [];
  const server = await rawServer((request, socket) => {
    seen.push(request);
    json(socket, 200, { value: { ready: true }, sessionId: null });
  });
  try {
    const client = new WdaClient("127.0.0.1", server.port);
    assert.deepEqual(await client.request("GET", "/status"), { ready: true });
    await client.request("POST", "/session/s1/wda/keys", { value: ["a"] });
    // The connection check (GET /status) comes once, before the first request.
    assert.deepEqual(seen.map((r) => r.split(" HTTP/")[0]), [
      "GET /status",
      "GET /status",
      "POST /session/s1/wda/keys",
    ]);
    assert.match(seen[2], /content-type: application\/json/i);
    assert.ok(seen[2].endsWith(`{"value":["a"]}`));
  } finally {
    await server.close();
  }
});

test("a driver error answer is a ToolError of WebDriverAgent: status, WDA's words and the route", {
  timeout: 20_000,
}, async () => {
  const server = await rawServer((_request, socket) =>
    json(socket, 404, {
      value: { error: "invalid session id", message: "Session does not exist", traceback: "" },
    })
  );
  try {
    const client = new WdaClient("127.0.0.1", server.port);
    const error = await client.request("POST", "/session/gone/actions", {}).catch((e) => e);
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.code, "TOOL_FAILED");
    assert.equal(error.tool, "WebDriverAgent");
    assert.equal(error.status, 404);
    assert.equal(error.output, "invalid session id: Session does not exist");
    assert.match(error.message, /answered POST \/session\/gone\/actions with error/);
    assert.match(error.message, /invalid session id.*Session does not exist/);
    assert.deepEqual(driverAnswerOf(error), {
      route: "POST /session/gone/actions",
      status: 404,
      error: "invalid session id",
      driverMessage: "Session does not exist",
    });
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
    assert.match(error.message, /WebDriverAgent keeps one session.*create a new device/);
  } finally {
    await server.close();
  }
});

test("an error value in a 200 answer is an error too", { timeout: 20_000 }, async () => {
  const server = await rawServer((_request, socket) =>
    json(socket, 200, { value: { error: "unknown error", message: "boom" } })
  );
  try {
    const error = await new WdaClient("127.0.0.1", server.port).request("GET", "/x").catch((e) =>
      e
    );
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.status, 200);
    assert.equal(driverAnswerOf(error)?.error, "unknown error");
  } finally {
    await server.close();
  }
});

test("nothing listening: ConnectionError refused naming host, port and how to start WDA", {
  timeout: 20_000,
}, async () => {
  const server = await rawServer(() => {});
  const port = server.port;
  await server.close();
  const error = await new WdaClient("127.0.0.1", port).request("GET", "/status").catch((e) => e);
  assert.ok(error instanceof ConnectionError, String(error));
  assert.equal(error.code, "CONNECTION_REFUSED");
  assert.equal(error.endpoint, `127.0.0.1:${port}`);
  assert.match(error.message, new RegExp(`not running at 127\\.0\\.0\\.1:${port}`));
  assert.match(error.message, /xcodebuild .*WebDriverAgentRunner.* test/);
  assert.match(error.message, /iproxy/);
});

test("a connection dropped mid-request: ConnectionError lost naming the route", {
  timeout: 20_000,
}, async () => {
  const server = await rawServer((request, socket) => {
    if (request.startsWith("GET /status")) return json(socket, 200, { value: { ready: true } });
    // Headers promise a body that never comes: the answer is cut off.
    socket.write(
      "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
    );
    socket.destroy();
  });
  try {
    const error = await new WdaClient("127.0.0.1", server.port)
      .request("POST", "/session/s/actions", {}).catch((e) => e);
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(error.code, "CONNECTION_LOST");
    assert.equal(error.endpoint, `127.0.0.1:${server.port}`);
    assert.match(
      error.message,
      new RegExp(`127\\.0\\.0\\.1:${server.port} dropped during POST /session/s/actions`),
    );
  } finally {
    await server.close();
  }
});

test("a connection closed before any answer is a dropped connection too", {
  timeout: 20_000,
}, async () => {
  const server = await rawServer((_request, socket) => socket.destroy());
  try {
    const error = await new WdaClient("127.0.0.1", server.port).request("GET", "/screenshot")
      .catch((e) => e);
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(error.kind, "lost");
    assert.match(error.message, /GET \/screenshot/);
  } finally {
    await server.close();
  }
});

test(
  "a port that accepts but never answers fails the connection check within driverConnectTimeout",
  {
    timeout: 20_000,
  },
  async () => {
    // Reads the request and never writes: what a hung WDA or a wrong port does.
    const server = await rawServer(() => {});
    try {
      const client = new WdaClient("127.0.0.1", server.port, 300);
      const started = performance.now();
      const error = await client.request("GET", "/screenshot").catch((e) => e);
      const elapsed = performance.now() - started;
      assert.ok(error instanceof ConnectionError, String(error));
      assert.equal(error.code, "CONNECTION_TIMEOUT");
      assert.equal(error.kind, "timeout");
      assert.equal(error.endpoint, `127.0.0.1:${server.port}`);
      assert.match(error.message, /did not answer within 300 ms \(driverConnectTimeout/);
      assert.match(error.message, /before GET \/screenshot/);
      assert.ok(elapsed >= 250 && elapsed < 5000, `failed after ${Math.round(elapsed)} ms`);
      // The next request checks again rather than waiting a request's 60 s.
      const again = await client.request("GET", "/screenshot").catch((e) => e);
      assert.ok(again instanceof ConnectionError && again.kind === "timeout", String(again));
    } finally {
      server.close();
    }
  },
);

test("after a request that timed out, the next one checks the connection again", {
  timeout: 20_000,
}, async () => {
  let hang = false;
  const seen: string[] = [];
  const server = await rawServer((request, socket) => {
    seen.push(request.split(" HTTP/")[0]);
    if (!hang) json(socket, 200, { value: { ready: true } });
  });
  try {
    const client = new WdaClient("127.0.0.1", server.port, 300);
    assert.deepEqual(await client.request("GET", "/status"), { ready: true });
    hang = true;
    const slow = await client.request("GET", "/screenshot", undefined, { timeoutMs: 400 })
      .catch((e) => e);
    assert.ok(slow instanceof ConnectionError && slow.kind === "timeout", String(slow));
    assert.match(slow.message, /did not answer GET \/screenshot within 400 ms/);
    const checked = await client.request("GET", "/screenshot").catch((e) => e);
    assert.ok(checked instanceof ConnectionError, String(checked));
    assert.match(checked.message, /driverConnectTimeout/);
    assert.deepEqual(seen, ["GET /status", "GET /status", "GET /screenshot", "GET /status"]);
  } finally {
    await server.close();
  }
});
