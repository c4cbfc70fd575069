/// <reference lib="dom" />

/**
 * Screenshot encoding end to end (`screenshotFormat`, `screenshotQuality`): what format reaches
 * the model over HTTP, that the report stores the very same bytes, what the device is asked
 * for, and the file extensions of `html-and-external-assets`. Both drivers.
 */

import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ModelClient, ScreenshotEncoding } from "@sdk/core";
import { parseReportHtml } from "../../core/report/_format.ts";
import { locateTarget } from "../helpers/app_model.ts";
import { driverTest, type E2e } from "./_drivers.ts";

/**
 * A `createModelClient` that keeps the image URLs of every request the agent sends, as the
 * model's HTTP server would receive them.
 */
function imageSpy(): {
  urls: string[];
  createModelClient: (client: ModelClient) => Promise<ModelClient>;
} {
  const urls: string[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === "object") {
      const url = (value as { image_url?: { url?: unknown } }).image_url?.url;
      if (typeof url === "string") urls.push(url);
      else Object.values(value).forEach(collect);
    }
  };
  return {
    urls,
    createModelClient: (client) =>
      Promise.resolve({
        chat: {
          completions: {
            create(body: Record<string, unknown>, options?: { signal?: AbortSignal }) {
              collect(body.messages);
              return client.chat.completions.create(body, options);
            },
          },
        },
      } as ModelClient),
  };
}

/** Bytes of a base64 data URI. */
function bytesOf(uri: string): Uint8Array {
  return Uint8Array.from(atob(uri.slice(uri.indexOf(",") + 1)), (c) => c.charCodeAt(0));
}

/** An agent tapping on actions.html whose model locates by the page, with a request spy. */
async function tapAgent(
  env: E2e,
  options: Record<string, unknown> = {},
  open: { dpr?: number } = {},
) {
  const page = await env.open("actions.html", open);
  const spy = imageSpy();
  const { agent, model } = await env.agent(page, {
    locate: (call) => locateTarget(page.appView(), call.target),
  }, { createModelClient: spy.createModelClient, ...options });
  return { page, agent, model, spy };
}

/** The screenshots of a single-html report, by id. */
async function reportScreenshots(file: string): Promise<string[]> {
  return [...parseReportHtml(await readFile(file, "utf8")).screenshots.values()];
}

driverTest(
  "by default the model gets a JPEG screenshot and the report stores the very same bytes",
  async (env) => {
    const { page, agent, model, spy } = await tapAgent(env);
    await agent.aiTap("the Click me button");
    assert.equal(await page.state("clicks"), 1);

    const seen = model.calls[0].call!.image!;
    assert.equal(seen.format, "jpeg");
    assert.deepEqual([seen.width, seen.height], [1280, 800]);
    assert.equal(spy.urls.length, 1);
    assert.match(spy.urls[0], /^data:image\/jpeg;base64,\/9j\//);
    assert.equal(bytesOf(spy.urls[0]).length, seen.bytes);
    assert.ok(
      (await reportScreenshots(agent.reportFile!)).includes(spy.urls[0]),
      "the report holds the exact data URI the model received",
    );
  },
);

driverTest(
  "screenshotFormat 'png' sends and stores lossless PNG",
  async (env) => {
    const { agent, model, spy } = await tapAgent(env, { screenshotFormat: "png" });
    await agent.aiTap("the Click me button");
    assert.equal(model.calls[0].call!.image!.format, "png");
    assert.match(spy.urls[0], /^data:image\/png;base64,iVBORw0KGgo/);
    assert.ok((await reportScreenshots(agent.reportFile!)).includes(spy.urls[0]));
  },
);

driverTest(
  "screenshotQuality sets the JPEG quality the browser encodes at",
  async (env) => {
    const bytes: number[] = [];
    for (const quality of [95, 20]) {
      const { agent, model } = await tapAgent(env, { screenshotQuality: quality });
      await agent.aiTap("the Click me button");
      assert.equal(model.calls[0].call!.image!.format, "jpeg");
      bytes.push(model.calls[0].call!.image!.bytes);
    }
    assert.ok(bytes[1] < bytes[0] * 0.7, `quality 20 must be much smaller than 95: ${bytes}`);
  },
);

driverTest(
  "with a shrink factor the device is asked for PNG and the model gets one JPEG of the shrunk size",
  async (env) => {
    const { page, agent, model } = await tapAgent(env, { screenshotShrinkFactor: 2 }, { dpr: 2 });
    const asked: (ScreenshotEncoding | undefined)[] = [];
    const capture = agent.interface.screenshotBase64.bind(agent.interface);
    agent.interface.screenshotBase64 = (encoding) => (asked.push(encoding), capture(encoding));
    await agent.aiTap("the Click me button");
    assert.equal(await page.state("clicks"), 1);
    assert.deepEqual(asked.map((e) => e?.format), ["png"]);
    const seen = model.calls[0].call!.image!;
    assert.deepEqual([seen.format, seen.width, seen.height], ["jpeg", 1280, 800]);
  },
);

driverTest(
  "a device that returns PNG whatever it is asked still sends the agent's JPEG, encoded once",
  async (env) => {
    const { page, agent, model, spy } = await tapAgent(env);
    const capture = agent.interface.screenshotBase64.bind(agent.interface);
    agent.interface.screenshotBase64 = () => capture({ format: "png", quality: 100 });
    await agent.aiTap("the Click me button");
    assert.equal(await page.state("clicks"), 1);
    assert.equal(model.calls[0].call!.image!.format, "jpeg");
    assert.ok((await reportScreenshots(agent.reportFile!)).includes(spy.urls[0]));
  },
);

driverTest(
  "recordToReport and a frozen page context store and send the agent's format",
  async (env) => {
    const { agent, model } = await tapAgent(env);
    await agent.recordToReport("the start page");
    await agent.freezePageContext();
    await agent.aiLocate("the Click me button");
    await agent.unfreezePageContext();
    assert.equal(model.calls[0].call!.image!.format, "jpeg");
    // The page did not change: both captures are the same JPEG, stored once.
    const shots = await reportScreenshots(agent.reportFile!);
    assert.ok(shots.length >= 1);
    for (const shot of shots) assert.match(shot, /^data:image\/jpeg;base64,\/9j\//);
  },
);

driverTest(
  "html-and-external-assets writes each screenshot with the extension of its real format",
  async (env) => {
    for (
      const [format, ext, magic] of [["jpeg", ".jpg", [0xff, 0xd8]], ["png", ".png", [
        0x89,
        0x50,
      ]]] as const
    ) {
      const { agent } = await tapAgent(env, {
        screenshotFormat: format,
        outputFormat: "html-and-external-assets",
      });
      await agent.aiTap("the Click me button");
      const dir = join(dirname(agent.reportFile!), "screenshots");
      const files = await readdir(dir);
      assert.ok(files.length > 0);
      for (const file of files) {
        assert.ok(file.endsWith(ext), `${file} should end in ${ext}`);
        const head = (await readFile(join(dir, file))).subarray(0, 2);
        assert.deepEqual([...head], [...magic], `${file} holds a ${format}`);
      }
    }
  },
);

driverTest(
  "invalid screenshotFormat and screenshotQuality are rejected at construction",
  async (env) => {
    const page = await env.open("actions.html");
    assert.throws(
      () => env.pageAgent(page, { screenshotFormat: "webp" as "png" }),
      (e: unknown) =>
        e instanceof TypeError &&
        /'screenshotFormat' must be "jpeg" or "png": current value is "webp"/.test(e.message),
    );
    assert.throws(
      () => env.pageAgent(page, { screenshotQuality: 0 }),
      (e: unknown) =>
        e instanceof RangeError &&
        /'screenshotQuality' must be an integer from 1 to 100: current value is 0/.test(e.message),
    );
  },
);
