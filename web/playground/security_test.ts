import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkRequest, newToken, playgroundHostWarning, sameToken } from "./security.ts";
import { readModelInfo, redact } from "./model_info.ts";
import { readReportFile } from "./report_files.ts";

const token = newToken();
const guard = { token, host: "127.0.0.1", port: 5800 };
const request = (headers: Record<string, string>, path = "/api/info") => ({
  req: { headers: { host: "127.0.0.1:5800", ...headers } },
  url: new URL(path, "http://x"),
});

test("tokens are 64 hex digits, new each time, compared whole", () => {
  assert.match(token, /^[0-9a-f]{64}$/);
  assert.notEqual(newToken(), token);
  assert.ok(sameToken(token, token));
  assert.ok(!sameToken(undefined, token));
  assert.ok(!sameToken(token.slice(0, -1), token));
  assert.ok(!sameToken(token.slice(0, -1) + (token.endsWith("0") ? "1" : "0"), token));
});

test("a request needs the token (header, query or report path), its own Host and Origin", () => {
  const check = (headers: Record<string, string>, path?: string, inPath?: string) => {
    const { req, url } = request(headers, path);
    return checkRequest(req, url, guard, inPath);
  };
  assert.equal(check({ "x-playground-token": token }), undefined);
  assert.equal(check({}, `/?token=${token}`), undefined);
  assert.equal(check({}, "/report/x", token), undefined);
  assert.equal(check({ "x-playground-token": token, origin: "http://127.0.0.1:5800" }), undefined);
  assert.match(check({})!, /token is missing/);
  assert.match(check({ "x-playground-token": "f".repeat(64) })!, /token is wrong/);
  assert.match(
    check({ "x-playground-token": token, origin: "http://evil.example" })!,
    /another origin \(http:\/\/evil\.example\)/,
  );
  assert.match(check({ "x-playground-token": token, origin: "null" })!, /another origin/);
  // DNS rebinding: a foreign name that resolves to 127.0.0.1 is refused by its Host header.
  assert.match(check({ "x-playground-token": token, host: "evil.example:5800" })!, /Host/);
  const { req, url } = request({ "x-playground-token": token, host: "10.0.0.5:5800" });
  assert.equal(checkRequest(req, url, { ...guard, host: "0.0.0.0" }), undefined);
});

test("a host other than loopback gets a warning", () => {
  assert.equal(playgroundHostWarning("127.0.0.1"), undefined);
  assert.equal(playgroundHostWarning("localhost"), undefined);
  assert.match(playgroundHostWarning("0.0.0.0")!, /all network interfaces \(0\.0\.0\.0\)/);
  assert.match(playgroundHostWarning("0.0.0.0")!, /trusted network only/);
  assert.match(playgroundHostWarning("192.168.1.4")!, /network address 192\.168\.1\.4/);
});

test("the model info shows family, name and base URL without key, user info or query", () => {
  const info = readModelInfo({
    SDK_MODEL_NAME: "m",
    SDK_MODEL_BASE_URL: "https://user:pw@host.example/v1?key=abc",
    SDK_MODEL_API_KEY: "secret-key",
    SDK_MODEL_FAMILY: "qwen3-vl",
    SDK_INSIGHT_MODEL_NAME: "m2",
  });
  assert.deepEqual(info.models, [
    { intent: "default", family: "qwen3-vl", modelName: "m", baseURL: "https://host.example/v1" },
    { intent: "insight", family: "qwen3-vl", modelName: "m2", baseURL: "https://host.example/v1" },
  ]);
  assert.deepEqual(info.secrets, ["secret-key"]);
  assert.equal(redact("sent secret-key twice: secret-key", info.secrets), "sent *** twice: ***");
  assert.match(readModelInfo({}).error!, /SDK_MODEL_NAME/);
});

test("report files: the single file, or files inside a report folder, nothing else", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-playground-"));
  try {
    await writeFile(join(dir, "r.html"), "report");
    await writeFile(join(dir, "other.html"), "other");
    await mkdir(join(dir, "f/screenshots"), { recursive: true });
    await writeFile(join(dir, "f/index.html"), "index");
    await writeFile(join(dir, "f/screenshots/a.jpg"), "jpg");
    const single = { file: join(dir, "r.html"), folder: false };
    assert.equal((await readReportFile(single, "r.html"))?.type, "text/html; charset=utf-8");
    assert.equal(await readReportFile(single, "other.html"), undefined);
    assert.equal(await readReportFile(single, "..%2Fr.html"), undefined);
    const folder = { file: join(dir, "f/index.html"), folder: true };
    assert.equal((await readReportFile(folder, "screenshots/a.jpg"))?.type, "image/jpeg");
    assert.equal(await readReportFile(folder, "..%2Fr.html"), undefined);
    assert.equal(await readReportFile(folder, "../r.html"), undefined);
    assert.equal(await readReportFile({ file: undefined, folder: false }, "r.html"), undefined);
  } finally {
    await rm(dir, { recursive: true });
  }
});
