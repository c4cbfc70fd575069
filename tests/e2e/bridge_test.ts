/// <reference lib="dom" />
/**
 * The extension bridge end to end: headless Chromium (`--headless=new`) with the built SDK Bridge
 * extension loaded, its service worker connecting to `AgentOverBrowserBridge`'s server in this
 * process, the agent driving the fixture app through `chrome.debugger` with the test model.
 *
 * Playwright only launches the browser, configures the extension (port and pairing token in
 * `chrome.storage`, through its service worker) and reads the page back; every action goes
 * through the bridge.
 *
 * @module
 */

import { afterEach, before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { WebSocket } from "ws";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import {
  AgentOverBrowserBridge,
  type AgentOverBrowserBridgeOptions,
  BRIDGE_TOKEN_ENV,
} from "@sdk/web";
import { ConnectionError, type ModelClient, ToolError } from "@sdk/core";
import { startTestModel, type TestModel, type TestModelScript } from "@sdk/core/testing";
import { measure } from "../helpers/browser.ts";
import {
  launchWithBridgeExtension,
  openFixture as openPage,
  startBridgeAgent,
} from "../helpers/bridge_extension.ts";
import { freePort } from "../helpers/free_port.ts";
import {
  END_WAYS,
  type EndBy,
  type EndedRun,
  parseReport,
  runAndEnd,
} from "../helpers/lifecycle.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";

const TOKEN = "test-pairing-token-0123456789";

let tmp: string;
let context: BrowserContext;
let worker: Worker;
let app: StaticServer;
let port: number;
const models: TestModel[] = [];
const agents: AgentOverBrowserBridge[] = [];

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-"));
  app = await serveStatic(FIXTURE_APP_DIR);
  port = await freePort();
  ({ context, worker } = await launchWithBridgeExtension(tmp, { port, token: TOKEN }));
  assert.match(worker.url(), /^chrome-extension:\/\/[a-p]{32}\/background\.js$/);
});

// A test that fails midway must not leave its agent listening on the port the next test uses.
afterEach(async () => {
  await Promise.allSettled(agents.splice(0).map((a) => a.destroy()));
});

after(async () => {
  await Promise.allSettled(agents.map((a) => a.destroy()));
  await Promise.allSettled(models.map((m) => m.close()));
  await context?.close();
  await app?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

// The extension's chrome.* API as the service worker sees it (only what the tests use).
declare const chrome: {
  storage: {
    local: {
      get(key: string): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
    };
  };
};

function bridge(
  page: () => Page,
  script: TestModelScript,
  options: AgentOverBrowserBridgeOptions = {},
): Promise<AgentOverBrowserBridge> {
  return startBridgeAgent({ port, token: TOKEN, models, agents }, page, script, options);
}

const openFixture = (file: string): Promise<Page> => openPage(context, app.url, file);

const state = <T>(page: Page, key: string) =>
  page.evaluate(
    (k) => (window as unknown as { appState: Record<string, unknown> }).appState[k],
    key,
  ) as Promise<T>;

test("connectCurrentTab drives the active tab: aiTap and aiInput land", async () => {
  const page = await openFixture("actions.html");
  let target = "#click-button";
  const agent = await bridge(() => page, { locate: () => measure(page, target) });
  await agent.connectCurrentTab();
  await agent.aiTap("the Click me button");
  assert.equal(await state<number>(page, "clicks"), 1);
  target = "#key-input";
  await agent.aiInput("the key input", { value: "héllo bridge" });
  assert.equal(await page.inputValue("#key-input"), "héllo bridge");
  await agent.aiInput("the key input", { value: "bulk 😀", inputStrategy: "bulk" });
  assert.equal(await page.inputValue("#key-input"), "bulk 😀");
  assert.equal(await agent.evaluateJavaScript("location.pathname"), "/actions.html");
  await agent.destroy();
  assert.equal(page.isClosed(), false, "destroy never closes a tab the bridge did not open");
  await page.close();
});

test("the popup shows the connection, the tab being driven and the pairing token", async () => {
  const page = await openFixture("input.html");
  const agent = await bridge(() => page, {});
  await agent.connectCurrentTab();
  const popup = await context.newPage();
  await popup.goto(new URL("popup.html", worker.url()).href);
  await popup.locator("#state.connected").waitFor();
  assert.match(await popup.locator("#state").innerText(), new RegExp(`connected .*:${port}`));
  assert.match(await popup.locator("#tab").innerText(), /input\.html/);
  assert.equal(await popup.locator("#token").innerText(), TOKEN);
  assert.equal(await popup.locator("#port").inputValue(), String(port));
  await agent.destroy();
  await popup.locator("#tab", { hasText: "none" }).waitFor();
  await popup.close();
  await page.close();
});

test("connectNewTabWithUrl opens the URL in a new tab; destroy closes it when asked", async () => {
  const url = new URL("actions.html", app.url).href;
  const tab: { page?: Page } = {};
  const opened = context.waitForEvent("page");
  const agent = await bridge(
    () => tab.page!,
    { locate: () => measure(tab.page!, "#click-button") },
    {
      closeNewTabsAfterDisconnect: true,
    },
  );
  await agent.connectNewTabWithUrl(url);
  const page = tab.page = await opened;
  assert.equal(page.url(), url);
  await agent.aiTap("the Click me button");
  assert.equal(await state<number>(page, "clicks"), 1);
  const closed = page.waitForEvent("close");
  await agent.destroy();
  await closed;
  assert.equal(page.isClosed(), true);
});

test("connect options are checked before anything connects: forceSameTabNavigation must be a boolean", async () => {
  const agent = await bridge(() => context.pages()[0], {});
  await assert.rejects(
    // deno-lint-ignore no-explicit-any
    agent.connectCurrentTab({ forceSameTabNavigation: "yes" as any }),
    /connectCurrentTab: 'forceSameTabNavigation' must be a boolean/,
  );
  await assert.rejects(
    // deno-lint-ignore no-explicit-any
    agent.connectNewTabWithUrl(app.url, { forceSameTabNavigation: 1 as any }),
    /connectNewTabWithUrl: 'forceSameTabNavigation' must be a boolean/,
  );
});

test("destroy(false) keeps the new tab even with closeNewTabsAfterDisconnect", async () => {
  const opened = context.waitForEvent("page");
  const agent = await bridge(() => page, {}, { closeNewTabsAfterDisconnect: true });
  await agent.connectNewTabWithUrl(new URL("input.html", app.url).href);
  const page = await opened;
  await agent.destroy(false);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(page.isClosed(), false);
  await page.close();
});

test("aiTap with fileChooserAccept sets the file the tap's chooser asks for", async () => {
  const file = path.join(tmp, "one.txt");
  await fs.writeFile(file, "one");
  const page = await openFixture("upload.html");
  const agent = await bridge(() => page, { locate: () => measure(page, "#pick-button") });
  await agent.connectCurrentTab();
  await agent.aiTap("the Upload a document button", { fileChooserAccept: file });
  assert.deepEqual(await state(page, "hidden"), [{ name: "one.txt", size: 3 }]);
  await agent.destroy();
  await page.close();
});

test("aiAct uploads a model-planned file inside fileChooserAllowedDir; outside it is rejected", async () => {
  const uploads = path.join(tmp, "uploads");
  await fs.mkdir(uploads, { recursive: true });
  await fs.writeFile(path.join(uploads, "inside.txt"), "inside!");
  await fs.writeFile(path.join(tmp, "secret.txt"), "secret");
  const page = await openFixture("upload.html");
  let files: unknown = ["inside.txt"];
  const agent = await bridge(() => page, {
    locate: () => measure(page, "#pick-button"),
    plan: async ({ history }) => {
      if (history.length) return { log: "Done", finished: true };
      return {
        log: "Tap the Upload a document button",
        action: {
          type: "Tap",
          param: {
            locate: {
              prompt: "the Upload a document button",
              box: await measure(page, "#pick-button"),
            },
            files,
          },
        },
      };
    },
  });
  await agent.connectCurrentTab();
  await agent.aiAct("upload inside.txt with the Upload a document button", {
    fileChooserAllowedDir: uploads,
  });
  assert.deepEqual(await state(page, "hidden"), [{ name: "inside.txt", size: 7 }]);
  assert.equal(await state(page, "pickClicks"), 1);
  for (const outside of ["../secret.txt", path.join(tmp, "secret.txt")]) {
    files = [outside];
    await assert.rejects(
      agent.aiAct("upload the secret", { fileChooserAllowedDir: uploads }),
      /is outside fileChooserAllowedDir/,
    );
  }
  // The rejected plans neither tapped nor set a file.
  assert.equal(await state(page, "pickClicks"), 1);
  assert.deepEqual(await state(page, "hidden"), [{ name: "inside.txt", size: 7 }]);
  assert.deepEqual(await state(page, "changes"), { single: 0, multi: 0, hidden: 1 });
  await agent.destroy();
  await page.close();
});

test("extraction: aiString and aiBoolean send the tab's screenshot and its element list", async () => {
  const page = await openFixture("actions.html");
  const seen: { image: { width: number; height: number } | null; dom?: string }[] = [];
  const agent = await bridge(() => page, {
    extract: (call) => {
      seen.push({ image: call.image, dom: call.dom });
      return call.returnType === "boolean" ? true : "Click me";
    },
  });
  await agent.connectCurrentTab();
  assert.equal(await agent.aiString("the label of the first button"), "Click me");
  assert.equal(await agent.aiBoolean("is there a hover card", { domIncluded: true }), true);
  const viewport = await page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
  assert.equal(seen[0].image?.width, viewport.width);
  assert.equal(seen[0].image?.height, viewport.height);
  assert.match(seen[1].dom ?? "", /Click me/);
  assert.doesNotMatch(seen[1].dom ?? "", /sdk-bridge|pointer/i, "the overlay is not in the list");
  await agent.destroy();
  await page.close();
});

/** Pixels of the water-flow border's blues in the 6-pixel band along the edges of a PNG. */
function borderBluePixels(png: Uint8Array): number {
  const image = PNG.sync.read(Buffer.from(png));
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (x >= 6 && x < image.width - 6 && y >= 6 && y < image.height - 6) continue;
      const i = (y * image.width + x) * 4;
      const [r, g, b] = [image.data[i], image.data[i + 1], image.data[i + 2]];
      if (b > 180 && r < 130 && b - r > 80 && b - g > 20) count++;
    }
  }
  return count;
}

const overlayState = (page: Page) =>
  page.evaluate(() => {
    const host = document.querySelector("sdk-bridge-overlay") as HTMLElement | null;
    if (!host) return null;
    const style = getComputedStyle(host);
    const pointer = host.shadowRoot!.querySelector(".pointer")!.getBoundingClientRect();
    return {
      position: style.position,
      pointerEvents: style.pointerEvents,
      visibility: style.visibility,
      x: Number(host.dataset.x),
      y: Number(host.dataset.y),
      pointer: { x: pointer.left + pointer.width / 2, y: pointer.top + pointer.height / 2 },
    };
  });

test("the water-flow overlay: shown while connected, pointer at the tap, not in the model's screenshot, gone after destroy", async () => {
  const page = await openFixture("actions.html");
  const box = await measure(page, "#click-button");
  const shots: Uint8Array[] = [];
  const agent = await bridge(() => page, { locate: () => box, extract: () => "Click me" }, {
    screenshotFormat: "png",
    // Keeps the screenshot of each request the model gets; passes everything through.
    createModelClient: (client: ModelClient) =>
      Promise.resolve({
        chat: {
          completions: {
            create(body: Record<string, unknown>, options?: { signal?: AbortSignal }) {
              const uri = JSON.stringify(body).match(/data:image\/png;base64,[A-Za-z0-9+/=]+/)?.[0];
              if (uri) {
                shots.push(
                  Uint8Array.from(atob(uri.slice(uri.indexOf(",") + 1)), (c) => c.charCodeAt(0)),
                );
              }
              return client.chat.completions.create(body, options);
            },
          },
        },
      }),
  });
  await agent.connectCurrentTab();
  try {
    await overlayChecks();
  } finally {
    await agent.destroy();
  }
  assert.equal(await overlayState(page), null, "destroy removes the overlay");
  await page.reload();
  assert.equal(await overlayState(page), null, "and no later document gets it");
  assert.equal(borderBluePixels(await page.screenshot()), 0);
  await page.close();

  async function overlayChecks() {
    const shown = await overlayState(page);
    assert.equal(shown?.position, "fixed");
    assert.equal(shown?.pointerEvents, "none");
    // The overlay is drawn: the tab's own pixels (Playwright's capture, not the agent's) have the
    // border's blues along the edges.
    assert.ok(borderBluePixels(await page.screenshot()) > 1000, "the border is drawn");

    await agent.aiTap("the Click me button");
    assert.equal(await state<number>(page, "clicks"), 1, "the overlay lets the tap through");
    const center = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    const moved = await overlayState(page);
    assert.ok(Math.abs(moved!.x - center.x) <= 1 && Math.abs(moved!.y - center.y) <= 1);
    // The dot itself ends its transition on the tap point.
    await page.waitForFunction(([x, y]) => {
      const host = document.querySelector("sdk-bridge-overlay") as HTMLElement;
      const r = host.shadowRoot!.querySelector(".pointer")!.getBoundingClientRect();
      return Math.abs(r.left + r.width / 2 - x) <= 1 && Math.abs(r.top + r.height / 2 - y) <= 1;
    }, [center.x, center.y]);

    assert.equal(await agent.aiString("the label of the first button"), "Click me");
    assert.equal(shots.length, 2, "the tap's screenshot and the extraction's");
    for (const shot of shots) {
      assert.equal(borderBluePixels(shot), 0, "the model's screenshots have no overlay pixels");
    }
    // Shown again after the capture.
    await page.waitForFunction(() =>
      getComputedStyle(document.querySelector("sdk-bridge-overlay")!).visibility === "visible"
    );

    // It survives a navigation (a script for every new document).
    await page.goto(new URL("input.html", app.url).href);
    await page.waitForFunction(() => document.querySelector("sdk-bridge-overlay") !== null);
  }
});

test("enableWaterFlowAnimation: false draws no overlay", async () => {
  const page = await openFixture("actions.html");
  const agent = await bridge(() => page, { locate: () => measure(page, "#click-button") }, {
    enableWaterFlowAnimation: false,
  });
  await agent.connectCurrentTab();
  await agent.aiTap("the Click me button");
  assert.equal(await state<number>(page, "clicks"), 1);
  assert.equal(await overlayState(page), null);
  await agent.destroy();
  await page.close();
});

test("closing the driven tab ends the connection: the next call says so, destroy still works", async () => {
  const page = await openFixture("input.html");
  const agent = await bridge(() => page, {});
  try {
    await agent.connectCurrentTab();
    await page.close();
    await assert.rejects(
      (async () => {
        // The detach notice may trail the close by a moment.
        for (let i = 0; i < 50; i++) {
          await agent.evaluateJavaScript("1");
          await new Promise((r) => setTimeout(r, 20));
        }
      })(),
      (error: Error) => {
        assert.match(error.message, /the tab is no longer driven|no tab is connected/);
        // Whichever way the extension heard of it, the tab is lost to the agent.
        assert.ok(
          error instanceof ConnectionError || error instanceof ToolError,
          `${error.name}: ${error.message}`,
        );
        if (error instanceof ConnectionError) assert.equal(error.code, "CONNECTION_LOST");
        return true;
      },
    );
  } finally {
    await agent.destroy();
  }
});

test("no extension within connectTimeout: the error says how to install and pair it", async () => {
  const agent = new AgentOverBrowserBridge({
    port: await freePort(),
    token: TOKEN,
    connectTimeout: 300,
  });
  agents.push(agent);
  await assert.rejects(agent.connectCurrentTab(), (error: Error) => {
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_TIMEOUT");
    assert.equal(error.endpoint, `ws://127.0.0.1:${agent.port}`);
    assert.match(error.message, /no SDK Bridge extension connected .* within 300 ms/);
    assert.match(error.message, /deno task build:extension/);
    assert.match(error.message, /Load unpacked/);
    return true;
  });
  await agent.destroy();
});

test("an extension with another pairing token refuses the agent at once, naming SDK_BRIDGE_TOKEN", {
  timeout: 60_000,
}, async () => {
  // A long connectTimeout, on a port of its own: the call must not wait for the timeout.
  const ownPort = await freePort();
  const agent = new AgentOverBrowserBridge({
    port: ownPort,
    token: "not-the-extension-token",
    connectTimeout: 30_000,
  });
  agents.push(agent);
  const outcome = agent.connectCurrentTab().then(
    () => assert.fail("connectCurrentTab resolved with the wrong token"),
    (e: unknown) => ({ error: e as Error, at: performance.now() }),
  );
  const listening = performance.now() + 10_000;
  while (agent.port === undefined && performance.now() < listening) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(agent.port, ownPort, "the bridge listens");
  // A new port makes the extension connect to it at once (as the popup's "Save & reconnect"
  // does), with its own token, which this agent does not have.
  const sent = performance.now();
  await worker.evaluate((p) => chrome.storage.local.set({ port: p }), ownPort);
  try {
    const { error, at } = await outcome;
    assert.ok(error instanceof ConnectionError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "CONNECTION_REFUSED");
    assert.equal(error.kind, "refused");
    assert.equal(error.endpoint, `ws://127.0.0.1:${ownPort}`);
    assert.match(error.message, /refused this agent: the extension's pairing token does not match/);
    assert.match(error.message, new RegExp(BRIDGE_TOKEN_ENV));
    assert.match(error.message, /the 'token' option/);
    assert.match(error.message, /popup/);
    assert.doesNotMatch(error.message, new RegExp(TOKEN));
    assert.doesNotMatch(error.message, /not-the-extension-token/);
    assert.ok(at - sent < 1000, `rejected ${Math.round(at - sent)} ms after the extension came`);
    // The extension's popup says it refused, and why.
    const popup = await context.newPage();
    await popup.goto(new URL("popup.html", worker.url()).href);
    await popup.locator("#state.refused", { hasText: "did not prove" }).waitFor();
    await popup.close();
  } finally {
    await agent.destroy();
    await worker.evaluate((p) => chrome.storage.local.set({ port: p }), port);
  }
  assert.doesNotMatch(String(agent), new RegExp(TOKEN));
});

test("remote access needs a token; non-extension origins and a second extension are rejected", async () => {
  assert.throws(
    () => new AgentOverBrowserBridge({ allowRemoteAccess: true, token: undefined }),
    /pairing token/,
  );
  assert.throws(() => new AgentOverBrowserBridge({ host: "0.0.0.0" }), /pairing token/);

  const page = await openFixture("input.html");
  const agent = await bridge(() => page, {});
  await agent.connectCurrentTab();
  const url = `ws://127.0.0.1:${port}`;
  // A web page (or any non-extension client) cannot even open the socket.
  const refused = await new Promise<string>((resolve) => {
    const ws = new WebSocket(url, { headers: { origin: "http://evil.example" } });
    ws.on(
      "unexpected-response",
      (_req: unknown, res: { statusCode: number }) => resolve(`http ${res.statusCode}`),
    );
    ws.on("open", () => resolve("open"));
    ws.on("error", (e: Error) => resolve(`error ${e.message}`));
  });
  assert.equal(refused, "http 401");
  // A second extension with the right token is closed: one extension per bridge.
  const closed = await new Promise<number>((resolve) => {
    const ws = new WebSocket(url, { headers: { origin: `chrome-extension://${"a".repeat(32)}` } });
    ws.on("open", () => ws.send(JSON.stringify({ type: "hello", token: TOKEN })));
    ws.on("close", (code: number) => resolve(code));
  });
  assert.equal(closed, 4002);
  // The first connection still works.
  assert.equal(await agent.evaluateJavaScript("1 + 1"), 2);
  await agent.destroy();
  await page.close();
});

const LIFECYCLE_CHILD = fileURLToPath(new URL("../fixtures/lifecycle/bridge.ts", import.meta.url));

/** The child's exit for each way of ending it (as tests/e2e/lifecycle_web_test.ts checks). */
function endedAsTold(run: EndedRun, way: EndBy): boolean {
  switch (way) {
    case "end-without-destroy":
      return run.code === 0;
    case "sigint":
      return run.code === 130 || run.signal === "SIGINT";
    case "sigterm":
      return run.code === 143 || run.signal === "SIGTERM";
    case "deno-exit":
      return run.code === 3;
    case "process-exit":
      return run.code === 4;
    case "uncaught-error":
      return run.code === 1;
  }
}

for (const way of END_WAYS) {
  test(
    `a script driving a tab through the bridge, ended by ${way}, exits as told with nothing left behind`,
    {
      timeout: 90_000,
    },
    async () => {
      const model = await startTestModel({
        script: { locate: () => ({ left: 10, top: 10, width: 100, height: 40 }) },
      });
      models.push(model);
      const childPort = await freePort();
      const tabsBefore = new Set(context.pages());
      // The extension goes to the child's port, where it retries until the child listens.
      await worker.evaluate((p) => chrome.storage.local.set({ port: p }), childPort);
      try {
        const run = await runAndEnd({
          script: LIFECYCLE_CHILD,
          env: {
            ...model.modelConfig(),
            SDK_RUN_DIR: join(tmp, "lifecycle-run"),
            SDK_TEST_BRIDGE_PORT: String(childPort),
            SDK_TEST_BRIDGE_TOKEN: TOKEN,
            SDK_TEST_PAGE_URL: `${app.url}actions.html`,
          },
          endBy: way,
          afterReadyMs: 300,
          timeoutMs: 60_000,
        });
        assert.match(run.output, /^ready$/m, `the script acted:\n${run.output}`);
        assert.ok(endedAsTold(run, way), `code ${run.code}, signal ${run.signal}:\n${run.output}`);
        // The bridge starts no process: nothing may be left at all.
        assert.deepEqual(run.survivors, []);
        if (run.reportFile) assert.ok(await parseReport(run.reportFile) >= 1);
      } finally {
        await worker.evaluate((p) => chrome.storage.local.set({ port: p }), port);
        for (const tab of context.pages()) if (!tabsBefore.has(tab)) await tab.close();
      }
    },
  );
}

test("a script whose connect call failed, its server still listening, exits by itself", {
  timeout: 60_000,
}, async () => {
  const run = await runAndEnd({
    script: LIFECYCLE_CHILD,
    env: {
      SDK_TEST_BRIDGE_UNCONNECTED: "1",
      SDK_TEST_BRIDGE_PORT: String(await freePort()),
      SDK_TEST_BRIDGE_TOKEN: TOKEN,
    },
    endBy: "end-without-destroy",
    afterReadyMs: 0,
    timeoutMs: 30_000,
  });
  assert.match(run.output, /connect failed: ConnectionError/);
  assert.equal(run.code, 0, run.output);
});
