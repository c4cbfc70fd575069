/**
 * `sdk mcp` as an assistant uses it (docs/mcp.md): a real MCP client (`Client` of
 * `@modelcontextprotocol/sdk`) spawns the command over stdio and calls every tool: on the fixture
 * app (in a CDP Chromium the test also watches), on the device simulator's Android, iOS and
 * HarmonyOS fronts, and on a desktop (an Xvfb with the Tk fixture app), with the test model on
 * 127.0.0.1 as the server's model. The HTTP transport refuses a missing or wrong token and a
 * foreign Origin.
 *
 * @module
 */

import { before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestModel, type TargetBox, type TestModel } from "@sdk/core/testing";
import { startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type AdbFront, startAdbFront } from "@sdk/mobilea/testing";
import { startWdaFront, type WdaFront } from "@sdk/mobileb/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { after, test } from "../helpers/test.ts";
import { findChromium, launchChromium } from "../helpers/browser.ts";
import { type CdpChromium, startCdpChromium } from "../helpers/cdp_chromium.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { type PrivateAdbServer, startPrivateAdbServer } from "../helpers/adb.ts";
import { locateTarget } from "../helpers/app_model.ts";
import { phoneBox } from "../helpers/phone.ts";
import {
  type DesktopApp,
  ensureDesktopTools,
  nutJsDir,
  startDesktopApp,
  startTestDisplay,
  type TestDisplay,
} from "../helpers/desktop.ts";
import { descendantsOf, parseReport, stillRunning } from "../helpers/lifecycle.ts";

const BIN = fileURLToPath(new URL("../../cli/bin.ts", import.meta.url));
const KEY = "sk-mcp-test-key-0123456789";
const NOTES = "com.example.notes";
const DENSITY = 3;

type Target = "web" | "phone" | "desktop";
let target: Target = "web";

let app: StaticServer;
let cdp: CdpChromium;
let watcher: Browser;
let phoneBrowser: Browser;
let mobileApps: StaticServer;
let phone: VirtualPhone;
let adbFront: AdbFront;
let adb: PrivateAdbServer;
let wdaFront: WdaFront;
let hdcFront: HdcFront;
let display: TestDisplay;
let desktop: DesktopApp;
let model: TestModel;
let client: Client;
const results: string[] = [];

/** The page the server opened in the CDP Chromium, as the test sees it. */
function webPage(): Page {
  const pages = watcher.contexts().flatMap((c) => c.pages());
  const page = pages.find((p) => p.url().includes("actions.html"));
  assert.ok(page, `the server's page among ${pages.map((p) => p.url())}`);
  return page;
}

async function locate(description: string): Promise<TargetBox | null> {
  if (target === "web") return await locateTarget(webPage(), description);
  if (target === "phone") {
    const box = await phoneBox(phone, "#note-1");
    return {
      left: box.left * DENSITY,
      top: box.top * DENSITY,
      width: box.width * DENSITY,
      height: box.height * DENSITY,
    };
  }
  const { widgets } = await desktop.state();
  const w = widgets.save;
  return { left: w.x, top: w.y, width: w.width, height: w.height };
}

before(async () => {
  await ensureDesktopTools();
  app = await serveStatic(FIXTURE_APP_DIR);
  cdp = await startCdpChromium();
  watcher = await chromium.connectOverCDP(`http://127.0.0.1:${cdp.port}`);
  phoneBrowser = await launchChromium();
  mobileApps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser: phoneBrowser,
    width: 1170,
    height: 2532,
    density: DENSITY,
    apps: { [NOTES]: { url: `${mobileApps.url}notes/index.html`, label: "Notes" } },
    startApp: NOTES,
  });
  adbFront = await startAdbFront(phone);
  adb = await startPrivateAdbServer();
  await adb.connect(adbFront.serial);
  wdaFront = await startWdaFront(phone, {});
  hdcFront = await startHdcFront(phone);
  display = await startTestDisplay("1024x700x24");
  desktop = await startDesktopApp(display.display);
  model = await startTestModel({
    apiKey: KEY,
    imagePixelsPerCssPixel: 1,
    script: {
      locate: (call) => locate(call.target),
      extract: () => ({ clicks: 1 }),
      assert: (call) => ({ pass: !/absent/.test(call.assertion), thought: "looked" }),
      plan: async (call) =>
        call.history.length === 0
          ? {
            log: "tap",
            action: {
              type: "Tap",
              param: { locate: { prompt: "the Click me button", box: (await locate("click"))! } },
            },
            finished: true,
            output: "clicked",
          }
          : { log: "done", finished: true },
    },
  });
  const config = model.modelConfig();
  client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "--allow-all", BIN, "mcp"],
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "/root",
        ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)])),
        SDK_CHROMIUM_PATH: await findChromium(),
        TOOL_HOME: hdcFront.toolDir,
        SDK_NUT_JS_DIR: nutJsDir(),
        SDK_RUN_DIR: Deno.env.get("SDK_RUN_DIR") ?? "sdk_run",
      },
      stderr: "pipe",
    }),
  );
});

after(async () => {
  await client?.close();
  await model?.close();
  await desktop?.close();
  await display?.close();
  await hdcFront?.close();
  await wdaFront?.close();
  await adb?.close();
  await adbFront?.close();
  await phone?.close();
  await mobileApps?.close();
  await phoneBrowser?.close();
  await watcher?.close();
  await cdp?.close();
  await app?.close();
});

type Content = { type: string; text?: string; data?: string; mimeType?: string };

/** Calls a tool; returns its content and error flag, and keeps its text for the key check. */
async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args }) as {
    content: Content[];
    isError?: boolean;
  };
  results.push(JSON.stringify(result));
  return { ...result, text: result.content.map((c) => c.text ?? "").join("\n") };
}

const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await call(name, args);
  assert.ok(!r.isError, `${name} failed: ${r.text}`);
  return r;
};

test("tools/list gives every tool with a JSON Schema whose arguments are described", async () => {
  const { tools } = await client.listTools() as {
    tools: { name: string; inputSchema: { type: string; properties?: Record<string, unknown> } }[];
  };
  assert.deepEqual(tools.map((t) => t.name), [
    "web_open",
    "android_connect",
    "ios_connect",
    "harmony_connect",
    "desktop_connect",
    "ai_act",
    "ai_tap",
    "ai_input",
    "ai_scroll",
    "ai_keyboard_press",
    "ai_query",
    "ai_assert",
    "ai_wait_for",
    "screenshot",
    "report",
    "close",
  ]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    for (const [name, spec] of Object.entries(tool.inputSchema.properties ?? {})) {
      assert.ok((spec as { description?: string }).description, `${tool.name}.${name}`);
    }
  }
});

test("a call without a target is an MCP tool error naming the SDK error's class and code", async () => {
  const r = await call("ai_tap", { prompt: "the Click me button" });
  assert.equal(r.isError, true);
  assert.match(r.text, /^InvalidStateError \(INVALID_STATE\): No target is open: call web_open/);
});

test("web: every ai_* tool, screenshot, report and close on the fixture app", async () => {
  target = "web";
  await ok("web_open", {
    url: `${app.url}actions.html`,
    cdp_endpoint: `http://127.0.0.1:${cdp.port}`,
  });
  const page = webPage();
  await ok("ai_tap", { prompt: "the Click me button" });
  assert.equal(
    await page.evaluate(() =>
      (globalThis as unknown as { appState: { clicks: number } }).appState.clicks
    ),
    1,
  );
  await ok("ai_input", { prompt: "the key input", value: "hello" });
  assert.equal(await page.inputValue("#key-input"), "hello");
  await ok("ai_keyboard_press", { prompt: "the key input", key_name: "Enter" });
  await ok("ai_scroll", { direction: "down", distance: 300 });
  assert.ok(
    await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY) > 0,
    "the page scrolled",
  );
  const query = await ok("ai_query", { prompt: "the click count, as {clicks: number}" });
  assert.deepEqual(JSON.parse(query.text), { clicks: 1 });
  await ok("ai_assert", { prompt: "the click button is there" });
  const failed = await call("ai_assert", { prompt: "an absent dialog is shown" });
  assert.equal(failed.isError, true);
  assert.match(failed.text, /^AssertionError \(ASSERTION_FAILED\): /);
  await ok("ai_wait_for", { prompt: "the click button is there", timeout_ms: 5000 });
  const act = await ok("ai_act", { prompt: "click the button" });
  assert.equal(act.text, "clicked");
  const shot = await ok("screenshot");
  assert.equal(shot.content[0].type, "image");
  assert.match(shot.content[0].mimeType!, /^image\/(jpeg|png)$/);
  assert.ok(shot.content[0].data!.length > 1000);
  const report = await ok("report");
  assert.match(report.text, /\.html$/);
  const closed = await ok("close");
  assert.match(closed.text, /closed\. Its report: .*\.html/);
  assert.ok(await parseReport(report.text) >= 9, "the report holds the calls");
});

test("android, ios and harmony: connect to the simulator's fronts and tap a note", async () => {
  target = "phone";
  for (
    const [tool, args] of [
      ["android_connect", { device_id: adbFront.serial, adb_port: adb.port }],
      ["ios_connect", { host: "127.0.0.1", port: wdaFront.port }],
      ["harmony_connect", { device_id: hdcFront.connectKey }],
    ] as const
  ) {
    await phone.stopApp(NOTES);
    await phone.launchApp(NOTES);
    const opened = await ok(tool, args);
    assert.match(opened.text, /is open\.$/, tool);
    const before = phone.inputs.length;
    await ok("ai_tap", { prompt: "Note 1" });
    // adb and hdc taps arrive as taps; WebDriverAgent's as W3C pointer actions (touches).
    assert.ok(
      phone.inputs.slice(before).some((i) =>
        i.type === "tap" || (i.type === "multiTouch" && i.points.length > 0)
      ),
      `${tool}: the tap reached the phone: ${JSON.stringify(phone.inputs.slice(before))}`,
    );
    await ok("close");
  }
});

test("desktop: connect to a display, tap the app's Save, and a headless desktop's screenshot", async () => {
  target = "desktop";
  // Save counts clicks (the app's Control+S counts saves).
  const clicks = (await desktop.state()).clicks;
  await ok("desktop_connect", { display: display.display });
  await ok("ai_tap", { prompt: "the Save button" });
  assert.equal((await desktop.state()).clicks, clicks + 1);
  await ok("close");
  await ok("desktop_connect", { headless: true });
  const shot = await ok("screenshot");
  assert.equal(shot.content[0].type, "image");
  await ok("close");
});

test("stdio: when the assistant closes its end of stdin, the server closes the browser it launched and exits", async () => {
  const server = spawn(Deno.execPath(), ["run", "--allow-all", BIN, "mcp"], {
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/root",
      ...Object.fromEntries(Object.entries(model.modelConfig()).map(([k, v]) => [k, String(v)])),
      SDK_CHROMIUM_PATH: await findChromium(),
      SDK_CHROMIUM_NO_SANDBOX: "1",
      SDK_RUN_DIR: Deno.env.get("SDK_RUN_DIR") ?? "sdk_run",
    },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  try {
    // MCP over stdio is one JSON-RPC message per line.
    let buffered = "";
    const answers: { id?: number; result?: unknown }[] = [];
    server.stdout!.on("data", (chunk: Uint8Array) => {
      buffered += new TextDecoder().decode(chunk);
      for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
        answers.push(JSON.parse(buffered.slice(0, at)));
        buffered = buffered.slice(at + 1);
      }
    });
    const send = (message: Record<string, unknown>) =>
      server.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
    const answer = async (id: number) => {
      const deadline = Date.now() + 60_000;
      while (!answers.some((a) => a.id === id)) {
        assert.ok(Date.now() < deadline, `no answer to request ${id}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return answers.find((a) => a.id === id)!;
    };
    send({
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "closing-client", version: "1" },
      },
    });
    await answer(1);
    send({ method: "notifications/initialized" });
    send({
      id: 2,
      method: "tools/call",
      params: { name: "web_open", arguments: { url: `${app.url}actions.html` } },
    });
    const opened = await answer(2) as { result?: { isError?: boolean } };
    assert.ok(opened.result && !opened.result.isError, JSON.stringify(opened));
    const browser = (await descendantsOf(server.pid!)).filter((p) => /chrom/i.test(p.name));
    assert.ok(browser.length > 0, "the server launched a Chromium");
    server.stdin!.end();
    const code = await Promise.race([
      exited,
      new Promise<"running">((r) => setTimeout(() => r("running"), 15_000)),
    ]);
    assert.equal(code, 0, "the server exited by itself, with 0");
    const left = [];
    for (const p of browser) if (await stillRunning(p)) left.push(`${p.name}(${p.pid})`);
    assert.deepEqual(left, [], "the server's Chromium ended with it");
  } finally {
    server.kill("SIGKILL");
  }
});

test("no tool result carries the model's API key", () => {
  assert.ok(results.length > 20);
  for (const r of results) assert.ok(!r.includes(KEY), r.slice(0, 200));
});

test("HTTP: 127.0.0.1 only, the bearer token required, a foreign Origin refused", async () => {
  const child = spawn(
    Deno.execPath(),
    ["run", "--allow-all", BIN, "mcp", "--http", "--port", "0"],
    {
      env: {
        ...Deno.env.toObject(),
        ...Object.fromEntries(Object.entries(model.modelConfig()).map(([k, v]) => [k, String(v)])),
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      let err = "";
      child.stderr!.on("data", (d) => {
        err += String(d);
        if (/Bearer token: \w+/.test(err)) resolve(err);
      });
      child.once("exit", (code) => reject(new Error(`sdk mcp --http exited ${code}: ${err}`)));
    });
    const url = /MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(printed)![1];
    const token = /Bearer token: (\w+)/.exec(printed)![1];
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    });
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: init,
      }).then(async (r) => ({ status: r.status, body: await r.text() }));
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: "Bearer wrong" })).status, 401);
    assert.equal(
      (await post({ authorization: `Bearer ${token}`, origin: "https://evil.example" })).status,
      403,
    );
    const http = new Client({ name: "mcp-http-test", version: "1.0.0" });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    assert.equal((await http.listTools() as { tools: unknown[] }).tools.length, 16);
    await http.close();
  } finally {
    child.kill("SIGTERM");
  }
});

test("the report path names a file of the run directory", async () => {
  const runDir = Deno.env.get("SDK_RUN_DIR") ?? "sdk_run";
  const last = results.map((r) => /(\/[^"]*\.html)/.exec(r)?.[1]).filter(Boolean).at(-1)!;
  assert.ok(last.includes("/report/") || last.includes(runDir), last);
  assert.ok((await readFile(last, "utf8")).includes("<html"), "a report file");
});
