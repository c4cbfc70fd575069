// A Node ESM consumer of the npm packages, copied into a scratch project by
// node_consumer_test.ts after `npm install`ing the packed tarballs. It uses only the packages'
// public entry points, as a user would, and prints one JSON line with what it saw.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { createServer } from "node:http";
import process from "node:process";
import { DriverBPageAgent } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import { chromium } from "playwright-core";

// The button sits well below the top-left corner, so a wrong coordinate conversion misses it.
const PAGE = `<!doctype html>
<html>
<head><meta charset="utf-8"><title>Counter</title></head>
<body style="font: 20px sans-serif; margin: 40px">
  <h1>Counter</h1>
  <p>Count: <span id="count">0</span></p>
  <button id="inc" style="margin: 160px 0 0 300px; width: 180px; height: 48px">Increment</button>
  <script>
    document.getElementById("inc").addEventListener("click", () => {
      const count = document.getElementById("count");
      count.textContent = String(Number(count.textContent) + 1);
    });
  </script>
</body>
</html>`;

const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end(PAGE);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.SDK_CHROMIUM_PATH || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
let model;
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
  await page.goto(url);

  // The scripted model answers from the live page: where the button is, what the counter says.
  model = await startTestModel({
    viewport: () => page.viewportSize() ?? { width: 1024, height: 640 },
    script: {
      async locate() {
        const box = await page.locator("#inc").boundingBox();
        return box && { left: box.x, top: box.y, width: box.width, height: box.height };
      },
      async extract() {
        return Number(await page.locator("#count").textContent());
      },
    },
  });

  const agent = new DriverBPageAgent(page, {
    modelConfig: model.modelConfig(),
    generateReport: true,
  });
  await agent.aiTap("the increment button");
  await agent.aiTap("the increment button");
  const counter = await page.evaluate(() => Number(document.getElementById("count").textContent));
  const aiNumber = await agent.aiNumber("the counter value");
  await agent.destroy();
  const reportFile = agent.reportFile;

  // The package's `sdk` executable on a YAML script over the same page (its own browser; the
  // button sits at the same place at the same viewport, so the model's box fits there too).
  writeFileSync(
    "flow.yaml",
    `web:\n  url: ${url}\n  viewportWidth: 1024\n  viewportHeight: 640\n  output: cli-output.json\n` +
      `tasks:\n  - name: increment\n    flow:\n      - aiTap: the increment button\n` +
      `      - javascript: document.getElementById("count").textContent\n        name: count\n`,
  );
  const cli = await promisify(execFile)(process.execPath, [
    "node_modules/.bin/sdk",
    "run",
    "flow.yaml",
  ], {
    env: { ...process.env, ...model.modelConfig() },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (e) => ({ code: e.code, stdout: `${e.stdout}${e.stderr}` }),
  );
  const cliOutput = existsSync("cli-output.json")
    ? JSON.parse(readFileSync("cli-output.json", "utf8"))
    : null;
  const result = {
    node: process.version,
    counter,
    aiNumber,
    reportFile,
    reportExists: typeof reportFile === "string" && existsSync(reportFile),
    calls: model.calls.map((call) => `${call.kind}:${call.status}`),
    cli: { code: cli.code, count: cliOutput?.count ?? null },
  };
  console.log(JSON.stringify(result));
  assert.equal(counter, 2, "the page counter after two aiTap calls");
  assert.equal(aiNumber, 2, "aiNumber('the counter value')");
  assert.ok(result.reportExists, `report file ${reportFile} exists`);
  assert.equal(cli.code, 0, `sdk run exits 0:\n${cli.stdout}`);
  assert.equal(cliOutput?.count, "1", "the page's count after the sdk run's aiTap");
} finally {
  await model?.close();
  await browser.close();
  server.close();
}
