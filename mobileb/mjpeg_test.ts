import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { createServer as httpServer } from "node:http";
import { ConnectionError, ToolError } from "@sdk/core";
import { MjpegParser, startMjpegStream } from "./mjpeg.ts";

const enc = new TextEncoder();
const jpeg = (n: number) => new Uint8Array([0xff, 0xd8, n, 0xff, 0x00, n, 0xff, 0xd9]);

function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const bytes = parts.map((p) => typeof p === "string" ? enc.encode(p) : p);
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

// WDA's FBMjpegServer part: boundary, Content-type, Content-Length, blank line, JPEG, two CRLFs.
function wdaPart(frame: Uint8Array): Uint8Array {
  return concat(
    `--BoundaryString\r\nContent-type: image/jpg\r\nContent-Length: ${frame.length}\r\n\r\n`,
    frame,
    "\r\n\r\n",
  );
}

test("MjpegParser splits WDA's parts by Content-Length, across any chunking", () => {
  const stream = concat(wdaPart(jpeg(1)), wdaPart(jpeg(2)), wdaPart(jpeg(3)));
  for (const size of [1, 3, 7, stream.length]) {
    const frames: number[] = [];
    const parser = new MjpegParser((f) => frames.push(f[2]));
    for (let i = 0; i < stream.length; i += size) parser.push(stream.subarray(i, i + size));
    assert.deepEqual(frames, [1, 2, 3], `chunks of ${size} bytes`);
  }
});

test("MjpegParser reads parts without Content-Length up to the JPEG end marker", () => {
  const frames: Uint8Array[] = [];
  const parser = new MjpegParser((f) => frames.push(f));
  parser.push(concat(
    "--b\r\nContent-Type: image/jpeg\r\n\r\n",
    jpeg(7),
    "\r\n--b\r\nContent-Type: image/jpeg\r\n\r\n",
    jpeg(8),
  ));
  assert.deepEqual(frames.map((f) => [...f]), [[...jpeg(7)], [...jpeg(8)]]);
});

test("MjpegParser refuses a stream that has no part headers", () => {
  const parser = new MjpegParser(() => {});
  assert.throws(() => parser.push(new Uint8Array(5000).fill(65)), /without headers/);
});

test(
  "startMjpegStream: nothing listening is a ConnectionError refused naming the URL and the option",
  {
    timeout: 10_000,
  },
  async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const url = `http://127.0.0.1:${port}/`;
    const error = await startMjpegStream(url, { onFrame: () => {} }, () => {}).catch((e) => e);
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(error.code, "CONNECTION_REFUSED");
    assert.equal(error.endpoint, `127.0.0.1:${port}`);
    assert.match(error.message, new RegExp(`MJPEG stream at ${url}`));
    assert.match(error.message, /driverMjpegPort/);
  },
);

test(
  "startMjpegStream: a port that never answers is a ConnectionError timeout; an HTTP error a ToolError",
  {
    timeout: 10_000,
  },
  async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const refusing = httpServer((_request, response) => {
      response.statusCode = 404;
      response.end("no stream here");
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
      const timedOut = await startMjpegStream(silentUrl, { onFrame: () => {} }, () => {}, 300)
        .catch((e) => e);
      assert.ok(timedOut instanceof ConnectionError, String(timedOut));
      assert.equal(timedOut.code, "CONNECTION_TIMEOUT");
      assert.match(timedOut.message, /no answer within 300 ms \(driverConnectTimeout\)/);
      const httpUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/`;
      const refused = await startMjpegStream(httpUrl, { onFrame: () => {} }, () => {})
        .catch((e) => e);
      assert.ok(refused instanceof ToolError, String(refused));
      assert.equal(refused.status, 404);
      assert.equal(refused.tool, "WebDriverAgent");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  },
);
