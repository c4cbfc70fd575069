/// <reference lib="dom" />

/**
 * The playground end to end: `startPlayground` on the fixture app's actions page opens its own
 * headless Chromium with a DriverB agent and the test model; a second browser (the tests') opens
 * the printed URL and uses the page as a person would. What the calls did is read on the target
 * page itself (the playground's agent exposes it). Then the security checks, the host warning,
 * another platform's target, and the `sdk playground` command.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import http from "node:http";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Page, Response as PageResponse } from "playwright-core";
import { Agent, type StreamFrame } from "@sdk/core";
import { DriverBPageAgent, type Playground, startPlayground } from "@sdk/web";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { locateTarget } from "../helpers/app_model.ts";
import { measure, useFixtureApp } from "../helpers/browser.ts";
import { appState } from "./_setup.ts";

const fixture = useFixtureApp();
let model: TestModel;
let playground: Playground;
/** The page the playground drives (in its own browser). */
let target: Page;
/** The tests' page showing the playground. */
let ui: Page;
/** Set when a call whose target says "slow" reached the model, which waits for the release. */
let slowCallArrived = false;
let releaseSlowCall: () => void = () => {};
/** Every `/api/` answer the playground page received, as text. */
const apiAnswers: string[] = [];

before(async () => {
  model = await startTestModel({
    viewport: { width: 1280, height: 800 },
    script: {
      locate: async (call) => {
        if (/slow/.test(call.target)) {
          await new Promise<void>((r) => {
            releaseSlowCall = r;
            slowCallArrived = true;
          });
        }
        return await locateTarget(target, call.target);
      },
      extract: async () => ({ clicks: await appState(target, "clicks") }),
      assert: async (call) => ({
        pass: /clicked once/.test(call.assertion) && await appState(target, "clicks") === 1,
      }),
    },
  });
  playground = await startPlayground({
    url: `${fixture.url}actions.html`,
    port: 0,
    agentOptions: { modelConfig: model.modelConfig(), waitAfterAction: 50 },
  });
  target = (playground.agent as DriverBPageAgent).page;
  ui = await fixture.browser.newPage({ viewport: { width: 1400, height: 900 } });
  ui.on("response", async (r: PageResponse) => {
    if (new URL(r.url()).pathname.startsWith("/api/call") || r.url().includes("/api/info")) {
      apiAnswers.push(await r.text().catch(() => ""));
    }
  });
  await ui.goto(playground.url);
});

after(async () => {
  await ui?.close();
  await playground?.close();
  await model?.close();
});

const frames = () => ui.locator("#screen").getAttribute("data-frames").then(Number);

/** Chooses the API, types the prompt (and value), presses Run and waits for the result. */
async function call(api: string, prompt: string, value?: string): Promise<void> {
  await ui.selectOption("#api", api);
  await ui.fill("#prompt", prompt);
  if (value !== undefined) await ui.fill("#value", value);
  // The submit handler disables the button before its first await, so the click returns with
  // the button disabled, and it is enabled again once the result is shown.
  await ui.click("#run");
  await ui.waitForFunction(() => !(document.getElementById("run") as HTMLButtonElement).disabled);
}

test("the page shows the live screen, the target and the model in use", async () => {
  await ui.waitForFunction(() => Number(document.getElementById("screen")!.dataset.frames) > 0);
  const image = await ui.locator("#screen").evaluate((img: HTMLImageElement) => ({
    src: img.src.slice(0, 23),
    width: img.naturalWidth,
  }));
  assert.deepEqual(image, { src: "data:image/jpeg;base64,", width: 1280 });
  assert.match(await ui.locator("#target").textContent() ?? "", /actions\.html$/);
  const shown = await ui.locator("#model").innerText();
  assert.match(shown, /sdk-test-model/);
  assert.match(shown, new RegExp(model.baseURL.replace(/[.]/g, "\\.")));
  assert.match(shown, /family\s+default/);
});

test("aiTap from the page taps the target; the next frames show it; result, duration, report", async () => {
  const framesBefore = await frames();
  await call("aiTap", "the Click me button");
  assert.equal(await ui.locator("#result-status").textContent(), "passed");
  assert.equal(await appState(target, "clicks"), 1);
  assert.equal(await target.locator("#click-count").textContent(), "1");
  // The screencast sends a frame per repaint: the tap's repaint arrives as a new frame.
  await ui.waitForFunction(
    (n) => Number(document.getElementById("screen")!.dataset.frames) > n,
    framesBefore,
  );
  assert.match(await ui.locator("#duration").textContent() ?? "", /^\d+\.\d\d s$/);
  assert.ok(await ui.locator("#result-value").isHidden(), "aiTap returns nothing");

  const href = await ui.locator("#report-link").getAttribute("href");
  assert.match(href ?? "", /^\/report\/[0-9a-f]{64}\/web-page-[^/]+\.html#.+$/);
  const report = await fetch(new URL(href!, playground.url));
  assert.equal(report.status, 200);
  assert.equal(report.headers.get("content-type"), "text/html; charset=utf-8");
  // The report's scripts run sandboxed, in an origin of their own: they cannot call the API.
  assert.match(report.headers.get("content-security-policy") ?? "", /^sandbox allow-scripts/);
  assert.match(await report.text(), /aiTap/);
  // The viewer runs in its sandbox and shows the call.
  const viewer = await fixture.browser.newPage();
  try {
    await viewer.goto(new URL(href!, playground.url).href);
    await viewer.waitForFunction(() => document.body.innerText.includes("the Click me button"));
  } finally {
    await viewer.close();
  }
});

test("aiLocate draws its box over the element on the screen image", async () => {
  await call("aiLocate", "the Click me button");
  assert.equal(await ui.locator("#result-status").textContent(), "passed");
  await ui.locator("#locate-box").waitFor({ state: "visible" });
  const button = await measure(target, "#click-button");
  const image = (await ui.locator("#screen").boundingBox())!;
  const box = (await ui.locator("#locate-box").boundingBox())!;
  const scale = image.width / 1280;
  const expected = {
    x: image.x + button.left * scale,
    y: image.y + button.top * scale,
    width: button.width * scale,
    height: button.height * scale,
  };
  for (const k of ["x", "y", "width", "height"] as const) {
    assert.ok(Math.abs(box[k] - expected[k]) <= 2, `${k}: ${box[k]} vs ${expected[k]}`);
  }
  const value = JSON.parse(await ui.locator("#result-value").textContent() ?? "");
  assert.deepEqual(Object.keys(value).sort(), ["center", "dpr", "rect"]);
});

test("aiQuery shows its JSON; aiAssert passes and fails with the message", async () => {
  await call("aiQuery", "the number of clicks, as {clicks: number}");
  assert.deepEqual(JSON.parse(await ui.locator("#result-value").textContent() ?? ""), {
    clicks: 1,
  });
  assert.ok(await ui.locator("#locate-box").isHidden(), "the locate box goes with a new result");

  await call("aiAssert", "the button was clicked once");
  assert.equal(await ui.locator("#result-status").textContent(), "passed");
  await call("aiAssert", "the button was never clicked");
  assert.equal(await ui.locator("#result-status").textContent(), "failed");
  assert.match(await ui.locator("#result-error").textContent() ?? "", /^AssertionError: /);
});

test("aiInput asks for the value and types it into the target", async () => {
  await ui.selectOption("#api", "aiTap");
  assert.ok(await ui.locator("#value").isHidden());
  await call("aiInput", "the key input", "hello playground");
  assert.equal(await ui.locator("#result-status").textContent(), "passed");
  assert.equal(await target.inputValue("#key-input"), "hello playground");
});

test("the API key is in neither the page nor any API answer", async () => {
  const key = model.apiKey;
  assert.ok(key.length > 8);
  assert.ok(!(await ui.content()).includes(key));
  assert.ok(!(await (await fetch(playground.url)).text()).includes(key));
  assert.ok(apiAnswers.length >= 6, `answers seen: ${apiAnswers.length}`);
  for (const answer of apiAnswers) assert.ok(!answer.includes(key), answer);
});

test("another origin, a missing or wrong token, a foreign Host: 403, and nothing runs", async () => {
  const token = new URL(playground.url).searchParams.get("token")!;
  const origin = new URL(playground.url).origin;
  const clicks = await appState(target, "clicks");
  const post = (headers: Record<string, string>) =>
    fetch(`${origin}/api/call`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ api: "aiTap", prompt: "the Click me button" }),
    });
  const refused = async (response: Promise<Response>, why: RegExp) => {
    const r = await response;
    assert.equal(r.status, 403);
    assert.match((await r.json()).error, why);
  };
  await refused(post({ "x-playground-token": token, origin: "http://evil.example" }), /origin/);
  await refused(post({}), /token is missing/);
  await refused(post({ "x-playground-token": "0".repeat(64) }), /token is wrong/);
  await refused(fetch(`${origin}/`), /token is missing/);
  await refused(fetch(`${origin}/api/screen?token=${"a".repeat(64)}`), /token is wrong/);
  await refused(fetch(`${origin}/report/${"a".repeat(64)}/x.html`), /token is wrong/);
  // DNS rebinding: a foreign name resolving to 127.0.0.1 (fetch cannot set Host; node:http can).
  const rebound = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
    const req = http.get(`${origin}/api/info`, {
      headers: { "x-playground-token": token, host: `evil.example:${new URL(origin).port}` },
    }, (res) => {
      let body = "";
      res.on("data", (d) => body += d);
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", reject);
  });
  assert.equal(rebound.status, 403);
  assert.match(rebound.body, /unknown Host header/);
  // A page of another origin (the fixture app's server) calling with the token: refused too.
  const evil = await fixture.browser.newPage();
  try {
    await evil.goto(`${fixture.url}actions.html`);
    const status = await evil.evaluate(async ([url, t]) => {
      try {
        const r = await fetch(url, {
          method: "POST",
          headers: { "x-playground-token": t, "content-type": "application/json" },
          body: JSON.stringify({ api: "aiTap", prompt: "the Click me button" }),
        });
        return r.status;
      } catch {
        return "blocked";
      }
    }, [`${origin}/api/call`, token]);
    // The browser's preflight (a custom header) gets the 403: the call is never sent.
    assert.equal(status, "blocked");
  } finally {
    await evil.close();
  }
  assert.equal(await appState(target, "clicks"), clicks);
});

test("a second call while one runs gets 409", async () => {
  const token = new URL(playground.url).searchParams.get("token")!;
  const send = (prompt: string) =>
    fetch(new URL("/api/call", playground.url), {
      method: "POST",
      headers: { "x-playground-token": token },
      body: JSON.stringify({ api: "aiLocate", prompt }),
    });
  const slow = send("the Click me button, slow");
  while (!slowCallArrived) await new Promise((r) => setTimeout(r, 20));
  const second = await send("the Click me button");
  assert.equal(second.status, 409);
  assert.match((await second.json()).error, /another call is running \(aiLocate/);
  releaseSlowCall();
  assert.equal((await (await slow).json()).ok, true);
});

test("SDK_PLAYGROUND_HOST=0.0.0.0 warns; another platform's device plugs in; close() is idempotent", async () => {
  const warnings: string[] = [];
  // A device without a frame stream, as another platform's may be: polled with screenshots.
  const pixel = "c2NyZWVu"; // handed on as it is: the page only puts it in an image URL
  const device = {
    interfaceType: "fake-device",
    screenshotBase64: () => Promise.resolve(`data:image/jpeg;base64,${pixel}`),
    size: () => Promise.resolve({ width: 1, height: 1, dpr: 1 }),
    actionSpace: () => [],
  };
  process.env.SDK_PLAYGROUND_HOST = "0.0.0.0";
  let other!: Playground;
  try {
    other = await startPlayground({
      target: { createAgent: (options) => new Agent(device, options) },
      port: 0,
      onWarning: (m) => warnings.push(m),
    });
  } finally {
    delete process.env.SDK_PLAYGROUND_HOST;
  }
  assert.equal(other.host, "0.0.0.0");
  assert.match(warnings.join("\n"), /all network interfaces \(0\.0\.0\.0\).*trusted network/s);
  assert.match(other.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  const token = new URL(other.url).searchParams.get("token")!;
  const info = await (await fetch(new URL("/api/info", other.url), {
    headers: { "x-playground-token": token },
  })).json();
  assert.equal(info.target, "fake-device");
  assert.match(info.model.error, /SDK_MODEL_NAME/);
  const screen = await fetch(new URL(`/api/screen?token=${token}`, other.url));
  const reader = screen.body!.getReader();
  let text = "";
  while (!/data: (.*)\n\n/.test(text)) {
    text += new TextDecoder().decode((await reader.read()).value);
  }
  const frame = JSON.parse(/data: (.*)\n\n/.exec(text)![1]) as StreamFrame;
  assert.deepEqual([frame.format, frame.data], ["jpeg", pixel]);
  await reader.cancel();
  await Promise.all([other.close(), other.close()]);
  await other.close();
  await assert.rejects(fetch(other.url));
});

const BIN = fileURLToPath(new URL("../../cli/bin.ts", import.meta.url));

/**
 * Runs `sdk <args>` and collects its output until it exits; `onStdout` sees the output so far.
 * (Deno.Command, not node:child_process: the latter reports a child that handled SIGINT and
 * exited 0 as killed by the signal.)
 */
async function sdk(
  args: string[],
  onStdout?: (text: string, child: Deno.ChildProcess) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", BIN, ...args],
    env: model.modelConfig(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  const reading = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      stdout += chunk;
      onStdout?.(stdout, child);
    }
  })();
  const stderr = new Response(child.stderr).text();
  const { code } = await child.status;
  await reading;
  return { code, stdout, stderr: await stderr };
}

test("sdk playground --help, a usage error, and a real start stopped by Ctrl+C", async () => {
  const help = await sdk(["playground", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage:\n {2}sdk playground <url> \[flags\]/);
  assert.match(help.stdout, /SDK_PLAYGROUND_HOST/);

  const usage = await sdk(["playground"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /sdk: "sdk playground" takes one page address/);

  let opened: Promise<number> | undefined;
  const run = await sdk(
    ["playground", `${fixture.url}actions.html`, "--port", "0"],
    (out, child) => {
      const url = /Open (http:\/\/\S+)/.exec(out)?.[1];
      if (url && !opened) {
        opened = fetch(url).then(async (r) => {
          await r.text();
          child.kill("SIGINT");
          return r.status;
        });
      }
    },
  );
  assert.equal(await opened, 200);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Playground on http:\/\/127\.0\.0\.1:\d+\/actions\.html/);
});
