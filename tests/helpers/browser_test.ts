import { test } from "./test.ts";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import process from "node:process";
import OpenAI from "openai";
import { findChromium, measure, useFixtureApp } from "./browser.ts";
import { startTestModel, type TestModelFamily } from "../../core/testing/mod.ts";
import { readDataUriImage } from "../../core/testing/_image.ts";

const OUTPUT_DIR = new URL("../output/", import.meta.url);
const PAGES = ["index", "login", "list", "form", "long", "actions"] as const;

const env = useFixtureApp();

test("findChromium() finds the system Chromium and honours SDK_CHROMIUM_PATH", async () => {
  const saved = process.env.SDK_CHROMIUM_PATH;
  try {
    delete process.env.SDK_CHROMIUM_PATH;
    const found = await findChromium();
    assert.match(found, /chrom/);
    process.env.SDK_CHROMIUM_PATH = found;
    assert.equal(await findChromium(), found);
    process.env.SDK_CHROMIUM_PATH = "/no/such/chromium";
    await assert.rejects(findChromium(), /SDK_CHROMIUM_PATH is set to '\/no\/such\/chromium'/);
  } finally {
    if (saved === undefined) delete process.env.SDK_CHROMIUM_PATH;
    else process.env.SDK_CHROMIUM_PATH = saved;
  }
});

test("measure() gives the Sign in button's box in CSS pixels on login.html", async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${env.url}login.html`);
    const box = await measure(page, "#sign-in");
    assert.ok(box.width > 200 && box.width < 500, `width ${box.width}`);
    assert.ok(box.height >= 40 && box.height < 80, `height ${box.height}`);
    assert.ok(box.left > 300 && box.left + box.width < 980, `centered: left ${box.left}`);
    assert.ok(box.top > 100 && box.top + box.height < 800, `on screen: top ${box.top}`);
    const [cx, cy] = [box.left + box.width / 2, box.top + box.height / 2];
    const hit = await page.evaluate(`document.elementFromPoint(${cx}, ${cy})?.id`);
    assert.equal(hit, "sign-in");
    await assert.rejects(measure(page, "#no-such-element", 200), /measure\('#no-such-element'\)/);
    await assert.rejects(
      measure(page, "#login-error", 200),
      /measure\('#login-error'\).*not visible/,
    );
  } finally {
    await page.close();
  }
});

test("the fixture pages load without external requests or errors (screenshots in tests/output)", async () => {
  await mkdir(OUTPUT_DIR, { recursive: true });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    for (const name of PAGES) {
      const page = await context.newPage();
      const problems: string[] = [];
      const origin = new URL(env.url).origin;
      page.on("request", (r) => {
        if (!r.url().startsWith(origin)) problems.push(`external request ${r.url()}`);
      });
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`console error ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error ${e.message}`));
      await page.goto(`${env.url}${name}.html`, { waitUntil: "load" });
      assert.equal(await page.evaluate("window.appState.page"), name);
      await page.screenshot({ path: new URL(`fixtures-${name}.png`, OUTPUT_DIR).pathname });
      assert.deepEqual(problems, [], name);
      await page.close();
    }
  } finally {
    await context.close();
  }
});

/** The protocol's mapping back from a bbox to pixels, written out here as the SDK must do it. */
function bboxCenterInCss(
  family: TestModelFamily,
  bbox: number[],
  image: { width: number; height: number },
  dpr: number,
): [number, number] {
  const px = (v: number, size: number) => Math.round((v * (size - 1)) / 1000);
  let x1: number, y1: number, x2: number, y2: number;
  if (family === "qwen2.5-vl") [x1, y1, x2, y2] = bbox;
  else if (family === "gemini") {
    [y1, x1, y2, x2] = bbox;
    [x1, x2, y1, y2] = [
      px(x1, image.width),
      px(x2, image.width),
      px(y1, image.height),
      px(y2, image.height),
    ];
  } else {
    [x1, y1, x2, y2] = bbox;
    [x1, x2, y1, y2] = [
      px(x1, image.width),
      px(x2, image.width),
      px(y1, image.height),
      px(y2, image.height),
    ];
  }
  return [(x1 + x2) / 2 / dpr, (y1 + y2) / 2 / dpr];
}

const E2E: Array<[TestModelFamily, number]> = [
  ["default", 1],
  ["qwen3-vl", 2],
  ["gemini", 2],
  ["qwen2.5-vl", 1],
];

for (const [family, dpr] of E2E) {
  test(`a ${family} locate answer from a real screenshot (dpr ${dpr}) clicks the measured button`, async () => {
    const context = await env.browser.newContext({
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: dpr,
    });
    const page = await context.newPage();
    const model = await startTestModel({
      family,
      viewport: () => page.viewportSize()!,
      imagePixelsPerCssPixel: family === "qwen2.5-vl" ? dpr : undefined,
      script: { locate: () => measure(page, "#click-button") },
    });
    try {
      await page.goto(`${env.url}actions.html`);
      const shot = await page.screenshot({ type: family === "gemini" ? "jpeg" : "png" });
      const mime = family === "gemini" ? "image/jpeg" : "image/png";
      const url = `data:${mime};base64,${
        btoa(Array.from(shot, (b) => String.fromCharCode(b)).join(""))
      }`;
      const image = readDataUriImage(url);
      assert.deepEqual([image.width, image.height], [1280 * dpr, 800 * dpr]);
      const client = new OpenAI({ baseURL: model.baseURL, apiKey: model.apiKey, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: model.modelName,
        messages: [
          { role: "system", content: "You are a UI element locator." },
          {
            role: "user",
            content: [
              { type: "image_url", image_url: { url } },
              {
                type: "text",
                text:
                  `<target>\nthe Click me button\n</target>\nThe screenshot is ${image.width} x ${image.height} pixels.`,
              },
            ],
          },
        ],
      });
      const { bbox } = JSON.parse(completion.choices[0].message.content!);
      const [x, y] = bboxCenterInCss(family, bbox, image, dpr);
      await page.mouse.click(x, y);
      assert.equal(await page.evaluate("window.appState.clicks"), 1);
    } finally {
      await model.close();
      await context.close();
    }
  });
}
