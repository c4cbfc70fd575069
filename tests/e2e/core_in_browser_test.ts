/// <reference lib="dom" />

/**
 * Core in a browser page (issue 11, part 1; docs/in-browser.md): `deno task build:browser` bundles
 * core with esbuild, a page in headless Chromium loads the bundle, and an agent over the in-page
 * device runs against the test model over HTTP (a cross-origin `fetch`, so CORS). Checked: the
 * actions land (a deepLocate tap too, whose crop the canvas backend cuts), `agent.reportFile` is undefined, nothing reaches a file system, and the report
 * downloads as one HTML file that shows the calls.
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import * as core from "@sdk/core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import * as errors from "../../core/errors.ts";
import * as gherkinErrors from "../../core/gherkin/errors.ts";
import * as scriptErrors from "../../core/script/script_errors.ts";
import { BrowserBundleError, bundleCore, importsLeftIn } from "../../scripts/bundle_core.ts";
import { launchChromium, measure } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

/** The page the agent drives: a todo form, a list, and room to scroll. */
const FIXTURE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>In-page fixture</title>
<style>
  body { margin: 0; font: 16px sans-serif; }
  #name { position: absolute; left: 40px; top: 40px; width: 300px; height: 32px; }
  #add { position: absolute; left: 360px; top: 40px; width: 100px; height: 36px; }
  #list { position: absolute; left: 40px; top: 100px; margin: 0; }
  #tall { height: 3000px; }
</style>
</head>
<body>
<form id="form"><input id="name" placeholder="New todo"><button id="add" type="button">Add</button></form>
<ul id="list"></ul>
<div id="tall"></div>
<script>
  const events = (window.__events = []);
  const name = document.getElementById("name");
  const list = document.getElementById("list");
  const addItem = () => {
    if (!name.value) return;
    const li = document.createElement("li");
    li.textContent = name.value;
    list.append(li);
    name.value = "";
  };
  document.getElementById("add").addEventListener("click", (e) => {
    events.push("click trusted=" + e.isTrusted);
    addItem();
  });
  document.getElementById("form").addEventListener("submit", (e) => {
    e.preventDefault();
    events.push("submit");
    addItem();
  });
  name.addEventListener("input", (e) => events.push("input " + e.inputType));
  name.addEventListener("keydown", (e) => events.push("keydown " + e.key));
</script>
<script type="module" src="run.js"></script>
</body>
</html>
`;

/**
 * The code a user would write in the page: the in-page device with a screenshot drawn from the
 * page's state into a canvas (a stand-in for html2canvas), an agent, and a download link.
 */
const RUN_JS = `import { Agent, InPageDevice, reportToHtml } from "./sdk-core.js";

async function drawPage() {
  const dpr = devicePixelRatio;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(innerWidth * dpr);
  canvas.height = Math.round(innerHeight * dpr);
  const g = canvas.getContext("2d");
  g.scale(dpr, dpr);
  g.fillStyle = "#fff";
  g.fillRect(0, 0, innerWidth, innerHeight);
  g.font = "14px sans-serif";
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    g.strokeStyle = "#888";
    g.strokeRect(r.left, r.top, r.width, r.height);
    const text = el.matches("input")
      ? el.value || el.placeholder
      : [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    if (text) {
      g.fillStyle = "#000";
      g.fillText(text, r.left + 4, r.top + Math.min(r.height, 24) / 2 + 5);
    }
  }
  return canvas.toDataURL("image/png");
}

let agent;

window.runAgent = async (modelConfig) => {
  agent = new Agent(new InPageDevice({ captureScreenshot: drawPage }), {
    modelConfig,
    reportFileName: "core-in-browser",
    waitAfterAction: 0,
    autoPrintReportMsg: false,
  });
  await agent.aiInput("the New todo field", { value: "Water the plants" });
  await agent.aiTap("the Add button");
  const output = await agent.aiAct("add the todo 'Buy milk' with the Enter key");
  // deepLocate: the second locate call gets a zoomed crop, cut and scaled by the canvas backend.
  await agent.aiTap("the Add button, zoomed", { deepLocate: true });
  await agent.aiScroll(undefined, { direction: "down", distance: 400 });
  const items = await agent.aiQuery("the todo items, as an array of strings");
  const reportFileBeforeDestroy = agent.reportFile;
  await agent.destroy();
  return {
    output,
    items,
    scrollY: Math.round(scrollY),
    reportFileBeforeDestroy: String(reportFileBeforeDestroy),
    reportFile: String(agent.reportFile),
    calls: agent._unstableLogContent().executions.map((e) => e.apiName + " " + e.status),
    globals: { Deno: typeof Deno, process: typeof process, require: typeof require },
  };
};

window.downloadReport = () => {
  const html = reportToHtml(agent);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([html], { type: "text/html" }));
  a.download = "core-in-browser-report.html";
  document.body.append(a);
  a.click();
  return html.length;
};

window.ready = true;
`;

let dir: string;
let server: StaticServer;
let browser: Browser;
let bundleBytes = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "sdk-core-in-browser-"));
  const { file, bytes } = await bundleCore();
  bundleBytes = bytes;
  await copyFile(file, join(dir, "sdk-core.js"));
  await writeFile(join(dir, "index.html"), FIXTURE_HTML);
  await writeFile(join(dir, "run.js"), RUN_JS);
  server = await serveStatic(dir);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Files under the run directory whose name contains `part` (the directory may not exist). */
async function runDirFiles(part: string): Promise<string[]> {
  const root = Deno.env.get("SDK_RUN_DIR") || "sdk_run";
  try {
    const entries = await readdir(root, { recursive: true });
    return entries.filter((e) => e.includes(part));
  } catch {
    return [];
  }
}

test("deno task build:browser's bundle imports nothing (no Node built-in) and has a sane size", async () => {
  const text = await readFile(join(dir, "sdk-core.js"), "utf8");
  assert.equal(bundleBytes, new TextEncoder().encode(text).length);
  assert.ok(bundleBytes > 100_000 && bundleBytes < 2_000_000, `bundle is ${bundleBytes} bytes`);
  assert.deepEqual(await importsLeftIn(text), []);
  assert.ok(text.includes("InPageDevice"), "the in-page device is in the bundle");
  // The check reads imports with a parser: a `node:` in a string (openai's messages have one)
  // does not count, a real import or require does.
  assert.deepEqual(
    await importsLeftIn(
      `const s = "import('node:buffer')";\nexport const f = () => import("node:fs");\n` +
        `export const g = () => require("zlib");\nexport const h = (m) => require(m);\n`,
    ),
    [
      "the output imports node:fs (dynamic-import)",
      "the output imports zlib (require-call)",
      "the output calls require( at offset 141: require(m);\n",
    ],
  );
});

// ---- the error taxonomy in the minified bundle ---------------------------------------------------

/** A class that `@sdk/core` exports, as its exports hold it. */
type ErrorClass = new (...args: never[]) => Error & { code?: string };

/** The error classes among a module's exports, by exported name. */
function errorClassesOf(module: Record<string, unknown>): Map<string, ErrorClass> {
  const found = new Map<string, ErrorClass>();
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === "function" && value.prototype instanceof Error) {
      found.set(name, value as ErrorClass);
    }
  }
  return found;
}

/**
 * Every error class of the taxonomy: read from `@sdk/core`'s exports (the bundle's entry exports
 * them all), so a class added later is checked without being listed here.
 */
const TAXONOMY = errorClassesOf(core);

/**
 * Constructor arguments (JSON, passed into the page) of the classes that take more than a message;
 * every other class is made with `("m")`. A new class whose constructor needs more fails the test
 * below naming itself, until its arguments are added here.
 */
const ERROR_ARGS: Readonly<Record<string, readonly unknown[]>> = {
  ModelResponseError: ["m", "raw"],
  ModelCallError: ["m", {
    kind: "http",
    intent: "default",
    modelName: "x",
    host: "h",
    attempts: 1,
  }],
  ModelTimeoutError: ["m", {
    intent: "default",
    modelName: "x",
    host: "h",
    attempts: 1,
    timeoutMs: 1,
  }],
  AssertionError: ["a", "msg", "r"],
  PromptImageError: ["i", "m"],
  DeviceNotFoundError: ["m", { wanted: "x", available: [] }],
  ConnectionError: ["m", { kind: "lost", endpoint: "e" }],
  MissingDependencyError: ["m", "adb"],
  ToolError: ["m", { tool: "adb" }],
  UnsupportedActionError: ["m", "aiHover"],
  FileError: ["m", { path: "p", reason: "missing" }],
  NavigationError: ["m", { url: "https://example.test/", reason: "net::ERR_NAME_NOT_RESOLVED" }],
  YamlScriptError: ["m", { fileName: "f", line: 1, column: 1 }],
  YamlTaskError: ["m", {
    fileName: "f",
    line: 1,
    column: 1,
    taskName: "t",
    taskIndex: 0,
    itemIndex: 0,
    flowKey: "aiTap",
    result: {},
  }, { cause: "c" }],
  GherkinParseError: [[{ line: 1, column: 1, message: "m" }]],
  GherkinStepError: [
    { gherkinLine: 1, step: "When x", action: { api: "aiAct", prompt: "x" } },
    "c",
  ],
};

/** What a test reads of an error instance, in Deno or in the page. */
interface ErrorFacts {
  name: string;
  code: string | undefined;
  isSdkError: boolean;
}

/** The `name` an error class must keep: its own, but `TypeError` and `RangeError` for those two. */
function expectedName(exported: string): string {
  return exported === "SdkTypeError"
    ? "TypeError"
    : exported === "SdkRangeError"
    ? "RangeError"
    : exported;
}

test("the taxonomy read from @sdk/core's exports holds every error class of core's error modules", () => {
  for (const module of [errors, gherkinErrors, scriptErrors]) {
    for (const [name, cls] of errorClassesOf(module)) {
      assert.equal(TAXONOMY.get(name), cls, `@sdk/core exports the error class ${name}`);
    }
  }
  // The classes issue 41 found left out of the earlier hand-written list, among the others.
  for (
    const name of [
      "InvalidStateError",
      "FileError",
      "UnsupportedRuntimeError",
      "InternalError",
      "GherkinStepError",
      "YamlTaskError",
    ]
  ) {
    assert.ok(TAXONOMY.has(name), name);
  }
  assert.ok(TAXONOMY.size >= 25, `${TAXONOMY.size} error classes`);
});

test("the minified bundle keeps the name and code of every error class @sdk/core exports (err.name checks work in a page)", async () => {
  // In Deno, from the source: each class made with its arguments.
  const source: Record<string, ErrorFacts> = {};
  for (const [name, cls] of TAXONOMY) {
    const args = ERROR_ARGS[name] ?? ["m"];
    let e: Error & { code?: string };
    try {
      e = new (cls as unknown as new (...a: unknown[]) => Error & { code?: string })(...args);
    } catch (error) {
      assert.fail(
        `new ${name}(${JSON.stringify(args)}) threw (${error}): add its arguments to ERROR_ARGS`,
      );
    }
    source[name] = { name: e.name, code: e.code, isSdkError: core.isSdkError(e) };
    assert.equal(e.name, expectedName(name), `${name}.name in the source`);
    assert.equal(source[name].isSdkError, true, `isSdkError(new ${name}())`);
    // SdkError is the abstract base: only its subclasses have a code.
    if (name !== "SdkError") assert.match(String(e.code), /^[A-Z_]+$/, `${name}.code`);
  }
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}index.html`);
    const { bundled, exported } = await page.evaluate(async ({ url, names, args }) => {
      const sdk = await import(url);
      const bundled: Record<string, ErrorFacts | string> = {};
      for (const name of names) {
        if (typeof sdk[name] !== "function") {
          bundled[name] = "not exported by the bundle";
          continue;
        }
        try {
          const e = new sdk[name](...(args[name] ?? ["m"]));
          bundled[name] = { name: e.name, code: e.code, isSdkError: sdk.isSdkError(e) };
        } catch (error) {
          bundled[name] = `threw ${error}`;
        }
      }
      // The bundle's own error classes, for the other direction.
      const exported = Object.keys(sdk).filter((k) =>
        typeof sdk[k] === "function" && sdk[k].prototype instanceof Error
      );
      return { bundled, exported };
    }, { url: `${server.url}sdk-core.js`, names: [...TAXONOMY.keys()], args: ERROR_ARGS });
    assert.deepEqual(exported.sort(), [...TAXONOMY.keys()].sort(), "the bundle's error classes");
    for (const name of TAXONOMY.keys()) {
      assert.deepEqual(bundled[name], source[name], `${name} in the minified bundle`);
    }
    assert.equal(source.ConnectionError.code, "CONNECTION_LOST");
    assert.equal(source.LocateError.code, "ELEMENT_NOT_FOUND");
    assert.equal(source.FileError.code, "FILE_NOT_FOUND");
  } finally {
    await page.close();
  }
});

test("the bundle script fails naming the module when core would pull in a Node built-in", async () => {
  const entry = join(dir, "bad_entry.ts");
  await writeFile(
    entry,
    `import { readFileSync } from "node:fs";\nimport "zlib";\nexport const x = readFileSync;\n`,
  );
  await assert.rejects(
    bundleCore({ entry, outfile: join(dir, "bad.js") }),
    (e: unknown) =>
      e instanceof BrowserBundleError &&
      e.problems.some((p) =>
        /^node:fs \(a Node built-in\) is imported by .*bad_entry\.ts/.test(p)
      ) &&
      e.problems.some((p) => /^zlib \(a Node built-in\)/.test(p)),
  );
  const sharpEntry = join(dir, "sharp_entry.ts");
  await writeFile(sharpEntry, `export const load = () => import("sharp");\n`);
  await assert.rejects(
    bundleCore({ entry: sharpEntry, outfile: join(dir, "bad.js") }),
    (e: unknown) =>
      e instanceof BrowserBundleError &&
      /sharp \(a Node-only package\) is imported by .*sharp_entry\.ts.*only core\/image\/backend\.ts/
        .test(e.message),
  );
});

test("an agent over the in-page device runs in a page: actions land, no report file, report downloads", async () => {
  const context = await browser.newContext({
    viewport: { width: 800, height: 600 },
    deviceScaleFactor: 1,
    acceptDownloads: true,
  });
  const page: Page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));

  let model: TestModel | undefined;
  let plans = 0;
  try {
    // The zoomed call of deepLocate: the first box enlarged to a third of the screenshot's side
    // (or twice the box), moved inside the image, scaled by min(2, screen / region)
    // (docs/model-protocol.md); the answer is the button's box inside that crop.
    let zoomCalls = 0;
    const norm = (v: number, size: number) => Math.round(v * 1000 / (size - 1));
    const zoomAnswer = async (image: { width: number; height: number }) => {
      const b = await measure(page, "#add");
      const box = [b.left, b.top, b.left + b.width, b.top + b.height];
      if (zoomCalls++ % 2 === 0) {
        return [norm(box[0], 800), norm(box[1], 600), norm(box[2], 800), norm(box[3], 600)];
      }
      const side = (len: number, size: number) =>
        Math.min(size, Math.max(Math.ceil(size / 3), Math.ceil(len * 2)));
      const w = side(b.width, 800), h = side(b.height, 600);
      const left = Math.min(800 - w, Math.max(0, Math.round((box[0] + box[2]) / 2 - w / 2)));
      const top = Math.min(600 - h, Math.max(0, Math.round((box[1] + box[3]) / 2 - h / 2)));
      const scale = Math.max(1, Math.min(2, 800 / w, 600 / h));
      assert.deepEqual([image.width, image.height], [Math.round(w * scale), Math.round(h * scale)]);
      return [
        norm((box[0] - left) * scale, image.width),
        norm((box[1] - top) * scale, image.height),
        norm((box[2] - left) * scale, image.width),
        norm((box[3] - top) * scale, image.height),
      ];
    };
    model = await startTestModel({
      cors: true,
      answerOverride: async (call) =>
        call.kind === "locate" && call.target.includes("zoomed")
          ? JSON.stringify({ thought: "There.", bbox: await zoomAnswer(call.image!) })
          : undefined,
      viewport: { width: 800, height: 600 },
      script: {
        locate: async (call) => {
          if (/New todo/.test(call.target)) return await measure(page, "#name");
          if (/Add button/.test(call.target)) return await measure(page, "#add");
          return null;
        },
        plan: async () => {
          plans++;
          if (plans === 1) {
            return {
              log: "type the todo",
              action: {
                type: "Input",
                param: {
                  locate: { prompt: "the New todo field", box: await measure(page, "#name") },
                  value: "Buy milk",
                },
              },
            };
          }
          if (plans === 2) {
            return {
              log: "press Enter",
              action: { type: "KeyboardPress", param: { keyName: "Enter" } },
            };
          }
          return { log: "done", finished: true, output: "added" };
        },
        extract: () => page.$$eval("#list li", (lis) => lis.map((li) => li.textContent)),
      },
    });
    await page.goto(`${server.url}index.html`);
    await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true);

    const result = await page.evaluate(
      (config) =>
        (globalThis as unknown as { runAgent(c: unknown): Promise<unknown> }).runAgent(config),
      model.modelConfig(),
    ) as {
      output: string;
      items: string[];
      scrollY: number;
      reportFileBeforeDestroy: string;
      reportFile: string;
      calls: string[];
      globals: Record<string, string>;
    };

    // The actions landed: both todos are in the page's list (read by Playwright, not the agent).
    assert.deepEqual(await page.$$eval("#list li", (lis) => lis.map((li) => li.textContent)), [
      "Water the plants",
      "Buy milk",
    ]);
    assert.deepEqual(result.items, ["Water the plants", "Buy milk"]);
    assert.equal(result.output, "added");
    assert.equal(result.scrollY, 400, "aiScroll scrolled the document");
    const events = await page.evaluate(() => (globalThis as { __events?: string[] }).__events);
    assert.ok(events?.includes("click trusted=false"), `synthetic click: ${events}`);
    assert.ok(events?.includes("input insertText"), `input event: ${events}`);
    assert.ok(events?.includes("keydown Enter") && events.includes("submit"), `${events}`);
    assert.deepEqual(result.calls, [
      "aiInput passed",
      "aiTap passed",
      "aiAct passed",
      "aiTap passed",
      "aiScroll passed",
      "aiQuery passed",
    ]);

    // The model was called from the page, cross-origin, with images the page encoded.
    assert.ok(model.calls.length >= 6, `model calls: ${model.calls.length}`);
    assert.ok(model.calls.every((c) => c.status === 200), JSON.stringify(model.calls.at(-1)));
    const image = model.calls.find((c) => c.kind === "locate")?.call?.image;
    assert.equal(image?.width, 800);
    assert.equal(image?.format, "jpeg", "the PNG capture was re-encoded in the page (canvas)");
    const zoomed = model.calls.filter((c) =>
      c.call?.kind === "locate" && /zoomed/.test(c.call.target)
    )
      .map((c) => c.call!.image!);
    assert.equal(zoomed.length, 2, "deepLocate asked twice");
    assert.deepEqual([zoomed[1].format, zoomed[1].width < 800], ["jpeg", true]);
    assert.equal(
      events?.filter((e) => e === "click trusted=false").length,
      2,
      "the zoomed tap landed on Add",
    );

    // No report file, and nothing reached a file system.
    assert.equal(result.reportFileBeforeDestroy, "undefined");
    assert.equal(result.reportFile, "undefined");
    assert.deepEqual(result.globals, {
      Deno: "undefined",
      process: "undefined",
      require: "undefined",
    });
    assert.deepEqual(await runDirFiles("core-in-browser"), [], "no report under the run dir");
    const origins = new Set(requests.map((u) => new URL(u).origin));
    const allowed = new Set([new URL(server.url).origin, new URL(model.baseURL).origin, "null"]);
    for (const origin of origins) assert.ok(allowed.has(origin), `unexpected request to ${origin}`);
    assert.deepEqual(pageErrors, []);

    // The report downloads as one HTML file, and that file shows the calls.
    const [download, length] = await Promise.all([
      page.waitForEvent("download"),
      page.evaluate(() => (globalThis as unknown as { downloadReport(): number }).downloadReport()),
    ]);
    assert.equal(download.suggestedFilename(), "core-in-browser-report.html");
    const html = await readFile((await download.path())!, "utf8");
    assert.equal(html.length, length);
    assert.match(html, /<script type="sdk-screenshot"/);
    await writeFile(join(dir, "report.html"), html);
    const viewer = await context.newPage();
    const viewerErrors: string[] = [];
    viewer.on("pageerror", (e) => viewerErrors.push(e.message));
    await viewer.goto(`${server.url}report.html`);
    await viewer.waitForFunction(() => document.querySelector("#hdr")?.childElementCount);
    const listText = await viewer.locator("#list").innerText();
    for (const api of ["aiInput", "aiTap", "aiAct", "aiScroll", "aiQuery"]) {
      assert.ok(listText.includes(api), `the viewer lists ${api}: ${listText}`);
    }
    assert.ok(listText.includes("the Add button"), listText);
    assert.match(await viewer.locator("#hdr").innerText(), /core-in-browser/);
    await viewer.locator("#detail img").first().waitFor({ state: "attached" });
    assert.deepEqual(viewerErrors, []);
  } finally {
    await model?.close();
    await context.close();
  }
});

test("a model endpoint that refuses CORS fails the in-page call as a ModelCallError that says CORS and points at the docs", async () => {
  const page = await browser.newPage();
  // No `cors`: the server answers no preflight, so the page's fetch fails without an answer.
  const model = await startTestModel({ script: { locate: () => null } });
  try {
    await page.goto(`${server.url}index.html`);
    await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true);
    const failure = await page.evaluate(async (modelConfig) => {
      const sdk = await import("./sdk-core.js" as string);
      const agent = new sdk.Agent(
        new sdk.InPageDevice({
          captureScreenshot: () => {
            const canvas = document.createElement("canvas");
            canvas.width = innerWidth;
            canvas.height = innerHeight;
            return Promise.resolve(canvas.toDataURL("image/png"));
          },
        }),
        { modelConfig: { ...modelConfig, SDK_MODEL_MAX_RETRIES: 0 }, autoPrintReportMsg: false },
      );
      try {
        await agent.aiTap("the Add button");
        return null;
      } catch (e) {
        const err = e as Error & { code?: string; kind?: string };
        return { name: err.name, code: err.code, kind: err.kind, message: err.message };
      }
    }, model.modelConfig());
    assert.ok(failure, "the call failed");
    assert.equal(failure.name, "ModelCallError");
    assert.equal(failure.code, "MODEL_CALL_FAILED");
    assert.equal(failure.kind, "connection");
    assert.match(failure.message, /most often CORS/);
    assert.match(failure.message, /docs\/in-browser\.md/);
    assert.ok(failure.message.includes(new URL(server.url).origin), failure.message);
  } finally {
    await page.close();
    await model.close();
  }
});
