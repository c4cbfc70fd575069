import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ModelCaller } from "../model/caller.ts";
import { redactLogText } from "./redact.ts";
import { runLog } from "./run_log.ts";

const MARK = `extra-secrets-test-${crypto.randomUUID()}`;
const PROVIDER_TOKEN = `pt-${crypto.randomUUID()}`;
const CLIENT_SECRET = `cs-${crypto.randomUUID()}`;

test("secrets inside SDK_MODEL_EXTRA_BODY_JSON never reach the run log: fields named like secrets are ***, anywhere in a line; the others stay", async () => {
  let seen: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => raw += c);
    req.on("end", () => {
      seen = JSON.parse(raw);
      res.writeHead(400, { "content-type": "application/json" });
      // An endpoint that echoes what it was sent, as some do in their errors.
      res.end(JSON.stringify({ error: { message: `${MARK} bad provider ${PROVIDER_TOKEN}` } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const caller = new ModelCaller({
      modelConfig: {
        SDK_MODEL_NAME: "m",
        SDK_MODEL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        SDK_MODEL_API_KEY: "sk-extra-secrets-test-0123456789",
        SDK_MODEL_MAX_RETRIES: 0,
        SDK_MODEL_EXTRA_BODY_JSON: JSON.stringify({
          provider: { routing: "eu", auth_token: PROVIDER_TOKEN },
          client_secret: CLIENT_SECRET,
          enable_thinking: false,
        }),
      },
      onUsage: () => {},
    });
    await assert.rejects(caller.call("default", [{ role: "user", content: `${MARK} hi` }]));
    assert.equal((seen.provider as Record<string, unknown>).auth_token, PROVIDER_TOKEN, "sent");
    await runLog().ready;
    runLog().flush();
    const lines = (await readFile(runLog().file!, "utf8")).split("\n").filter((l) =>
      l.includes(MARK)
    );
    assert.equal(lines.length, 2, lines.join("\n"));
    for (const line of lines) {
      assert.ok(!line.includes(PROVIDER_TOKEN), line);
      assert.ok(!line.includes(CLIENT_SECRET), line);
    }
    assert.match(lines[0], /"routing":"eu"/);
    assert.match(lines[0], /"enable_thinking":false/);
    assert.match(lines[0], /"auth_token":"\*\*\*"/);
    assert.match(lines[1], /bad provider \*\*\*/);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("custom headers and secret-named fields are redacted in a log line; token counts are not", () => {
  const line = redactLogText(
    'headers {"X-Auth-Token":"abc123secret","x-goog-api-key":"AIzaXYZ","Cookie":"sid=42; a=b",' +
      '"client_secret":"s3cr3tvalue","usage":{"total_tokens":12,"promptTokens":10,"max_tokens":5}} ' +
      "X-Session-Token: tok-99 Private-Key=pk-1",
    [],
  );
  for (const secret of ["abc123secret", "AIzaXYZ", "sid=42", "s3cr3tvalue", "tok-99", "pk-1"]) {
    assert.ok(!line.includes(secret), `${secret} in ${line}`);
  }
  assert.match(line, /"total_tokens":12,"promptTokens":10,"max_tokens":5/);
});
