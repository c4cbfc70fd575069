import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "../agent/agent.ts";
import { SdkRangeError } from "../errors.ts";
import type { AbstractInterface, DeviceAction } from "../device/types.ts";
import { createTestPng } from "../testing/png.ts";

/** An endpoint whose every answer is `content`, as a plain chat completion. */
async function answering(content: string) {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        `{"id":"c","choices":[{"index":0,"message":{"role":"assistant","content":${
          JSON.stringify(content)
        }},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function device() {
  const png = await createTestPng(200, 200);
  const performed: string[] = [];
  const action = (name: string): DeviceAction => ({
    name,
    description: name,
    params: name === "Tap"
      ? [{ name: "locate", type: "locate", required: true, description: "the element" }]
      : [{ name: "value", type: "string", required: true, description: "the text" }],
    call: () => {
      performed.push(name);
      return Promise.resolve();
    },
  });
  const d: AbstractInterface = {
    interfaceType: "fake",
    screenshotBase64: () => Promise.resolve(png),
    size: () => Promise.resolve({ width: 200, height: 200, dpr: 1 }),
    actionSpace: () => [action("Tap"), action("Input")],
  };
  return { device: d, performed };
}

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

for (
  const [what, param] of [
    [
      "nesting 100,000 levels",
      `{"locate":{"prompt":"the button","bbox":[10,10,50,50]},"x":${deep(100_000)}}`,
    ],
    [
      "nesting 40 levels",
      `{"locate":{"prompt":"the button","bbox":[10,10,50,50]},"x":${deep(40)}}`,
    ],
    [
      "of 2 MB",
      `{"locate":{"prompt":"the button","bbox":[10,10,50,50]},"x":"${"a".repeat(2 << 20)}"}`,
    ],
  ] as const
) {
  test(`aiAct: a planned Tap whose parameter is ${what} fails as SdkRangeError before any action`, {
    timeout: 60_000,
  }, async () => {
    const srv = await answering(`{"log":"tap","action":{"type":"Tap","param":${param}}}`);
    const { device: d, performed } = await device();
    const agent = new Agent(d, {
      generateReport: false,
      waitAfterAction: 0,
      modelConfig: {
        SDK_MODEL_NAME: "m",
        SDK_MODEL_BASE_URL: srv.baseURL,
        SDK_MODEL_API_KEY: "k-param-shape-0123",
        SDK_MODEL_MAX_RETRIES: 0,
      },
    });
    try {
      await assert.rejects(agent.aiAct("tap the button"), (e: unknown) => {
        assert.ok(
          e instanceof SdkRangeError,
          `${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 300)}`,
        );
        assert.equal(e.code, "ARGUMENT_OUT_OF_RANGE");
        assert.match(e.message, /Tap/);
        return true;
      });
      assert.deepEqual(performed, []);
    } finally {
      await agent.destroy();
      await srv.close();
    }
  });
}

test("aiInput with a value of 2 MB characters fails as SdkRangeError before typing", async () => {
  const { device: d, performed } = await device();
  // No model is reached: an aiInput without a field types into the focused one.
  const agent = new Agent(d, {
    generateReport: false,
    waitAfterAction: 0,
    modelConfig: {
      SDK_MODEL_NAME: "m",
      SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
      SDK_MODEL_API_KEY: "k",
    },
  });
  try {
    await assert.rejects(
      agent.aiInput(undefined as never, { value: "a".repeat(2 << 20) }),
      (e: unknown) => e instanceof SdkRangeError && /Input from the call/.test(e.message),
    );
    assert.deepEqual(performed, []);
  } finally {
    await agent.destroy();
  }
});
