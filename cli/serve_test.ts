import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import http from "node:http";
import { serveStatic } from "./serve.ts";

const FIXTURE_APP_DIR = new URL("../tests/fixtures/app/", import.meta.url).pathname;

/** Sends a request with the path exactly as written (fetch would normalize `..` away). */
function rawGet(url: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => body += chunk);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("serveStatic() serves the fixture app with content types and index.html for /", async () => {
  const app = await serveStatic(FIXTURE_APP_DIR);
  try {
    assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const pages = ["index", "login", "list", "form", "long", "actions"];
    for (const page of pages) {
      const res = await fetch(`${app.url}${page}.html`);
      assert.equal(res.status, 200, page);
      assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
      assert.match(await res.text(), /window\.appState/, `${page}.html sets window.appState`);
    }
    const css = await fetch(`${app.url}style.css`);
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    await css.body?.cancel();
    const root = await fetch(app.url);
    assert.match(await root.text(), /Welcome to the Fixture App/);
    const query = await fetch(`${app.url}login.html?next=list#x`);
    assert.equal(query.status, 200);
    await query.body?.cancel();
    const missing = await fetch(`${app.url}nope.html`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const head = await fetch(`${app.url}index.html`, { method: "HEAD" });
    assert.equal(head.status, 200);
    const post = await fetch(`${app.url}index.html`, { method: "POST" });
    assert.equal(post.status, 405);
    await post.body?.cancel();
  } finally {
    await app.close();
  }
});

test("serveStatic() rejects paths with '..', raw or percent-encoded", async () => {
  const app = await serveStatic(FIXTURE_APP_DIR);
  try {
    for (
      const rawPath of [
        "/../static_server.ts",
        "/../../helpers/static_server.ts",
        "/%2e%2e/static_server.ts",
        "/..%2fstatic_server.ts",
        "/..%5cstatic_server.ts",
      ]
    ) {
      const res = await rawGet(app.url, rawPath);
      assert.equal(res.status, 403, rawPath);
      assert.doesNotMatch(res.body, /serveStatic/);
    }
  } finally {
    await app.close();
  }
});

test("serveStatic() refuses a directory that does not exist, and close() can be called twice", async () => {
  await assert.rejects(serveStatic("/no/such/dir"), /Cannot serve '\/no\/such\/dir'/);
  const app = await serveStatic(FIXTURE_APP_DIR);
  await app.close();
  await app.close();
});
