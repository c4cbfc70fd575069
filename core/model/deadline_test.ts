import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "../agent/agent.ts";
import { ModelTimeoutError } from "../errors.ts";
import type { AbstractInterface, DeviceAction } from "../device/types.ts";
import { createTestPng } from "../testing/png.ts";

/**
 * An endpoint that never finishes its answer: it sends the headers, then an empty delta chunk every
 * `gapMs`, forever (a stream), or a byte of whitespace every `gapMs` (a plain JSON answer).
 */
async function trickling(mode: "stream" | "json", gapMs = 1000) {
  const timers = new Set<ReturnType<typeof setInterval>>();
  const server = createServer((req, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, {
        "content-type": mode === "stream" ? "text/event-stream" : "application/json",
      });
      const chunk = mode === "stream"
        ? `data: ${
          JSON.stringify({ id: "c", choices: [{ index: 0, delta: { content: "" } }] })
        }\n\n`
        : " ";
      res.write(chunk);
      const t = setInterval(() => {
        if (res.destroyed) return clearInterval(t);
        res.write(chunk);
      }, gapMs);
      timers.add(t);
      res.on("close", () => clearInterval(t));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    async close() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function device(): Promise<AbstractInterface> {
  const png = await createTestPng(64, 64);
  const action = (name: string): DeviceAction => ({
    name,
    description: name,
    params: [],
    call: () => Promise.resolve(),
  });
  return {
    interfaceType: "fake",
    screenshotBase64: () => Promise.resolve(png),
    size: () => Promise.resolve({ width: 64, height: 64, dpr: 1 }),
    actionSpace: () => ["Tap", "Input"].map(action),
  };
}

for (const mode of ["stream", "json"] as const) {
  test(`aiAct ends with ModelTimeoutError when a ${mode} answer trickles past SDK_MODEL_TIMEOUT`, {
    timeout: 60_000,
  }, async () => {
    const srv = await trickling(mode);
    const agent = new Agent(await device(), {
      generateReport: false,
      modelConfig: {
        SDK_MODEL_NAME: "m-test",
        SDK_MODEL_BASE_URL: srv.baseURL,
        SDK_MODEL_API_KEY: "k-test-0123456789",
        SDK_MODEL_STREAM: mode === "stream" ? "true" : "false",
        SDK_MODEL_TIMEOUT: 3000,
        SDK_MODEL_MAX_RETRIES: 0,
      },
    });
    const started = performance.now();
    try {
      await assert.rejects(agent.aiAct("tap the button"), (e: unknown) => {
        assert.ok(e instanceof ModelTimeoutError, String(e));
        assert.equal(e.code, "MODEL_CALL_TIMEOUT");
        assert.equal(e.timeoutMs, 3000);
        assert.match(e.message, /whole answer/);
        return true;
      });
      const took = performance.now() - started;
      // One attempt of 3 s, and some slack for a loaded machine; before the deadline it ran on.
      assert.ok(took >= 2900 && took < 8000, `took ${took} ms`);
    } finally {
      await agent.destroy();
      await srv.close();
    }
  });
}
