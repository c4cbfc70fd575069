/// <reference lib="dom" />
/**
 * The merged report in Chromium: three real reports (written by ReportWriter over real screenshots,
 * with a failed execution) and a skipped test, merged, opened from `file://` and read the way a
 * person reads it; the directory layout served over HTTP with its screenshot files.
 */
import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { parseReportHtml } from "./_format.ts";
import { execution, step, withRunDir } from "./_test_helpers.ts";
import {
  assertMarks,
  buildExecutions,
  makeScreenshots,
  openReport,
  replayGeometry,
  type Shot,
  useBrowser,
} from "./_viewer_fixtures.ts";
import { ReportMergingTool } from "./merge.ts";
import { type ReportOutputFormat, ReportWriter } from "./writer.ts";

const OUTPUT_PNG = new URL("../../tests/output/merged-report.png", import.meta.url);
const chromium = useBrowser();
const EVIL = `<img src=x onerror=alert(1)><b id="bold">bold</b></script><script>alert(2)</script>`;

/** JPEG screenshots of the same pages (the agents' default format). */
async function jpegShots(browser: Browser, shots: Shot[]): Promise<string[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const out: string[] = [];
  for (const shot of shots) {
    await page.setContent(`<img src="${shot.uri}" style="display:block">`);
    const jpeg = await page.screenshot({ type: "jpeg", quality: 60 });
    out.push(`data:image/jpeg;base64,${jpeg.toString("base64")}`);
  }
  await page.close();
  return out;
}

/** The checkout report: aiTap, aiAct (6 steps) and a failed aiAssert, PNG screenshots. */
async function checkoutReport(shots: Shot[], format?: ReportOutputFormat): Promise<string> {
  const writer = await ReportWriter.create({
    name: format ? "checkout-ext" : "checkout",
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    outputFormat: format,
  });
  for (const e of buildExecutions(writer, shots)) await writer.writeExecution(e);
  return (await writer.finalize())!;
}

/** A small report of one JPEG step per prompt; the last execution fails when `fail` is set. */
async function smallReport(
  name: string,
  jpegs: string[],
  prompts: string[],
  fail = false,
): Promise<string> {
  const writer = await ReportWriter.create({
    name,
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
  });
  for (const [i, prompt] of prompts.entries()) {
    const failed = fail && i === prompts.length - 1;
    await writer.writeExecution(execution({
      id: String(i + 1),
      apiName: failed ? "aiAssert" : "aiTap",
      prompt,
      status: failed ? "failed" : "passed",
      error: failed ? `Assertion failed: ${prompt}` : undefined,
      steps: [step({
        kind: failed ? "Assert" : "Locate",
        title: `Step of ${prompt}`,
        status: failed ? "failed" : "passed",
        screenshot: writer.addScreenshot(jpegs[i % jpegs.length]),
        screenshotSize: { width: 1280, height: 800 },
        target: { left: 100, top: 100, width: 200, height: 80 },
      })],
    }));
  }
  return (await writer.finalize())!;
}

/** What the merged section shows for each source. */
function sourceRows(page: Page) {
  return page.locator("nav .sources .src:not(.src-all)").evaluateAll((els) =>
    els.map((el) => ({
      title: el.querySelector(".src-title")!.textContent,
      status: el.querySelector(".spill")!.textContent,
      duration: el.querySelector(".src-dur")!.textContent,
      description: el.querySelector(".src-desc")?.textContent ?? "",
    }))
  );
}

/** Prompts of the executions listed (not hidden by the source filter). */
function visiblePrompts(page: Page): Promise<string[]> {
  return page.locator("nav .items .ex:not(.src-off) .prompt").allInnerTexts();
}

/** Waits until every screenshot of the shown execution decoded; returns their natural widths. */
async function shownScreenshots(page: Page): Promise<number[]> {
  for (const img of await page.locator("#detail .shot img").all()) {
    await img.scrollIntoViewIfNeeded();
  }
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>("#detail .shot img")].every((i) =>
      i.complete && i.naturalWidth > 0
    )
  );
  return page.locator("#detail .shot img").evaluateAll((imgs) =>
    imgs.map((i) => (i as HTMLImageElement).naturalWidth)
  );
}

test("a merged report opened from file:// lists each source with status, duration and title, shows each source's executions and screenshots, and keeps titles inert", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  const jpegs = await jpegShots(browser, shots);
  await withRunDir(async () => {
    const checkout = await checkoutReport(shots);
    const login = await smallReport("login", jpegs, ["the Sign in button", "the user menu"]);
    const evil = await smallReport("evil", jpegs.slice(1), [`prompt ${EVIL}`], true);
    const tool = new ReportMergingTool();
    tool.append({
      reportFilePath: checkout,
      reportAttributes: {
        testId: "checkout-1",
        testTitle: "Checkout puts the desk in the cart",
        testDescription: "tap, act and a failing assertion",
        testDuration: 18_900,
        testStatus: "failed",
      },
    });
    tool.append({
      reportFilePath: login,
      reportAttributes: {
        testId: "login-1",
        testTitle: "Login works",
        testDescription: "",
        testDuration: 2_140,
        testStatus: "passed",
      },
    });
    tool.append({
      reportFilePath: evil,
      reportAttributes: {
        testId: `evil ${EVIL}`,
        testTitle: EVIL,
        testDescription: `description ${EVIL}`,
        testDuration: 650,
        testStatus: "timedOut",
      },
    });
    tool.append({
      reportAttributes: {
        testId: "later-1",
        testTitle: "Settings (skipped)",
        testDescription: "not run today",
        testDuration: 0,
        testStatus: "skipped",
      },
    });
    const merged = (await tool.mergeReports("merged-view"))!;
    assert.equal(extname(merged), ".html");

    const { page, errors } = await openReport(browser, merged);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });

    // The source list: each source with its title, status and duration, in append order.
    assert.deepEqual(await sourceRows(page), [
      {
        title: "Checkout puts the desk in the cart",
        status: "failed",
        duration: "18.9 s",
        description: "tap, act and a failing assertion",
      },
      { title: "Login works", status: "passed", duration: "2.14 s", description: "" },
      { title: EVIL, status: "timedOut", duration: "650 ms", description: `description ${EVIL}` },
      {
        title: "Settings (skipped)",
        status: "skipped",
        duration: "0 ms",
        description: "not run today",
      },
    ]);
    assert.match(await page.locator("header").innerText(), /Merged[\s\S]*4 sources/i);
    // All executions at first: 3 + 2 + 1.
    assert.equal((await visiblePrompts(page)).length, 6);

    // Login: only its executions, the first selected, with its screenshot decoded.
    await page.locator("nav .src", { hasText: "Login works" }).click();
    assert.deepEqual(await visiblePrompts(page), ["the Sign in button", "the user menu"]);
    assert.equal(await page.locator("#detail .exhead .prompt").innerText(), "the Sign in button");
    assert.match(
      await page.locator("#detail .src-head").innerText(),
      /Login works[\s\S]*passed/i,
    );
    assert.deepEqual(await shownScreenshots(page), [1280]);
    await page.locator("nav .ex:not(.src-off)").nth(1).click();
    assert.equal(await page.locator("#detail .exhead .prompt").innerText(), "the user menu");
    assert.deepEqual(await shownScreenshots(page), [1280]);
    assert.match(await page.locator("#detail .src-head").innerText(), /Login works/);

    // Checkout: its three executions; the failed assertion shows its error and screenshot.
    await page.locator("nav .src", { hasText: "Checkout puts" }).click();
    const checkoutPrompts = await visiblePrompts(page);
    assert.equal(checkoutPrompts.length, 3);
    assert.equal(await page.locator("nav .ex.sel .prompt").innerText(), checkoutPrompts[0]);
    await page.locator("nav .ex:not(.src-off)").nth(1).click(); // aiAct, 6 steps
    assert.equal(await page.locator("#detail li.step").count(), 6);
    assert.deepEqual(await shownScreenshots(page), [1280, 1280, 1280, 1280, 1280, 1280]);
    await page.locator("nav .ex.failed:not(.src-off)").click();
    assert.match(await page.locator("#detail .exhead .err").innerText(), /no cart badge/);
    assert.deepEqual(await shownScreenshots(page), [1280]);
    await mkdir(new URL(".", OUTPUT_PNG), { recursive: true });
    await page.screenshot({ path: OUTPUT_PNG.pathname, fullPage: true });

    // The XSS source: its title and texts literal, nothing injected, no dialog.
    await page.locator("nav .src.timedOut").click();
    assert.deepEqual(await visiblePrompts(page), [`prompt ${EVIL}`]);
    assert.equal(await page.locator("#detail .src-head .src-title").textContent(), EVIL);
    assert.equal(
      await page.locator("#detail .src-head .src-desc").textContent(),
      `description ${EVIL}`,
    );
    assert.ok((await page.locator("#detail .src-head").innerText()).includes(`evil ${EVIL}`));
    assert.deepEqual(await shownScreenshots(page), [1280]);
    const dom = await page.evaluate(() => ({
      bold: document.querySelectorAll("#bold").length,
      strayImages: [...document.images].filter((i) => !i.closest(".shot")).length,
      scripts: [...document.scripts].filter((s) => !s.type || s.type === "text/javascript")
        .length,
    }));
    assert.deepEqual(
      dom,
      { bold: 0, strayImages: 0, scripts: 2 },
      "viewer + merged section only",
    );

    // The skipped test: listed, no executions, says so.
    await page.locator("nav .src.skipped").click();
    assert.deepEqual(await visiblePrompts(page), []);
    assert.match(
      await page.locator("#detail").innerText(),
      /Settings \(skipped\)[\s\S]*No report/,
    );

    // All sources again.
    await page.locator("nav .src-all").click();
    assert.equal((await visiblePrompts(page)).length, 6);
    // The data the page reads matches the file.
    const sources = await page.evaluate(() =>
      (window as unknown as { __SDK_MERGED__: { sources: unknown[] } }).__SDK_MERGED__.sources
    );
    assert.deepEqual(sources, parseReportHtml(await readFile(merged, "utf8")).sources);
    await page.waitForTimeout(200); // a late onerror would fire by now
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
  });
});

test("a merged report keeps the viewer's timeline, replay, deep links, keys and filters, over the source picked", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  const jpegs = await jpegShots(browser, shots);
  await withRunDir(async () => {
    const tool = new ReportMergingTool();
    const attributes = (testId: string, testTitle: string) => ({
      testId,
      testTitle,
      testDescription: "",
      testDuration: 1000,
      testStatus: "passed" as const,
    });
    tool.append({
      reportFilePath: await checkoutReport(shots),
      reportAttributes: attributes("checkout-1", "Checkout"),
    });
    tool.append({
      reportFilePath: await smallReport("login", jpegs, ["the Sign in button", "the user menu"]),
      reportAttributes: attributes("login-1", "Login works"),
    });
    const merged = (await tool.mergeReports("merged-nav"))!;
    const sent = parseReportHtml(await readFile(merged, "utf8")).executions;
    assert.deepEqual(sent.map((e) => e.id), ["s1:1", "s1:2", "s1:3", "s2:1", "s2:2"]);

    // A deep link counts every execution of the merged report: the aiAct of the first source.
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${pathToFileURL(merged).href}#execution-2/step-3`);
    await page.waitForSelector("#detail li.step.cur");
    const where = async () => ({
      ex: await page.locator("nav .ex.sel").getAttribute("data-id"),
      hash: new URL(page.url()).hash,
    });
    assert.deepEqual(await where(), { ex: "s1:2", hash: "#execution-2/step-3" });
    assert.equal(await page.locator("#detail li.step.cur").getAttribute("data-step"), "3");
    assert.match(await page.locator("#detail .src-head").innerText(), /Checkout/);
    assert.equal(await page.locator("#detail .tl .thumb").count(), 6);

    // The replay shows the step with the pointer on its target.
    await page.keyboard.press("r");
    assertMarks(await replayGeometry(page), sent[1].steps[2], "merged 2/3");
    await page.keyboard.press("Escape");

    // Picking a source: keys and the replay stay within its executions.
    await page.locator("nav .src", { hasText: "Login works" }).click();
    assert.deepEqual(await where(), { ex: "s2:1", hash: "#execution-4" });
    for (const hash of ["#execution-4/step-1", "#execution-5", "#execution-5/step-1"]) {
      await page.keyboard.press("j");
      assert.equal((await where()).hash, hash);
    }
    await page.keyboard.press("j");
    await page.keyboard.press("n");
    assert.equal((await where()).hash, "#execution-5/step-1", "the end of the source");
    await page.keyboard.press("p");
    assert.deepEqual(await where(), { ex: "s2:1", hash: "#execution-4" });
    await page.keyboard.press("r");
    assertMarks(await replayGeometry(page), sent[3].steps[0], "merged 4/1");
    await page.locator(".replay .rp-next").click();
    assertMarks(await replayGeometry(page), sent[4].steps[0], "merged 5/1");
    await page.locator(".replay .rp-next").click();
    assert.equal((await where()).hash, "#execution-5/step-1", "no step of a hidden source");
    await page.keyboard.press("Escape");

    // The filters narrow within the source.
    await page.fill('nav input[name="q"]', "user menu");
    assert.deepEqual(
      await page.locator("nav .items .ex:not(.src-off)").evaluateAll((e) =>
        e.map((x) => x.getAttribute("data-id"))
      ),
      ["s2:2"],
    );
    await page.locator("nav .src-all").click();
    await page.fill('nav input[name="q"]', "");
    assert.equal(await page.locator("nav .items .ex:not(.src-off)").count(), 5);
    assert.deepEqual(errors, []);
  });
});

test("a merged report with an html-and-external-assets source is a directory whose screenshots load over HTTP", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  const jpegs = await jpegShots(browser, shots);
  await withRunDir(async (dir) => {
    const external = await checkoutReport(shots, "html-and-external-assets");
    const inline = await smallReport("inline", jpegs, ["the basket"]);
    const tool = new ReportMergingTool();
    for (const [i, file] of [external, inline].entries()) {
      tool.append({
        reportFilePath: file,
        reportAttributes: {
          testId: `t${i}`,
          testTitle: `Test ${i}`,
          testDescription: "",
          testDuration: 1000 * (i + 1),
          testStatus: "passed",
        },
      });
    }
    const index = (await tool.mergeReports("served"))!;
    assert.equal(index, join(dir, "report", "served", "index.html"));

    const root = join(dir, "report", "served");
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const path = decodeURIComponent(new URL(req.url).pathname);
      if (path === "/favicon.ico") return new Response(null, { status: 204 });
      const file = join(root, path === "/" ? "index.html" : path.slice(1));
      if (!file.startsWith(root)) return new Response("no", { status: 403 });
      try {
        const type = file.endsWith(".html")
          ? "text/html; charset=utf-8"
          : file.endsWith(".jpg")
          ? "image/jpeg"
          : "image/png";
        return new Response(await Deno.readFile(file), { headers: { "content-type": type } });
      } catch {
        return new Response("missing", { status: 404 });
      }
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto(`http://127.0.0.1:${server.addr.port}/`);
      await page.waitForSelector("nav .src");
      assert.deepEqual(await sourceRows(page), [
        { title: "Test 0", status: "passed", duration: "1.00 s", description: "" },
        { title: "Test 1", status: "passed", duration: "2.00 s", description: "" },
      ]);
      await page.locator("nav .src", { hasText: "Test 0" }).click();
      await page.locator("nav .ex:not(.src-off)").nth(1).click();
      assert.deepEqual(await shownScreenshots(page), [1280, 1280, 1280, 1280, 1280, 1280]);
      await page.locator("nav .src", { hasText: "Test 1" }).click();
      assert.deepEqual(await shownScreenshots(page), [1280]);
      const srcs = await page.locator("#detail .shot img").evaluateAll((imgs) =>
        imgs.map((i) => i.getAttribute("src"))
      );
      assert.match(
        srcs[0]!,
        /^screenshots\/[A-Za-z0-9._-]+\.jpg$/,
        "inline JPEG written as .jpg",
      );
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await server.shutdown();
    }
  });
});

test("a merged report of runs on several devices shows a device x script matrix whose cells open each run", async () => {
  const browser = chromium();
  const jpegs = await jpegShots(browser, (await makeScreenshots(browser)).slice(0, 1));
  await withRunDir(async () => {
    const tool = new ReportMergingTool();
    const runs: [string, string, "passed" | "failed"][] = [
      ["login.yaml", "mobilea:phone-1", "passed"],
      ["login.yaml", "mobileb:127.0.0.1:8100", "failed"],
      ["search.yaml", "mobilea:phone-1", "passed"],
    ];
    for (const [script, device, status] of runs) {
      const report = await smallReport(
        `${script}-${device.replace(/[^a-z0-9]/gi, "_")}`,
        jpegs,
        [`a step of ${script} on ${device}`],
        status === "failed",
      );
      tool.append({
        reportFilePath: report,
        reportAttributes: {
          testId: `${script} @ ${device}`,
          testTitle: script,
          testDescription: "",
          testDuration: 1_500,
          testStatus: status,
          testDevice: device,
        },
      });
    }
    const merged = (await tool.mergeReports("devices"))!;
    const { page, errors } = await openReport(browser, merged);
    const table = page.getByRole("table", { name: "Device matrix" });
    const rows = await table.locator("tr").evaluateAll((trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent))
    );
    assert.deepEqual(rows, [
      ["script", "mobilea:phone-1", "mobileb:127.0.0.1:8100"],
      ["login.yaml", "passed 1.50 s", "failed 1.50 s"],
      ["search.yaml", "passed 1.50 s", "-"],
    ]);
    await table.locator("button.mcell.failed").click();
    assert.deepEqual(await visiblePrompts(page), [
      "a step of login.yaml on mobileb:127.0.0.1:8100",
    ]);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
