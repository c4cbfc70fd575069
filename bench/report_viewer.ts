/**
 * Report-viewer benchmark: does a long run's report still open fast, and does the page's memory
 * stay bounded?
 *
 * It captures realistic screenshots first: `tests/fixtures/app/rich.html` (the image-rich fixture
 * page) in headless Chromium at 1280 x 800, dpr 1, as Chromium's own JPEG (at the SDK's default
 * screenshot quality unless `--quality` says otherwise). Before each capture it scrolls the page a little and clicks
 * "Click me", so every image differs (the counter and the scroll offset change) and the report's
 * content hash stores each one. Then it writes two reports with the real `ReportWriter`
 * (`core/report/mod.ts`) into `bench/output/report_viewer/report/`:
 *
 * - `taps`: N executions of one `aiTap` each: a Locate step (screenshot, target box, thought, raw
 *   answer, usage) and an Action step (same screenshot, click point, params), written once per
 *   execution as the agent does;
 * - `act`: one `aiAct` execution of N steps (Planning, Locate, Action in turn), each with its own
 *   screenshot, written after every step (delta tags) and once more when it passes.
 *
 * Each report is opened from `file://` in a fresh page of headless Chromium (1440 x 900) and
 * measured:
 *
 * - file size;
 * - first paint: time from navigation start to the first execution's detail (its header and first
 *   step) being in the DOM, and to the frame after it (two `requestAnimationFrame`s), both read in
 *   the page with `performance.now()` from a MutationObserver installed by an init script;
 *   `first screenshot` is when the first step's `<img>` fired `load`;
 * - after load (1 s after first paint): JS heap used (CDP `HeapProfiler.collectGarbage`, then
 *   `Performance.getMetrics` `JSHeapUsedSize`), DOM nodes, the renderer's memory as Chromium
 *   accounts it (a `memory-infra` trace dump: malloc, PartitionAlloc, Oilpan, V8 and, separately,
 *   the decoded images the compositor holds and the encoded image resources Blink holds), the
 *   number of step cards, `<img>` elements and decoded images (`complete` and `naturalWidth > 0`,
 *   with a `src`) in the page, and the timeline thumbnails showing their image;
 * - after scrolling through: the same numbers once the whole list was scrolled: for `act` the
 *   page scrolled to the bottom one screen at a time (60 ms per screen) and the last step's
 *   screenshot waited for; for `taps` the execution list scrolled to its end and the last
 *   execution opened with a click.
 *
 * Targets (issue 8): file <= 35 MB; first paint <= 2 s; memory bounded: the `<img>` elements and
 * decoded images stay a small number whatever the length of the run.
 *
 * Reading the numbers: most of the first paint is Chromium reading and parsing the file (see
 * `HTML received` and `DOMContentLoaded`), so it follows the file size. `decoded images MB` is
 * Chromium's own cache of decoded bitmaps (discardable memory with a budget of about 500 MB); it
 * fills up while scrolling through hundreds of screenshots whatever the page does with its
 * `<img>` elements, so it is shown apart. `image resources MB` is what the page's images hold.
 *
 * It prints a table and writes every number to `bench/output/report_viewer.json`. The exit code
 * is 0 even when a target is missed (a benchmark reports, tests assert); 1 when the run fails.
 *
 *     deno run --allow-all bench/report_viewer.ts [--steps=500] [--quality=60] [--shape=taps|act]
 *     deno run --allow-all bench/report_viewer.ts --report=a.html [--report=b.html ...]
 *
 * `--report` measures existing report files as they are (one execution: the `act` measurements,
 * else `taps`), e.g. the same data under two versions of the viewer.
 *
 * @module
 */

/// <reference lib="dom" />

import { DEFAULT_SCREENSHOT_QUALITY } from "../core/image/encoding.ts";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { ReportWriter } from "../core/report/mod.ts";
import type { AIUsageInfo, ReportExecution, ReportStep } from "../core/report/mod.ts";
import { launchChromium } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";

/** Target: report file size, bytes. */
export const FILE_TARGET_BYTES = 35 * 1024 * 1024;
/** Target: navigation start to the first execution's detail painted, ms. */
export const FIRST_PAINT_TARGET_MS = 2000;
/** Target for "bounded": at most this many decoded screenshots in the page at any time. */
export const DECODED_TARGET = 40;

const CAPTURE_VIEWPORT = { width: 1280, height: 800 } as const;
const VIEWER_VIEWPORT = { width: 1440, height: 900 } as const;
const OUTPUT_DIR = new URL("./output/", import.meta.url);
const RUN_DIR = new URL("./report_viewer/", OUTPUT_DIR);

/** Command-line options. */
interface Options {
  steps: number;
  quality: number;
  shapes: Shape[];
  /** Reports to measure as they are, instead of capturing and writing new ones. */
  reports: string[];
}

type Shape = "taps" | "act";

function options(args: string[]): Options {
  const get = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const reports = args.filter((a) => a.startsWith("--report=")).map((a) => a.slice(9));
  const steps = Number(get("steps") ?? 500);
  const quality = Number(get("quality") ?? DEFAULT_SCREENSHOT_QUALITY);
  const shape = get("shape");
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`--steps: not a count: ${steps}`);
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) {
    throw new Error(`--quality: not 1..100: ${quality}`);
  }
  if (shape !== undefined && shape !== "taps" && shape !== "act") {
    throw new Error(`--shape: taps or act, not ${shape}`);
  }
  return { steps, quality, shapes: shape ? [shape] : ["taps", "act"], reports };
}

/** One screenshot of the fixture page and where "Click me" was on it. */
interface Capture {
  uri: string;
  bytes: number;
  target: { left: number; top: number; width: number; height: number };
}

/** Captures `n` distinct JPEG screenshots of rich.html, clicking "Click me" before each. */
async function capture(browser: Browser, n: number, quality: number): Promise<Capture[]> {
  const app = await serveStatic(FIXTURE_APP_DIR);
  const context = await browser.newContext({ viewport: CAPTURE_VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(`${app.url}rich.html`);
    await page.waitForFunction("window.appState.ready === true");
    const button = page.locator("#click-button");
    const shots: Capture[] = [];
    for (let i = 0; i < n; i++) {
      // A varying scroll offset (the button stays in view) and a new counter on every image.
      await page.evaluate((y) => scrollTo(0, y), (i * 37) % 110);
      await button.click();
      const box = (await button.boundingBox())!;
      const jpeg = await page.screenshot({ type: "jpeg", quality });
      shots.push({
        uri: `data:image/jpeg;base64,${jpeg.toString("base64")}`,
        bytes: jpeg.length,
        target: {
          left: Math.round(box.x),
          top: Math.round(box.y),
          width: Math.round(box.width),
          height: Math.round(box.height),
        },
      });
      if ((i + 1) % 100 === 0) console.error(`  captured ${i + 1}/${n}`);
    }
    const clicks = await page.evaluate("window.appState.clicks");
    if (clicks !== n) throw new Error(`rich.html counted ${clicks} clicks, not ${n}`);
    return shots;
  } finally {
    await context.close();
    await app.close();
  }
}

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const SIZE = { width: CAPTURE_VIEWPORT.width, height: CAPTURE_VIEWPORT.height };

function usage(i: number, prompt: number): AIUsageInfo {
  return {
    promptTokens: prompt + (i % 17) * 3,
    completionTokens: 40 + (i % 9) * 7,
    totalTokens: prompt + (i % 17) * 3 + 40 + (i % 9) * 7,
    cachedInputTokens: i % 3 === 0 ? 0 : 1024,
    modelName: "vision-model-1",
    intent: "default",
    requestId: `req-${i}`,
    timeCostMs: 900 + (i % 13) * 37,
  };
}

function center(r: Capture["target"]): [number, number] {
  return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
}

function locateStep(i: number, id: string, shot: Capture, at: number): ReportStep {
  const r = shot.target;
  return {
    kind: "Locate",
    title: "Locate 'the Click me button'",
    status: "passed",
    startedAt: at,
    endedAt: at + 900,
    screenshot: id,
    screenshotSize: SIZE,
    target: r,
    thought: `The green 'Click me' button in the 'Your activity' panel on the right (step ${
      i + 1
    }).`,
    rawResponse: JSON.stringify({ bbox: [r.left, r.top, r.left + r.width, r.top + r.height] }),
    usage: usage(i, 1650),
  };
}

function actionStep(i: number, id: string, shot: Capture, at: number): ReportStep {
  const [x, y] = center(shot.target);
  return {
    kind: "Action",
    title: "Tap",
    status: "passed",
    startedAt: at,
    endedAt: at + 320,
    screenshot: id,
    screenshotSize: SIZE,
    point: [x, y],
    param: { locate: { description: "the Click me button", center: [x, y] }, step: i + 1 },
  };
}

function planningStep(i: number, id: string, at: number): ReportStep {
  const thought = `Cycle ${i + 1}: the counter shows ${i} clicks; tap 'Click me' once more.`;
  return {
    kind: "Planning",
    title: `Plan (cycle ${i + 1})`,
    status: "passed",
    startedAt: at,
    endedAt: at + 2100,
    screenshot: id,
    screenshotSize: SIZE,
    thought,
    rawResponse: JSON.stringify(
      { thought, actions: [{ type: "Tap", locate: "the Click me button" }], more: true },
      null,
      2,
    ),
    usage: usage(i, 2400),
  };
}

/** Writes one report of the given shape over the captures and returns its path. */
async function writeReport(shape: Shape, shots: Capture[]): Promise<string> {
  const writer = await ReportWriter.create({
    name: `viewer-${shape}-${shots.length}`,
    meta: { sdkVersion: "bench", interfaceType: "web-page" },
  });
  if (shape === "taps") {
    for (const [i, shot] of shots.entries()) {
      const id = writer.addScreenshot(shot.uri);
      const at = T0 + i * 1500;
      await writer.writeExecution({
        id: `tap-${i + 1}`,
        apiName: "aiTap",
        prompt: "the 'Click me' button",
        status: "passed",
        startedAt: at,
        endedAt: at + 1300,
        steps: [locateStep(i, id, shot, at), actionStep(i, id, shot, at + 950)],
      });
    }
  } else {
    const exec: ReportExecution = {
      id: "act-1",
      apiName: "aiAct",
      prompt: `tap 'Click me' ${shots.length} times, checking the counter after each tap`,
      status: "running",
      startedAt: T0,
      steps: [],
    };
    for (const [i, shot] of shots.entries()) {
      const id = writer.addScreenshot(shot.uri);
      const at = T0 + i * 1000;
      exec.steps.push(
        i % 3 === 0
          ? planningStep(i, id, at)
          : i % 3 === 1
          ? locateStep(i, id, shot, at)
          : actionStep(i, id, shot, at),
      );
      await writer.writeExecution(exec);
    }
    exec.status = "passed";
    exec.endedAt = T0 + shots.length * 1000;
    exec.output = "Done.";
    await writer.writeExecution(exec);
  }
  return (await writer.finalize())!;
}

/** What the page holds at one moment. */
export interface PageState {
  /** `JSHeapUsedSize` after a forced GC, MB. */
  heapMB: number;
  /**
   * The renderer processes' memory as Chromium accounts it (a `memory-infra` dump, summed over
   * renderers; only the report page is open), MB: `malloc` + `partition_alloc` allocated objects,
   * `blink_gc`, `v8` and the decoded images below.
   */
  rendererMB: number;
  /** Decoded screenshots held by the compositor (`cc/image_memory`, discardable), MB. */
  decodedImagesMB: number;
  /** Image resources (encoded data) held by Blink (`web_cache/Image_resources`), MB. */
  imageResourcesMB: number;
  /** DOM nodes (CDP `Nodes`). */
  domNodes: number;
  /** Step cards (`#detail li.step`) in the DOM. */
  stepCards: number;
  /** `<img>` elements in the page. */
  imgs: number;
  /** Of those, with a `src` and decoded (`complete`, `naturalWidth > 0`). */
  decoded: number;
  /** Timeline thumbnails showing their image (a CSS background, not an `<img>`). */
  thumbImgs: number;
}

/** Everything measured for one report. */
export interface ShapeResult {
  /** The report's file name without `.html`. */
  label: string;
  shape: Shape;
  steps: number;
  executions: number;
  file: string;
  fileMB: number;
  /** Navigation start to the first execution's detail in the DOM, ms. */
  detailInDomMs: number;
  /** Navigation start to the frame after that (double requestAnimationFrame), ms. */
  firstPaintMs: number;
  /** Navigation start to the first step's screenshot `load`, ms (-1: none seen). */
  firstScreenshotMs: number;
  /** Navigation timing: `responseEnd`, `domContentLoadedEventEnd`, `loadEventEnd`, ms. */
  navigation: { responseEnd: number; domContentLoaded: number; load: number };
  afterLoad: PageState;
  afterScroll: PageState;
  /** Time to scroll through (act) or to open the last execution (taps), ms. */
  scrollMs: number;
  /** Whether the last step's screenshot was decoded after scrolling (act) / opening (taps). */
  lastScreenshotShown: boolean;
  pageErrors: string[];
}

const MB = 1024 * 1024;

/** Sizes (MB) of a few allocators in a `memory-infra` dump, summed over renderer processes. */
async function memoryDump(browser: Browser): Promise<Record<string, number>> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const info = await cdp.send("SystemInfo.getProcessInfo") as {
      processInfo: { type: string; id: number }[];
    };
    const renderers = new Set(
      info.processInfo.filter((p) => p.type === "renderer").map((p) => p.id),
    );
    const complete = new Promise<{ stream?: string }>((resolve) =>
      cdp.once("Tracing.tracingComplete", resolve)
    );
    await cdp.send("Tracing.start", {
      transferMode: "ReturnAsStream",
      traceConfig: {
        includedCategories: ["disabled-by-default-memory-infra"],
        excludedCategories: ["*"],
        memoryDumpConfig: { triggers: [] },
      },
    } as never);
    await cdp.send("Tracing.requestMemoryDump", { deterministic: true, levelOfDetail: "detailed" });
    await cdp.send("Tracing.end");
    const { stream } = await complete;
    let text = "";
    for (let eof = !stream; !eof;) {
      const chunk = await cdp.send("IO.read", { handle: stream!, size: 1 << 20 });
      text += chunk.base64Encoded ? atob(chunk.data) : chunk.data;
      eof = chunk.eof;
    }
    if (stream) await cdp.send("IO.close", { handle: stream });
    const parsed = JSON.parse(text);
    const events = (Array.isArray(parsed) ? parsed : parsed.traceEvents) as {
      ph: string;
      pid: number;
      args?: { dumps?: { allocators?: Record<string, { attrs?: { size?: { value: string } } }> } };
    }[];
    const names = [
      "malloc/allocated_objects",
      "partition_alloc/allocated_objects",
      "blink_gc",
      "v8",
      "cc/image_memory",
      "web_cache/Image_resources",
    ];
    const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
    for (const e of events) {
      const allocators = e.ph === "v" && renderers.has(e.pid) && e.args?.dumps?.allocators;
      if (!allocators) continue;
      for (const n of names) out[n] += parseInt(allocators[n]?.attrs?.size?.value ?? "0", 16) / MB;
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

async function pageState(browser: Browser, page: Page): Promise<PageState> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("Performance.enable");
  const { metrics } = await cdp.send("Performance.getMetrics");
  await cdp.detach();
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const dom = await page.evaluate(() => {
    const imgs = [...document.images];
    return {
      stepCards: document.querySelectorAll("#detail li.step").length,
      imgs: imgs.length,
      decoded: imgs.filter((i) => i.getAttribute("src") && i.complete && i.naturalWidth > 0)
        .length,
      thumbImgs: [...document.querySelectorAll<HTMLElement>(".tshot")].filter((t) =>
        t.style.backgroundImage
      ).length,
    };
  });
  const m = await memoryDump(browser);
  return {
    heapMB: metric("JSHeapUsedSize") / MB,
    domNodes: metric("Nodes"),
    rendererMB: m["malloc/allocated_objects"] + m["partition_alloc/allocated_objects"] +
      m["blink_gc"] + m["v8"] + m["cc/image_memory"],
    decodedImagesMB: m["cc/image_memory"],
    imageResourcesMB: m["web_cache/Image_resources"],
    ...dom,
  };
}

/** Whether an image (a locator) is in the page and decoded within 10 s. */
async function decoded(img: Locator): Promise<boolean> {
  try {
    await img.waitFor({ state: "attached", timeout: 10_000 });
    const handle = await img.elementHandle();
    await img.page().waitForFunction(
      (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
      handle,
      { timeout: 10_000 },
    );
    return true;
  } catch {
    return false;
  }
}

/** Installed before the page's own script: timestamps of the first detail and screenshot. */
const PROBE = `(() => {
  const b = window.__bench = { detail: -1, paint: -1, shot: -1 };
  const done = () => {
    if (b.detail >= 0) return true;
    const d = document.getElementById("detail");
    if (!d || !d.querySelector(".exhead") || !d.querySelector("li.step")) return false;
    b.detail = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => { b.paint = performance.now(); }));
    return true;
  };
  const mo = new MutationObserver(() => { if (done()) mo.disconnect(); });
  mo.observe(document, { childList: true, subtree: true });
  document.addEventListener("load", (e) => {
    const t = e.target;
    if (b.shot < 0 && t && t.tagName === "IMG" && t.closest && t.closest("#detail")) {
      b.shot = performance.now();
    }
  }, true);
})();`;

async function measure(browser: Browser, file: string): Promise<ShapeResult> {
  const context = await browser.newContext({ viewport: VIEWER_VIEWPORT });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
  await page.addInitScript(PROBE);
  try {
    await page.goto(pathToFileURL(file).href, { timeout: 180_000 });
    await page.waitForFunction("window.__bench.paint >= 0", null, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    const marks = await page.evaluate(() => {
      const b = (window as unknown as { __bench: Record<string, number> }).__bench;
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return {
        detail: b.detail,
        paint: b.paint,
        shot: b.shot,
        responseEnd: nav.responseEnd,
        domContentLoaded: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
      };
    });
    console.error(`  ${basename(file)}: first paint ${marks.paint.toFixed(0)} ms`);
    const afterLoad = await pageState(browser, page);
    // One execution: the aiAct shape; else one aiTap per execution.
    const executions = await page.locator("nav .ex").count();
    const shape: Shape = executions === 1 ? "act" : "taps";
    const steps = shape === "act" ? await page.locator("#detail li.step").count() : executions;

    const t = performance.now();
    let lastScreenshotShown: boolean;
    if (shape === "act") {
      await page.evaluate(async () => {
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 60)));
        const root = document.scrollingElement!;
        const end = performance.now() + 120_000;
        while (root.scrollTop + innerHeight < root.scrollHeight - 2 && performance.now() < end) {
          root.scrollTop += innerHeight;
          await frame();
        }
      });
      const last = page.locator("#detail li.step").last().locator(".shot img");
      lastScreenshotShown = await decoded(last);
    } else {
      await page.evaluate(async () => {
        const nav = document.getElementById("list")!;
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
        const end = performance.now() + 120_000;
        while (nav.scrollTop + nav.clientHeight < nav.scrollHeight - 2 && performance.now() < end) {
          nav.scrollTop += nav.clientHeight;
          await frame();
        }
      });
      await page.locator("nav .ex").last().click();
      const img = page.locator("#detail li.step .shot img").first();
      const shown = await decoded(img);
      const selected = await page.locator("nav .ex.sel").getAttribute("data-id");
      const last = await page.locator("nav .ex").last().getAttribute("data-id");
      lastScreenshotShown = shown && selected === last;
    }
    const scrollMs = performance.now() - t;
    console.error(`  ${basename(file)}: scrolled through in ${scrollMs.toFixed(0)} ms`);
    await page.waitForTimeout(500);
    const afterScroll = await pageState(browser, page);
    return {
      label: basename(file, ".html"),
      shape,
      steps,
      executions,
      file,
      fileMB: (await stat(file)).size / MB,
      detailInDomMs: marks.detail,
      firstPaintMs: marks.paint,
      firstScreenshotMs: marks.shot,
      navigation: {
        responseEnd: marks.responseEnd,
        domContentLoaded: marks.domContentLoaded,
        load: marks.load,
      },
      afterLoad,
      afterScroll,
      scrollMs,
      lastScreenshotShown,
      pageErrors,
    };
  } finally {
    await context.close();
  }
}

function verdict(ok: boolean): string {
  return ok ? "PASS" : "MISS";
}

function table(results: ShapeResult[], shotBytes: number[]): string {
  const f0 = (n: number) => n.toFixed(0);
  const f1 = (n: number) => n.toFixed(1);
  const rows: string[][] = [["", ...results.map((r) => r.label), "target"]];
  const row = (label: string, cell: (r: ShapeResult) => string, target = "") =>
    rows.push([label, ...results.map(cell), target]);
  const meanKB = shotBytes.reduce((a, b) => a + b, 0) / shotBytes.length / 1024 || NaN;
  row("steps / executions", (r) => `${r.steps} / ${r.executions}`);
  row(
    "file MB",
    (r) => `${f1(r.fileMB)} ${verdict(r.fileMB * MB <= FILE_TARGET_BYTES)}`,
    `<= ${FILE_TARGET_BYTES / MB}`,
  );
  if (shotBytes.length) row("  mean screenshot KB", () => f1(meanKB));
  row("HTML received (responseEnd) ms", (r) => f0(r.navigation.responseEnd));
  row("DOMContentLoaded ms", (r) => f0(r.navigation.domContentLoaded));
  row("first detail in DOM ms", (r) => f0(r.detailInDomMs));
  row(
    "first paint ms",
    (r) => `${f0(r.firstPaintMs)} ${verdict(r.firstPaintMs <= FIRST_PAINT_TARGET_MS)}`,
    `<= ${FIRST_PAINT_TARGET_MS}`,
  );
  row("first screenshot loaded ms", (r) => f0(r.firstScreenshotMs));
  for (
    const [label, key] of [["after load", "afterLoad"], ["after scroll", "afterScroll"]] as const
  ) {
    row(`${label}: JS heap MB (after GC)`, (r) => f1(r[key].heapMB));
    row(`${label}: renderer memory MB`, (r) => f0(r[key].rendererMB));
    row(`${label}:   decoded images MB`, (r) => f0(r[key].decodedImagesMB));
    row(`${label}:   image resources MB`, (r) => f0(r[key].imageResourcesMB));
    row(`${label}: DOM nodes`, (r) => f0(r[key].domNodes));
    row(`${label}: step cards`, (r) => f0(r[key].stepCards));
    row(`${label}: <img> / decoded`, (r) => `${r[key].imgs} / ${r[key].decoded}`);
    row(`${label}: timeline thumbnails shown`, (r) => String(r[key].thumbImgs));
    row(
      `${label}: bounded`,
      (r) => verdict(r[key].decoded <= DECODED_TARGET),
      `decoded <= ${DECODED_TARGET}`,
    );
  }
  row("scroll through / open last ms", (r) => f0(r.scrollMs));
  row("last screenshot shown", (r) => String(r.lastScreenshotShown));
  row("page errors", (r) => String(r.pageErrors.length));
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ")).join("\n");
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  await mkdir(OUTPUT_DIR, { recursive: true });
  process.env.SDK_RUN_DIR = RUN_DIR.pathname;
  const loadBefore = Deno.loadavg()[0];
  const browser = await launchChromium();
  try {
    const results: ShapeResult[] = [];
    let shotBytes: number[] = [];
    if (opts.reports.length) {
      for (const file of opts.reports) results.push(await measure(browser, file));
    } else {
      await rm(RUN_DIR, { recursive: true, force: true });
      console.error(`capturing ${opts.steps} JPEG screenshots (quality ${opts.quality}) ...`);
      const shots = await capture(browser, opts.steps, opts.quality);
      shotBytes = shots.map((s) => s.bytes);
      for (const shape of opts.shapes) {
        console.error(`writing and opening the '${shape}' report ...`);
        results.push(await measure(browser, await writeReport(shape, shots)));
      }
    }
    const loadAfter = Deno.loadavg()[0];
    const busy = Math.max(loadBefore, loadAfter) > navigator.hardwareConcurrency;
    console.log(
      "\nReport viewer" +
        (opts.reports.length ? "" : `, ${opts.steps} steps, rich.html JPEG q${opts.quality}`) +
        `, ` +
        `Chromium ${browser.version()}, load average ${loadBefore.toFixed(1)} -> ` +
        `${loadAfter.toFixed(1)} on ${navigator.hardwareConcurrency} cores` +
        (busy ? ": BUSY MACHINE, times are not representative" : "") + "\n",
    );
    console.log(table(results, shotBytes));
    const json = {
      date: new Date().toISOString(),
      options: opts,
      chromium: browser.version(),
      loadAverage: { before: loadBefore, after: loadAfter, cores: navigator.hardwareConcurrency },
      targets: {
        fileBytes: FILE_TARGET_BYTES,
        firstPaintMs: FIRST_PAINT_TARGET_MS,
        decoded: DECODED_TARGET,
      },
      screenshotBytes: shotBytes,
      results,
    };
    const out = new URL("report_viewer.json", OUTPUT_DIR);
    await writeFile(out, JSON.stringify(json, null, 2));
    console.log(`\nwrote ${out.pathname}`);
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
