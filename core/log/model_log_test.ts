import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ModelCaller } from "../model/caller.ts";
import { createTestPng } from "../testing/png.ts";
import { runLog } from "./run_log.ts";

/** A realistic key; the server below echoes it in an answer and in an error. */
const KEY = `sk-ant-api03-${crypto.randomUUID()}`;
/** Marks this test's lines in the process's log file, which other tests of the process share. */
const MARK = `model-log-test-${crypto.randomUUID()}`;

test("model requests, answers and errors reach the run log with the key cut out and images by size", async () => {
  // 1st request: an answer that echoes the key; 2nd: a 400 whose message echoes it too.
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const key = req.headers.authorization?.slice("Bearer ".length);
      res.writeHead(++n === 1 ? 200 : 400, { "content-type": "application/json" });
      res.end(JSON.stringify(
        n === 1
          ? {
            id: "chatcmpl-log",
            choices: [{
              message: { content: `${MARK} answer with ${key}` },
              finish_reason: "stop",
            }],
            usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
          }
          : { error: { message: `${MARK} rejected key ${key}` } },
      ));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const caller = new ModelCaller({
      modelConfig: {
        SDK_MODEL_NAME: "m",
        SDK_MODEL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        SDK_MODEL_API_KEY: KEY,
        SDK_MODEL_MAX_RETRIES: 0,
      },
      onUsage: () => {},
    });
    const image = await createTestPng(64, 48);
    const messages = [{
      role: "user" as const,
      content: [
        { type: "image_url" as const, image_url: { url: image } },
        { type: "text" as const, text: `${MARK} where is the button?` },
      ],
    }];
    const answer = await caller.call("default", messages);
    assert.ok(answer.content.includes(KEY), "the key really went through the call");
    await assert.rejects(caller.call("default", messages));
    await runLog().ready;
    runLog().flush();
    const lines = (await readFile(runLog().file!, "utf8")).split("\n").filter((l) =>
      l.includes(MARK)
    );
    const kinds = lines.map((l) => l.split(" ").slice(1, 3).join(" "));
    assert.deepEqual(kinds, [
      "sdk:model request",
      "sdk:model answer",
      "sdk:model request",
      "sdk:model error",
    ]);
    assert.match(lines[0], /\{"image":"image\/png 64x48, \d+ bytes"\}/);
    assert.match(lines[1], /answer with \*\*\*/);
    assert.match(lines[1], /"attempts":1/);
    assert.match(lines[3], /HTTP 400 .*rejected key \*\*\*/);
    assert.ok(lines.every((l) => !l.includes(KEY)), "no line holds the key");
    assert.ok(lines.every((l) => !l.includes("base64,")), "no line holds image data");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
