import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { Agent } from "../agent/agent.ts";
import type { AbstractInterface } from "../device/types.ts";
import { createTestPng } from "../testing/png.ts";
import { REPORT_MAX_DEPTH } from "./report_value.ts";

test(
  "aiQuery data nested 100,000 levels reaches the caller whole and the report with a depth cap and a marker; the write does not fail",
  {
    timeout: 60_000,
  },
  async () => {
    const depth = 100_000;
    const content = `{"data":${"[".repeat(depth)}"bottom"${"]".repeat(depth)}}`;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          `{"id":"q","choices":[{"index":0,"message":{"role":"assistant","content":${
            JSON.stringify(content)
          }},"finish_reason":"stop"}]}`,
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const dir = await mkdtemp(join(tmpdir(), "sdk-deep-"));
    const png = await createTestPng(64, 64);
    const device: AbstractInterface = {
      interfaceType: "fake",
      screenshotBase64: () => Promise.resolve(png),
      size: () => Promise.resolve({ width: 64, height: 64, dpr: 1 }),
      actionSpace: () => [],
    };
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
    const savedRunDir = process.env.SDK_RUN_DIR;
    process.env.SDK_RUN_DIR = dir;
    const agent = new Agent(device, {
      autoPrintReportMsg: false,
      modelConfig: {
        SDK_MODEL_NAME: "m",
        SDK_MODEL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        SDK_MODEL_API_KEY: "k-deep-0123456789",
      },
    });
    try {
      let data = await agent.aiQuery("the nested list") as unknown;
      let levels = 0;
      while (Array.isArray(data)) [data, levels] = [data[0], levels + 1];
      assert.deepEqual([levels, data], [depth, "bottom"], "the caller gets the data whole");
      // The agent's records hold it capped, and copy without overflowing.
      const output = JSON.stringify(agent._unstableLogContent().executions[0].output);
      assert.match(output, /nested deeper than \d+ levels: left out/);
      await agent.destroy();
      const html = await readFile(agent.reportFile!, "utf8");
      assert.match(html, /nested deeper than \d+ levels: left out/);
      assert.ok(html.split("[[").length > REPORT_MAX_DEPTH / 2, "the first levels are kept");
      assert.deepEqual(warnings.filter((w) => /report/i.test(w)), []);
    } finally {
      console.warn = warn;
      if (savedRunDir === undefined) delete process.env.SDK_RUN_DIR;
      else process.env.SDK_RUN_DIR = savedRunDir;
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await rm(dir, { recursive: true, force: true });
    }
  },
);
