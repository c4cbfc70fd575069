/**
 * Step-overhead benchmark: what one `aiTap` costs beyond the model's own thinking time.
 *
 * An agent taps the "Click me" button of a fixture page in headless Chromium (1280 x 800 CSS
 * pixels): the flat `actions.html`, or the image-rich `rich.html` (photos, textures, gradients,
 * dense text). The test model answers every locate call at once with a box measured once before
 * the loop, so the model itself costs ~0 ms and what remains is the SDK: screenshot capture,
 * image preparation, the HTTP round trip to the model, the click, settling, `waitAfterAction` and
 * the report write. The variants (see {@link VARIANTS}) run one after the other: both pages with
 * the default encoding (JPEG) and with `screenshotFormat: 'png'`, and the shrink path.
 *
 * It prints a table (value, target, PASS/MISS) and writes `bench/output/step_overhead.json`.
 * Exit code 0 even when a target is missed (a benchmark reports, tests assert); 1 when the run
 * itself fails, including when the page did not count every tap.
 *
 *     deno task bench
 *
 * @module
 */

import type { Browser, Page } from "playwright-core";
import { DriverBPageAgent } from "@sdk/web";
import type { ModelClient } from "@sdk/core";
import type { TargetBox } from "@sdk/core/testing";
import { imageBackendInUse } from "../core/image/mod.ts";
import { viewerPage, viewerScriptHash } from "../core/report/viewer.ts";
import { launchChromium, measure } from "../tests/helpers/browser.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../tests/helpers/static_server.ts";
import { type ModelProcess, startModelProcess } from "./_model_child.ts";

/** The agent's default `waitAfterAction`, ms; the step-time target is built on it. */
export const DEFAULT_WAIT_AFTER_ACTION_MS = 300;
/** Target: report bytes per step (report size after the run / steps). */
export const REPORT_BYTES_PER_STEP_TARGET = 60 * 1024;
/** Target: the base64 screenshot in one model request, characters (1 character = 1 byte). */
export const MODEL_IMAGE_CHARS_TARGET = 100 * 1024;
/** Target: the viewer template (the report before its first data tag) is smaller than this. */
export const VIEWER_TEMPLATE_TARGET_BYTES = 300 * 1024;
/** Target: RSS growth from after step 10 to after the last step is smaller than this. */
export const RSS_GROWTH_TARGET_BYTES = 30 * 1024 * 1024;

/** One benchmark variant. */
export interface Variant {
  /** Short name, used in the table, the JSON and the report file name. */
  name: string;
  /** Number of `aiTap` calls. */
  steps: number;
  /** Device pixel ratio of the page. */
  dpr: number;
  /** `screenshotShrinkFactor` given to the agent; left out means the default (1). */
  shrinkFactor?: number;
  /** The fixture page tapped on. */
  page: "actions.html" | "rich.html";
  /** `screenshotFormat` given to the agent; left out means the default (JPEG). */
  format?: "png";
  /**
   * Target: the median step may exceed `waitAfterAction` by at most this much, ms; left out,
   * the step time is shown without a verdict.
   */
  overheadTargetMs?: number;
  /** Whether the size targets (report bytes per step, model image) apply to this variant. */
  sizeTargets?: boolean;
}

/** The variants run, in order. */
export const VARIANTS: readonly Variant[] = [
  {
    name: "dpr1",
    steps: 100,
    dpr: 1,
    page: "actions.html",
    overheadTargetMs: 50,
    sizeTargets: true,
  },
  { name: "rich", steps: 100, dpr: 1, page: "rich.html", sizeTargets: true },
  { name: "rich-png", steps: 20, dpr: 1, page: "rich.html", format: "png" },
  { name: "dpr1-png", steps: 20, dpr: 1, page: "actions.html", format: "png" },
  { name: "dpr2-shrink2", steps: 20, dpr: 2, shrinkFactor: 2, page: "actions.html" },
];

const VIEWPORT = { width: 1280, height: 800 } as const;
const BENCH_DIR: URL = new URL("./", import.meta.url);
const OUTPUT_DIR: URL = new URL("output/", BENCH_DIR);

/** Times inside one step, from `performance.now()` (ms). `NaN` when a hook did not fire. */
interface StepMarks {
  start: number;
  shotStart: number;
  shotEnd: number;
  modelStart: number;
  modelEnd: number;
  clickStart: number;
  clickEnd: number;
  flushEnd: number;
  end: number;
}

/** Where the time of one step went, ms. The parts add up to the step's wall time. */
export interface StepBreakdown {
  /** `aiTap` called -> screenshot requested: option checks, report writer, recorder. */
  setup: number;
  /** `page.screenshot()` round trip: Chromium renders and PNG-encodes, CDP ships base64. */
  capture: number;
  /** Screenshot bytes -> model request: base64 data URI, size read, shrink/pad, report hash. */
  prep: number;
  /** The model call as the client sees it: serialise, HTTP to the test model process, parse. */
  model: number;
  /** Answer -> click sent: parse JSON, map the box, `beforeAction`. */
  toClick: number;
  /** `page.mouse.click()` round trip. */
  click: number;
  /** Click done -> `afterAction`'s page round trip done (settling). */
  settle: number;
  /** `waitAfterAction` (nominal). */
  wait: number;
  /** The rest: timer lateness, recording the step and the report write. */
  tail: number;
}

/** Summary statistics of a series, ms. */
export interface Stats {
  median: number;
  p90: number;
  min: number;
  max: number;
}

/** Everything measured for one variant. */
export interface VariantResult {
  variant: Variant;
  waitAfterActionMs: number;
  /** Taps the page counted (must equal `variant.steps`). */
  pageClicks: number;
  /** Wall time of each `aiTap`, ms. */
  stepMs: number[];
  step: Stats;
  /** Wall time of step 1 (cold: client creation, viewer write), ms. */
  firstStepMs: number;
  /** `step.median - waitAfterActionMs`. */
  overheadMedianMs: number;
  /** Median of each breakdown part over all steps but the first. */
  breakdownMedianMs: StepBreakdown;
  /** The breakdown of every step. */
  breakdownPerStep: StepBreakdown[];
  /** Image backend that prepared screenshots (`null` when no image needed preparing). */
  imageBackend: string | null;
  /** The screenshots the model was sent. */
  modelImage: {
    /** Media type of the data URIs sent (all the same). */
    mime: string;
    /** Median length of the base64 data URI in one request, characters. */
    base64CharsMedian: number;
    /** Median size of the image in one request, bytes. */
    bytesMedian: number;
  };
  /**
   * Where each tap landed against the target's center, CSS pixels (largest distance over the
   * steps): the coordinate mapping end to end with the encoded screenshots' sizes.
   */
  clickErrorMaxPx: number;
  report: {
    file: string;
    /** File size after each step, bytes. */
    bytesAfterStep: number[];
    /** File size after `destroy()`, bytes. */
    finalBytes: number;
    /** `finalBytes / steps`. */
    bytesPerStep: number;
    /** `(bytes after the last step - bytes after step 1) / (steps - 1)`: the steady cost. */
    marginalBytesPerStep: number;
    /** Bytes before the first data tag: the viewer page. */
    viewerTemplateBytes: number;
    /** Length of `viewerPage()` for the same options, as a cross-check. */
    viewerPageBuilderBytes: number;
    /** Total bytes of screenshot tags, of execution tags, and the screenshot count. */
    screenshotTagBytes: number;
    executionTagBytes: number;
    screenshots: number;
  };
  rss: {
    /** Whether a full GC ran before the samples at steps 10 and N (`--v8-flags=--expose-gc`). */
    gcBeforeSample: boolean;
    /** `Deno.memoryUsage().rss` after each step, bytes. */
    afterStep: number[];
    /** V8 heap in use after each step, bytes: live data plus garbage not yet collected. */
    heapUsedAfterStep: number[];
    /** V8 heap reserved after each step, bytes: what V8 took from the OS, the bulk of RSS. */
    heapTotalAfterStep: number[];
    peak: number;
    /** After the last step minus after step 10 (`null` with fewer than 11 steps). */
    growthFromStep10: number | null;
    /** The same for `heapTotal`: how much of the RSS growth is V8 sizing its heap. */
    heapTotalGrowthFromStep10: number | null;
  };
}

/**
 * V8's `gc()` when the process runs with `--v8-flags=--expose-gc` (as `deno task bench` does).
 * Then a full GC runs before the memory samples at steps 10 and N (outside the timed calls), so
 * RSS growth shows what is retained rather than garbage V8 has not collected yet.
 */
const forceGc: (() => void) | undefined = (globalThis as unknown as { gc?: () => void }).gc;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile, so p90 of 100 values is the 90th smallest. */
function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)];
}

function stats(values: number[]): Stats {
  return {
    median: median(values),
    p90: percentile(values, 90),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

function emptyMarks(): StepMarks {
  return {
    start: NaN,
    shotStart: NaN,
    shotEnd: NaN,
    modelStart: NaN,
    modelEnd: NaN,
    clickStart: NaN,
    clickEnd: NaN,
    flushEnd: NaN,
    end: NaN,
  };
}

function breakdown(m: StepMarks, wait: number): StepBreakdown {
  return {
    setup: m.shotStart - m.start,
    capture: m.shotEnd - m.shotStart,
    prep: m.modelStart - m.shotEnd,
    model: m.modelEnd - m.modelStart,
    toClick: m.clickStart - m.modelEnd,
    click: m.clickEnd - m.clickStart,
    settle: m.flushEnd - m.clickEnd,
    wait,
    tail: m.end - m.flushEnd - wait,
  };
}

/**
 * Wraps the page's screenshot, click and evaluate so each step's marks are taken where the SDK
 * calls the page. The wrappers only read the clock (microseconds), so timing stays honest; the
 * SDK itself is not touched.
 */
function instrumentPage(
  page: Page,
  marks: () => StepMarks,
  onClick: (x: number, y: number) => void,
): void {
  const screenshot = page.screenshot.bind(page);
  page.screenshot = (async (options) => {
    marks().shotStart = performance.now();
    try {
      return await screenshot(options);
    } finally {
      marks().shotEnd = performance.now();
    }
  }) as Page["screenshot"];
  const click = page.mouse.click.bind(page.mouse);
  page.mouse.click = async (x: number, y: number, options): Promise<void> => {
    marks().clickStart = performance.now();
    onClick(x, y);
    try {
      return await click(x, y, options);
    } finally {
      marks().clickEnd = performance.now();
    }
  };
  // `afterAction` flushes driver events with `evaluate("0")`: its end is the end of settling.
  const evaluate = page.evaluate.bind(page) as (...args: unknown[]) => Promise<unknown>;
  (page as unknown as { evaluate: (...args: unknown[]) => Promise<unknown> }).evaluate = async (
    ...args: unknown[]
  ) => {
    const result = await evaluate(...args);
    if (args[0] === "0") marks().flushEnd = performance.now();
    return result;
  };
}

/** The screenshot's data URI in a chat request body (the first `image_url`), if any. */
function imageUrlOf(body: Record<string, unknown>): string | undefined {
  for (const message of body.messages as { content?: unknown }[]) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as { image_url?: { url?: string } }[]) {
      if (part.image_url?.url?.startsWith("data:")) return part.image_url.url;
    }
  }
  return undefined;
}

/** Bytes of a base64 data URI's payload. */
function base64Bytes(uri: string): number {
  const body = uri.slice(uri.indexOf(",") + 1);
  return Math.floor(body.length * 3 / 4) - (body.endsWith("==") ? 2 : body.endsWith("=") ? 1 : 0);
}

/** Splits a report file into its viewer template and the bytes of each kind of data tag. */
function reportAnatomy(html: string): {
  templateBytes: number;
  screenshotTagBytes: number;
  executionTagBytes: number;
  screenshots: number;
} {
  const encoder = new TextEncoder();
  const firstData = html.search(/<script type="sdk-(meta|screenshot|execution)"/);
  let screenshotTagBytes = 0, executionTagBytes = 0, screenshots = 0;
  for (
    const [tag, kind] of html.matchAll(
      /<script type="sdk-(screenshot|execution)"[^>]*>[^<]*<\/script>\n?/g,
    )
  ) {
    // Tags are ASCII (base64, escaped JSON) but count bytes anyway, like the file size does.
    const bytes = encoder.encode(tag).length;
    if (kind === "screenshot") {
      screenshotTagBytes += bytes;
      screenshots++;
    } else executionTagBytes += bytes;
  }
  return {
    templateBytes: encoder.encode(html.slice(0, Math.max(0, firstData))).length,
    screenshotTagBytes,
    executionTagBytes,
    screenshots,
  };
}

/** Runs one variant in its own browser context, test model and agent. */
async function runVariant(
  variant: Variant,
  browser: Browser,
  appUrl: string,
): Promise<VariantResult> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: variant.dpr });
  let model: ModelProcess | undefined;
  let agent: DriverBPageAgent | undefined;
  try {
    const page = await context.newPage();
    await page.goto(new URL(variant.page, appUrl).href);
    await page.waitForFunction(() =>
      (globalThis as unknown as { appState?: { ready?: boolean } }).appState?.ready !== false
    );
    // Measured once: the button never moves, and the model must cost ~0 ms per call.
    const box: TargetBox = await measure(page, "#click-button");
    const center = [box.left + box.width / 2, box.top + box.height / 2];

    let current = emptyMarks();
    const clicks: [number, number][] = [];
    instrumentPage(page, () => current, (x, y) => clicks.push([x, y]));
    const imageUris: number[] = [];
    const imageBytes: number[] = [];
    let imageMime = "";
    model = await startModelProcess(box, { viewport: VIEWPORT });
    const testModel = model;
    agent = new DriverBPageAgent(page, {
      modelConfig: testModel.modelConfig(),
      reportFileName: `bench-step-overhead-${variant.name}`,
      autoPrintReportMsg: false,
      screenshotFormat: variant.format,
      screenshotShrinkFactor: variant.shrinkFactor,
      // Times the model call as the SDK sees it; passes everything through unchanged.
      createModelClient: (client: ModelClient) =>
        Promise.resolve({
          chat: {
            completions: {
              async create(
                body: Record<string, unknown>,
                options?: { signal?: AbortSignal },
              ): Promise<unknown> {
                current.modelStart = performance.now();
                const uri = imageUrlOf(body);
                if (uri) {
                  imageMime = uri.slice(5, uri.indexOf(";"));
                  imageUris.push(uri.length);
                  imageBytes.push(base64Bytes(uri));
                }
                try {
                  return await client.chat.completions.create(body, options);
                } finally {
                  current.modelEnd = performance.now();
                }
              },
            },
          },
        }),
    });

    const stepMs: number[] = [];
    const parts: StepBreakdown[] = [];
    const bytesAfterStep: number[] = [];
    const rssAfterStep: number[] = [];
    const heapUsedAfterStep: number[] = [];
    const heapTotalAfterStep: number[] = [];
    let reportFile: string | undefined;
    let bytesAfterFirst = "";
    for (let i = 0; i < variant.steps; i++) {
      current = emptyMarks();
      current.start = performance.now();
      await agent.aiTap("the 'Click me' button");
      current.end = performance.now();
      stepMs.push(current.end - current.start);
      parts.push(breakdown(current, DEFAULT_WAIT_AFTER_ACTION_MS));
      // A full GC only at the two samples the growth is read from (steps 10 and N), outside the
      // timed call: the growth then shows what is retained, not when V8 last resized its heap.
      if (i === 9 || i === variant.steps - 1) forceGc?.();
      const memory = Deno.memoryUsage();
      rssAfterStep.push(memory.rss);
      heapUsedAfterStep.push(memory.heapUsed);
      heapTotalAfterStep.push(memory.heapTotal);
      reportFile ??= agent.reportFile ?? undefined;
      if (!reportFile) throw new Error(`no report file after step ${i + 1}`);
      bytesAfterStep.push((await Deno.stat(reportFile)).size);
      if (i === 0) bytesAfterFirst = await Deno.readTextFile(reportFile);
    }

    const pageClicks = await page.evaluate(() =>
      (globalThis as unknown as { appState: { clicks: number } }).appState.clicks
    );
    if (pageClicks !== variant.steps) {
      throw new Error(
        `${variant.name}: the page counted ${pageClicks} clicks for ${variant.steps} aiTap calls; ` +
          "the run is invalid (a tap missed the button)",
      );
    }
    await agent.destroy();
    const finalFile = agent.reportFile ?? reportFile;
    if (!finalFile) throw new Error(`${variant.name}: no report file was written`);
    const finalBytes = (await Deno.stat(finalFile)).size;
    const anatomy = reportAnatomy(await Deno.readTextFile(finalFile));
    const firstAnatomy = reportAnatomy(bytesAfterFirst);
    const builder = viewerPage({
      title: `bench-step-overhead-${variant.name}`,
      scriptHash: await viewerScriptHash(),
    });
    const warm = parts.slice(1);
    const partNames = Object.keys(warm[0]) as (keyof StepBreakdown)[];
    const breakdownMedianMs = Object.fromEntries(
      partNames.map((k) => [k, median(warm.map((p) => p[k]))]),
    ) as unknown as StepBreakdown;
    const step = stats(stepMs);
    const last = bytesAfterStep.length - 1;
    return {
      variant,
      waitAfterActionMs: DEFAULT_WAIT_AFTER_ACTION_MS,
      pageClicks,
      stepMs,
      step,
      firstStepMs: stepMs[0],
      overheadMedianMs: step.median - DEFAULT_WAIT_AFTER_ACTION_MS,
      breakdownMedianMs,
      breakdownPerStep: parts,
      imageBackend: variant.shrinkFactor && variant.shrinkFactor > 1
        ? await imageBackendInUse()
        : null,
      modelImage: {
        mime: imageMime,
        base64CharsMedian: median(imageUris),
        bytesMedian: median(imageBytes),
      },
      clickErrorMaxPx: Math.max(
        ...clicks.map(([x, y]) => Math.hypot(x - center[0], y - center[1])),
      ),
      report: {
        file: finalFile,
        bytesAfterStep,
        finalBytes,
        bytesPerStep: finalBytes / variant.steps,
        marginalBytesPerStep: last > 0 ? (bytesAfterStep[last] - bytesAfterStep[0]) / last : NaN,
        viewerTemplateBytes: firstAnatomy.templateBytes,
        viewerPageBuilderBytes: new TextEncoder().encode(builder).length,
        screenshotTagBytes: anatomy.screenshotTagBytes,
        executionTagBytes: anatomy.executionTagBytes,
        screenshots: anatomy.screenshots,
      },
      rss: {
        gcBeforeSample: forceGc !== undefined,
        afterStep: rssAfterStep,
        heapUsedAfterStep,
        heapTotalAfterStep,
        peak: Math.max(...rssAfterStep),
        growthFromStep10: last >= 10 ? rssAfterStep[last] - rssAfterStep[9] : null,
        heapTotalGrowthFromStep10: last >= 10
          ? heapTotalAfterStep[last] - heapTotalAfterStep[9]
          : null,
      },
    };
  } finally {
    await agent?.destroy().catch(() => {});
    await model?.close();
    await context.close();
  }
}

/** One line of the printed table. */
interface Row {
  variant: string;
  metric: string;
  value: string;
  target: string;
  result: "PASS" | "MISS" | "";
}

const ms = (v: number): string => `${v.toFixed(1)} ms`;
const kb = (v: number): string => `${(v / 1024).toFixed(1)} KB`;
const mb = (v: number): string => `${(v / 1024 / 1024).toFixed(1)} MB`;
const verdict = (ok: boolean): "PASS" | "MISS" => ok ? "PASS" : "MISS";

function rowsFor(r: VariantResult): Row[] {
  const v = r.variant.name;
  const wait = r.waitAfterActionMs;
  const b = r.breakdownMedianMs;
  const limit = r.variant.overheadTargetMs;
  const sized = r.variant.sizeTargets === true;
  const rows: Row[] = [
    {
      variant: v,
      metric: "median step",
      value: ms(r.step.median),
      target: limit === undefined ? "" : `<= ${wait + limit} ms`,
      result: limit === undefined ? "" : verdict(r.step.median <= wait + limit),
    },
    {
      variant: v,
      metric: "SDK overhead (median - wait)",
      value: ms(r.overheadMedianMs),
      target: limit === undefined ? "" : `<= ${limit} ms`,
      result: limit === undefined ? "" : verdict(r.overheadMedianMs <= limit),
    },
    { variant: v, metric: "p90 step", value: ms(r.step.p90), target: "", result: "" },
    { variant: v, metric: "min step", value: ms(r.step.min), target: "", result: "" },
    { variant: v, metric: "max step", value: ms(r.step.max), target: "", result: "" },
    { variant: v, metric: "first step (cold)", value: ms(r.firstStepMs), target: "", result: "" },
  ];
  const part = (metric: string, value: number) =>
    rows.push({ variant: v, metric: `  ${metric}`, value: ms(value), target: "", result: "" });
  part("setup", b.setup);
  part("capture (page.screenshot)", b.capture);
  part("prep (data URI, shrink, hash)", b.prep);
  part("model call (HTTP round trip)", b.model);
  part("answer -> click", b.toClick);
  part("click", b.click);
  part("settle (afterAction)", b.settle);
  part("waitAfterAction", b.wait);
  part("tail (report write, timers)", b.tail);
  if (r.imageBackend) {
    rows.push({
      variant: v,
      metric: "image backend",
      value: r.imageBackend,
      target: "",
      result: "",
    });
  }
  rows.push(
    {
      variant: v,
      metric: `model image (${r.modelImage.mime}), base64/request`,
      value: kb(r.modelImage.base64CharsMedian),
      target: sized ? `<= ${kb(MODEL_IMAGE_CHARS_TARGET)}` : "",
      result: sized ? verdict(r.modelImage.base64CharsMedian <= MODEL_IMAGE_CHARS_TARGET) : "",
    },
    {
      variant: v,
      metric: "  image bytes/request",
      value: kb(r.modelImage.bytesMedian),
      target: "",
      result: "",
    },
    {
      variant: v,
      metric: "tap error vs target center (max)",
      value: `${r.clickErrorMaxPx.toFixed(2)} px`,
      target: "<= 1 px",
      result: verdict(r.clickErrorMaxPx <= 1),
    },
    {
      variant: v,
      metric: "report bytes/step (final/steps)",
      value: kb(r.report.bytesPerStep),
      target: sized ? `<= ${kb(REPORT_BYTES_PER_STEP_TARGET)}` : "",
      result: sized ? verdict(r.report.bytesPerStep <= REPORT_BYTES_PER_STEP_TARGET) : "",
    },
    {
      variant: v,
      metric: "report after step 1",
      value: kb(r.report.bytesAfterStep[0]),
      target: "",
      result: "",
    },
    {
      variant: v,
      metric: `report after step ${r.variant.steps}`,
      value: kb(r.report.bytesAfterStep.at(-1)!),
      target: "",
      result: "",
    },
    {
      variant: v,
      metric: "  marginal bytes/step",
      value: kb(r.report.marginalBytesPerStep),
      target: "",
      result: "",
    },
    {
      variant: v,
      metric: "  screenshot tags / step",
      value: kb(r.report.screenshotTagBytes / r.variant.steps),
      target: "",
      result: "",
    },
    {
      variant: v,
      metric: "  execution tags / step",
      value: kb(r.report.executionTagBytes / r.variant.steps),
      target: "",
      result: "",
    },
    {
      variant: v,
      metric: "viewer template",
      value: kb(r.report.viewerTemplateBytes),
      target: `< ${kb(VIEWER_TEMPLATE_TARGET_BYTES)}`,
      result: verdict(r.report.viewerTemplateBytes < VIEWER_TEMPLATE_TARGET_BYTES),
    },
    { variant: v, metric: "peak RSS", value: mb(r.rss.peak), target: "", result: "" },
  );
  const growth = r.rss.growthFromStep10;
  const heapGrowth = r.rss.heapTotalGrowthFromStep10;
  const gcNote = r.rss.gcBeforeSample ? ` (GC at steps 10 and ${r.variant.steps})` : "";
  if (growth !== null && heapGrowth !== null) {
    // The target is for the 100-step run; the short variant runs in a process the first one
    // already warmed, so its growth is shown without a verdict.
    const judged = r.variant.steps >= 100;
    rows.push(
      {
        variant: v,
        metric: `RSS growth step 10 -> ${r.variant.steps}${gcNote}`,
        value: mb(growth),
        target: judged ? `< ${mb(RSS_GROWTH_TARGET_BYTES)}` : "",
        result: judged ? verdict(growth < RSS_GROWTH_TARGET_BYTES) : "",
      },
      {
        variant: v,
        metric: "  of which V8 heapTotal",
        value: mb(heapGrowth),
        target: "",
        result: "",
      },
      {
        variant: v,
        metric: `  V8 heapUsed after step 10 / ${r.variant.steps}`,
        value: `${mb(r.rss.heapUsedAfterStep[9])} / ${mb(r.rss.heapUsedAfterStep.at(-1)!)}`,
        target: "",
        result: "",
      },
    );
  }
  rows.push({
    variant: v,
    metric: "page clicks",
    value: String(r.pageClicks),
    target: `= ${r.variant.steps}`,
    result: verdict(r.pageClicks === r.variant.steps),
  });
  return rows;
}

function printTable(rows: Row[]): void {
  const cols = ["variant", "metric", "value", "target", "result"] as const;
  const head: Row = {
    variant: "variant",
    metric: "metric",
    value: "value",
    target: "target",
    result: "",
  };
  const width = Object.fromEntries(
    cols.map((c) => [c, Math.max(c.length, ...rows.map((r) => r[c].length))]),
  ) as Record<(typeof cols)[number], number>;
  // Values right-aligned so the numbers line up.
  const line = (r: Row, result: string) =>
    [
      r.variant.padEnd(width.variant),
      r.metric.padEnd(width.metric),
      r.value.padStart(width.value),
      r.target.padEnd(width.target),
      result,
    ].join("  ").trimEnd();
  console.log(line(head, "result"));
  console.log(cols.map((c) => "-".repeat(width[c])).join("  "));
  for (const r of rows) console.log(line(r, r.result));
}

async function cpuModel(): Promise<string | null> {
  try {
    const info = await Deno.readTextFile("/proc/cpuinfo");
    return /^model name\s*:\s*(.+)$/m.exec(info)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Runs every variant, prints the table, writes the JSON; returns the exit code. */
async function main(): Promise<number> {
  // Reports go under bench/output (git-ignored) unless the caller chose a run directory.
  if (!Deno.env.get("SDK_RUN_DIR")) {
    Deno.env.set("SDK_RUN_DIR", new URL("sdk_run", OUTPUT_DIR).pathname);
  }
  await Deno.mkdir(OUTPUT_DIR, { recursive: true });
  // Other processes on a small machine change these numbers a lot; the load says if they did.
  const loadBefore = Deno.loadavg();
  const app = await serveStatic(FIXTURE_APP_DIR);
  const browser = await launchChromium();
  const results: VariantResult[] = [];
  let failure: unknown;
  try {
    for (const variant of VARIANTS) {
      console.error(`running ${variant.name}: ${variant.steps} aiTap steps ...`);
      results.push(await runVariant(variant, browser, app.url));
    }
  } catch (error) {
    failure = error;
  }
  const chromium = browser.version();
  await browser.close();
  await app.close();
  if (failure !== undefined) {
    console.error(`bench failed: ${(failure as Error)?.stack ?? String(failure)}`);
    return 1;
  }

  const loadAfter = Deno.loadavg();
  const machine = {
    date: new Date().toISOString(),
    loadAverage1mBefore: loadBefore[0],
    loadAverage1mAfter: loadAfter[0],
    cpus: navigator.hardwareConcurrency,
    cpuModel: await cpuModel(),
    memoryBytes: Deno.systemMemoryInfo().total,
    os: `${Deno.build.os}-${Deno.build.arch}`,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    chromium,
  };
  console.log(
    `\nstep overhead: ${machine.date}, ${machine.cpus} cores (${machine.cpuModel ?? "?"}), ` +
      `Deno ${machine.deno}, Chromium ${machine.chromium}; KB = 1024 bytes, MB = 1024 KB\n`,
  );
  // The bench itself (Deno + Chromium) keeps about one core busy, so "after" gets more room.
  const busy = loadBefore[0] > machine.cpus / 2 || loadAfter[0] > machine.cpus;
  console.log(
    `load average (1 min): ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after` +
      (busy
        ? ": BUSY MACHINE, other processes competed for the CPU; times are not representative\n"
        : "\n"),
  );
  printTable(results.flatMap(rowsFor));
  const file = new URL("step_overhead.json", OUTPUT_DIR);
  await Deno.writeTextFile(file, JSON.stringify({ machine, results }, null, 2) + "\n");
  console.log(`\nnumbers: ${file.pathname}`);
  for (const r of results) console.log(`report (${r.variant.name}): ${r.report.file}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
