import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import {
  DriverConnectionError,
  DriverNotRunningError,
  DriverRequestError,
  WdaClient,
} from "./wda.ts";

// A raw TCP server answering each connection with `answer(request)`: real HTTP bytes, so that
// the client's fetch sees exactly what a driver would send (or a connection cut half-way).
async function rawServer(
  answer: (request: string, socket: import("node:net").Socket) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((socket) => {
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
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

test("request returns the value of WDA's answer and sends POST bodies as JSON", async () => {
  const seen: string[] = [];
  const server = await rawServer((request, socket) => {
    seen.push(request);
    json(socket, 200, { value: { ready: true }, sessionId: null });
  });
  try {
    const client = new WdaClient("127.0.0.1", server.port);
    assert.deepEqual(await client.request("GET", "/status"), { ready: true });
    await client.request("POST", "/session/s1/wda/keys", { value: ["a"] });
    assert.match(seen[1], /^POST \/session\/s1\/wda\/keys HTTP\/1\.1/);
    assert.match(seen[1], /content-type: application\/json/i);
    assert.ok(seen[1].endsWith(`{"value":["a"]}`));
  } finally {
    await server.close();
  }
});

test("a driver error answer carries WDA's error, message and the route", async () => {
  const server = await rawServer((_request, socket) =>
    json(socket, 404, {
      value: { error: "invalid session id", message: "Session does not exist", traceback: "" },
    })
  );
  try {
    const client = new WdaClient("127.0.0.1", server.port);
    const error = await client.request("POST", "/session/gone/actions", {}).catch((e) => e);
    assert.ok(error instanceof DriverRequestError, String(error));
    assert.equal(error.error, "invalid session id");
    assert.equal(error.driverMessage, "Session does not exist");
    assert.equal(error.status, 404);
    assert.equal(error.route, "POST /session/gone/actions");
    assert.match(error.message, /invalid session id.*Session does not exist/);
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
    assert.match(error.message, /WebDriverAgent keeps one session.*create a new device/);
  } finally {
    await server.close();
  }
});

test("an error value in a 200 answer is an error too", async () => {
  const server = await rawServer((_request, socket) =>
    json(socket, 200, { value: { error: "unknown error", message: "boom" } })
  );
  try {
    const error = await new WdaClient("127.0.0.1", server.port).request("GET", "/x").catch((e) =>
      e
    );
    assert.ok(error instanceof DriverRequestError);
    assert.equal(error.error, "unknown error");
  } finally {
    await server.close();
  }
});

test("nothing listening: DriverNotRunningError naming host, port and how to start WDA", async () => {
  const server = await rawServer(() => {});
  const port = server.port;
  await server.close();
  const error = await new WdaClient("127.0.0.1", port).request("GET", "/status").catch((e) => e);
  assert.ok(error instanceof DriverNotRunningError, String(error));
  assert.match(error.message, new RegExp(`not running at 127\\.0\\.0\\.1:${port}`));
  assert.match(error.message, /xcodebuild .*WebDriverAgentRunner.* test/);
  assert.match(error.message, /iproxy/);
});

test("a connection dropped mid-request: DriverConnectionError naming the route", async () => {
  const server = await rawServer((_request, socket) => {
    // Headers promise a body that never comes: the answer is cut off.
    socket.write(
      "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
    );
    socket.destroy();
  });
  try {
    const error = await new WdaClient("127.0.0.1", server.port)
      .request("POST", "/session/s/actions", {}).catch((e) => e);
    assert.ok(error instanceof DriverConnectionError, String(error));
    assert.equal(error.route, "POST /session/s/actions");
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${server.port} dropped during POST`));
  } finally {
    await server.close();
  }
});

test("a connection closed before any answer is a dropped connection too", async () => {
  const server = await rawServer((_request, socket) => socket.destroy());
  try {
    const error = await new WdaClient("127.0.0.1", server.port).request("GET", "/screenshot")
      .catch((e) => e);
    assert.ok(error instanceof DriverConnectionError, String(error));
    assert.match(error.message, /GET \/screenshot/);
  } finally {
    await server.close();
  }
});
