/// <reference lib="dom" />
/**
 * Fixtures of the viewer tests: a Chromium launcher, real screenshots of small pages, and three
 * executions recorded over them the way an agent records them.
 *
 * @module
 */

import { type Browser, chromium, type Page } from "playwright-core";
import { after } from "../../tests/helpers/test.ts";
import { before } from "node:test";
import type { Buffer } from "node:buffer";
import { pathToFileURL } from "node:url";
import { execution, step } from "./_test_helpers.ts";
import type { ReportExecution, ReportStep } from "./types.ts";
import assert from "node:assert/strict";
import type { ReportWriter } from "./writer.ts";

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * One headless Chromium for all the tests of the calling file: `before` and `after` hooks launch
 * and close it. Call the returned function inside tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("useBrowser(): the browser is ready only inside tests");
    return browser;
  };
}

/** Opens a report and fails the test on any page error or request leaving the file. */
export async function openReport(
  browser: Browser,
  file: string,
  width = 1440,
  height = 900,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith("file:") && !url.startsWith("data:")) errors.push(`request ${url}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector(".ex");
  return { page, errors };
}

/** Small pages to screenshot; each has one `#target` element. */
export const SCREEN_PAGES = [
  `<body style="margin:0;font:16px system-ui;background:#eef2f7">
    <div style="height:64px;background:#1e3a8a;color:#fff;display:flex;align-items:center;padding:0 32px;font-size:22px;font-weight:600">Acme Store</div>
    <form style="width:380px;margin:110px auto;background:#fff;padding:32px;border-radius:12px;box-shadow:0 4px 18px #0002">
      <h2 style="margin-top:0">Sign in</h2>
      <input id="user" placeholder="Username" style="display:block;width:100%;box-sizing:border-box;margin:12px 0;padding:12px;font-size:16px">
      <input placeholder="Password" type="password" style="display:block;width:100%;box-sizing:border-box;margin:12px 0;padding:12px;font-size:16px">
      <button id="target" type="button" style="width:100%;padding:12px;font-size:16px;background:#2563eb;color:#fff;border:0;border-radius:8px">Sign in</button>
    </form></body>`,
  `<body style="margin:0;font:16px system-ui;background:#fff">
    <div style="height:64px;background:#1e3a8a;color:#fff;display:flex;align-items:center;padding:0 32px;font-size:22px;font-weight:600">Acme Store <span style="margin-left:auto;font-size:15px">alice</span></div>
    <div style="display:flex;gap:24px;padding:40px">
      ${
    ["Lamp", "Chair", "Desk", "Shelf"].map((n, i) =>
      `<div style="width:260px;height:300px;border:1px solid #ddd;border-radius:10px;padding:16px">
        <div style="height:180px;background:hsl(${i * 70},60%,80%);border-radius:8px"></div>
        <h3>${n}</h3><button ${
        i === 2 ? 'id="target"' : ""
      } style="padding:8px 14px">Add to cart</button></div>`
    ).join("")
  }
    </div></body>`,
  `<body style="margin:0;font:16px system-ui;background:#f8fafc">
    <div style="height:64px;background:#1e3a8a;color:#fff;display:flex;align-items:center;padding:0 32px;font-size:22px;font-weight:600">Acme Store</div>
    <div style="padding:40px 60px"><h1>Settings</h1>
      <label style="display:block;margin:20px 0"><input type="checkbox" checked> Email notifications</label>
      <label id="target" style="display:inline-block;margin:20px 0;padding:6px;border:1px dashed #999">Dark mode <input type="checkbox"></label>
    </div></body>`,
];

/** A screenshot and the box of its `#target` element. */
export interface Shot {
  uri: string;
  /** Bounding box of `#target` in image pixels. */
  rect: { left: number; top: number; width: number; height: number };
  /** Bounding box of `#target` in the page's CSS pixels (the image's at `scale` 1). */
  cssRect: { left: number; top: number; width: number; height: number };
}

/**
 * A PNG of the page, asked again when Chromium answers "Unable to capture screenshot" (a busy
 * renderer on a loaded machine), as the web device does.
 */
async function screenshotOf(page: Page): Promise<Buffer> {
  for (let attempt = 1;; attempt++) {
    try {
      return await page.screenshot({ type: "png" });
    } catch (error) {
      if (attempt >= 3 || !/Unable to capture screenshot/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Real PNG screenshots of simple pages at 1280x800 CSS pixels, with the box of an element on
 * each. `scale` is the device pixel ratio: the images are `scale` times larger than the page, as
 * an agent's screenshots are on a high-density screen.
 */
export async function makeScreenshots(browser: Browser, scale = 1): Promise<Shot[]> {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: scale,
  });
  const shots: Shot[] = [];
  for (const html of SCREEN_PAGES) {
    await page.setContent(html);
    const box = (await page.locator("#target").boundingBox())!;
    const png = await screenshotOf(page);
    const cssRect = {
      left: Math.round(box.x),
      top: Math.round(box.y),
      width: Math.round(box.width),
      height: Math.round(box.height),
    };
    shots.push({
      uri: `data:image/png;base64,${png.toString("base64")}`,
      rect: {
        left: cssRect.left * scale,
        top: cssRect.top * scale,
        width: cssRect.width * scale,
        height: cssRect.height * scale,
      },
      cssRect,
    });
  }
  await page.close();
  return shots;
}

const T0 = Date.UTC(2026, 10, 22, 13, 30, 5);
const usage = (prompt: number, completion: number, cached = 0) => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
  cachedInputTokens: cached,
  modelName: "vision-model-1",
  intent: "default",
  requestId: "req-1",
  timeCostMs: 1200 + prompt / 10,
});

/** Centre of a rectangle, rounded. */
export function center(r: Shot["rect"]): [number, number] {
  return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
}

/** Three executions over the screenshots, the way an agent records them. */
export function buildExecutions(writer: ReportWriter, shots: Shot[]): ReportExecution[] {
  const [login, shop, settings] = shots;
  const id = shots.map((s) => writer.addScreenshot(s.uri));
  const size = { width: 1280, height: 800 };
  const at = (ms: number) => T0 + ms;
  const tap: ReportExecution = execution({
    id: "1",
    apiName: "aiTap",
    prompt: "the blue Sign in button",
    startedAt: at(0),
    endedAt: at(2140),
    steps: [
      step({
        kind: "Locate",
        title: "Locate 'the blue Sign in button'",
        startedAt: at(0),
        endedAt: at(1830),
        screenshot: id[0],
        screenshotSize: size,
        target: login.rect,
        thought: "The form has one primary button labelled 'Sign in' below the password field.",
        rawResponse: JSON.stringify({ bbox: [login.rect.left, login.rect.top, 0, 0] }),
        usage: usage(1612, 48, 1024),
      }),
      step({
        kind: "Action",
        title: "Tap",
        startedAt: at(1830),
        endedAt: at(2140),
        screenshot: id[0],
        screenshotSize: size,
        point: center(login.rect),
        param: { locate: { description: "the blue Sign in button", center: center(login.rect) } },
      }),
    ],
  });
  const plan = (n: number, thought: string, screenshot: number): ReportStep =>
    step({
      kind: "Planning",
      title: `Plan (cycle ${n})`,
      startedAt: at(3000 + n * 4000),
      endedAt: at(5200 + n * 4000),
      screenshot: id[screenshot],
      screenshotSize: size,
      thought,
      rawResponse: JSON.stringify(
        { thought, actions: [{ type: "Tap", locate: "target" }], more_actions_needed: n < 2 },
        null,
        2,
      ),
      usage: usage(2400 + n * 30, 140, n * 1800),
    });
  const act: ReportExecution = execution({
    id: "2",
    apiName: "aiAct",
    prompt: "put the desk in the cart, then open the settings and turn on dark mode",
    startedAt: at(3000),
    endedAt: at(16200),
    output: "Done: the desk is in the cart and dark mode is on.",
    steps: [
      plan(0, "The product grid is shown. The desk is the third card; tap its Add to cart.", 1),
      step({
        kind: "Locate",
        title: "Locate 'Add to cart button of the Desk card'",
        startedAt: at(5200),
        endedAt: at(6900),
        screenshot: id[1],
        screenshotSize: size,
        target: shop.rect,
        usage: usage(1650, 40),
      }),
      step({
        kind: "Action",
        title: "Tap",
        startedAt: at(6900),
        endedAt: at(7200),
        screenshot: id[1],
        screenshotSize: size,
        point: center(shop.rect),
        param: { x: center(shop.rect)[0], y: center(shop.rect)[1] },
      }),
      plan(1, "The desk was added. Now the settings page is open; dark mode is off.", 2),
      step({
        kind: "Action",
        title: "Tap 'Dark mode switch'",
        startedAt: at(9200),
        endedAt: at(9600),
        screenshot: id[2],
        screenshotSize: size,
        target: settings.rect,
        point: center(settings.rect),
        param: { locate: "Dark mode switch" },
      }),
      plan(2, "Dark mode is on. The task is complete.", 2),
    ],
  });
  const check: ReportExecution = execution({
    id: "3",
    apiName: "aiAssert",
    prompt: "the cart badge shows 2 items",
    status: "failed",
    frozenContext: true,
    startedAt: at(17000),
    endedAt: at(18900),
    error: "Assertion failed: the header shows no cart badge at all.",
    steps: [
      step({
        kind: "Assert",
        title: "Assert 'the cart badge shows 2 items'",
        status: "failed",
        startedAt: at(17000),
        endedAt: at(18900),
        screenshot: id[2],
        screenshotSize: size,
        thought: "The header contains only the store name; no cart badge is visible.",
        rawResponse: '{"pass": false, "thought": "no badge"}',
        usage: usage(1580, 60, 1536),
        error: "Assertion failed: the header shows no cart badge at all.",
      }),
    ],
  });
  return [tap, act, check];
}

/** Where the replay shows the current step, in CSS pixels of the page. */
export interface ReplayGeometry {
  /** The stage's image: left, top, width, height. */
  img: [number, number, number, number];
  /** Its decoded size. */
  natural: [number, number];
  /** The target box drawn on it (left, top, width, height), or null when hidden. */
  box: [number, number, number, number] | null;
  /** The pointer's centre, or null when it is idle (the step has no target). */
  pointer: [number, number] | null;
}

/**
 * The replay's image, box and pointer once the image is decoded and the pointer has stopped
 * moving (its CSS transitions finished).
 */
export async function replayGeometry(page: Page): Promise<ReplayGeometry> {
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>(".replay .rp-shot img");
    const pointer = document.querySelector(".replay .pointer");
    if (!img || !img.complete || img.naturalWidth === 0 || !pointer) return false;
    if (!pointer.getAnimations().every((a) => a.playState === "finished")) return false;
    if (pointer.classList.contains("idle")) return true;
    // Arrived: its center is where its left/top (percentages of the shot) put it. A move that
    // has not started yet (the next frame's style change) shows as a pointer still elsewhere.
    const el = pointer as HTMLElement;
    const box = (el.offsetParent ?? img).getBoundingClientRect();
    const at = el.getBoundingClientRect();
    const wantX = box.left + parseFloat(el.style.left) / 100 * box.width;
    const wantY = box.top + parseFloat(el.style.top) / 100 * box.height;
    return Math.abs(at.left + at.width / 2 - wantX) < 1 &&
      Math.abs(at.top + at.height / 2 - wantY) < 1;
  });
  return await page.evaluate(() => {
    const rect = (el: Element) => {
      const r = el.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height] as [number, number, number, number];
    };
    const img = document.querySelector<HTMLImageElement>(".replay .rp-shot img")!;
    const box = document.querySelector<HTMLElement>(".replay .rp-shot .box")!;
    const pointer = document.querySelector(".replay .pointer")!;
    const p = rect(pointer);
    return {
      img: rect(img),
      natural: [img.naturalWidth, img.naturalHeight] as [number, number],
      box: box.hidden ? null : rect(box),
      pointer: pointer.classList.contains("idle") ? null : [p[0] + p[2] / 2, p[1] + p[3] / 2] as [
        number,
        number,
      ],
    };
  });
}

/** Asserts `actual` is within 1.5 CSS pixels of `expected`. */
export function near(actual: number, expected: number, what: string): void {
  if (!(Math.abs(actual - expected) <= 1.5)) {
    throw new Error(`${what}: ${actual} is not near ${expected}`);
  }
}

/** Asserts the replay shows `s`'s marks where its image pixels are, scaled to the image shown. */
export function assertMarks(g: ReplayGeometry, s: ReportStep, what: string): void {
  const [left, top, width, height] = g.img;
  const sx = width / g.natural[0], sy = height / g.natural[1];
  near(sx, sy, `${what}: aspect ratio kept`);
  const r = s.target;
  assert.equal(!!g.box, !!r, `${what}: box shown iff the step has a target`);
  if (r && g.box) {
    near(g.box[0], left + r.left * sx, `${what}: box left`);
    near(g.box[1], top + r.top * sy, `${what}: box top`);
    near(g.box[2], r.width * sx, `${what}: box width`);
    near(g.box[3], r.height * sy, `${what}: box height`);
  }
  const p = s.point ?? (r ? [r.left + r.width / 2, r.top + r.height / 2] : undefined);
  assert.equal(!!g.pointer, !!p, `${what}: pointer shown iff the step has a target`);
  if (p && g.pointer) {
    near(g.pointer[0], left + p[0] * sx, `${what}: pointer x`);
    near(g.pointer[1], top + p[1] * sy, `${what}: pointer y`);
    if (g.box) {
      assert.ok(
        g.pointer[0] >= g.box[0] && g.pointer[0] <= g.box[0] + g.box[2] &&
          g.pointer[1] >= g.box[1] && g.pointer[1] <= g.box[1] + g.box[3],
        `${what}: the pointer is inside the target box`,
      );
    }
  }
}
