/// <reference lib="dom" />
/**
 * The viewer's deep links, keys and filters in Chromium: `#execution-N/step-M` opens that step and
 * follows every move; j/k walk through steps across executions, n/p between executions; the
 * status, API and search filters narrow the list and mark matching steps.
 */
import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { execution, step, withRunDir } from "./_test_helpers.ts";
import { makeScreenshots, useBrowser } from "./_viewer_fixtures.ts";
import type { ReportExecution } from "./types.ts";
import { ReportWriter } from "./writer.ts";

const chromium = useBrowser();

async function report(executions: ReportExecution[]): Promise<string> {
  const writer = await ReportWriter.create({
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
  });
  for (const e of executions) await writer.writeExecution(e);
  return (await writer.finalize())!;
}

/** 80 aiTap executions of two steps each. */
function taps(): ReportExecution[] {
  return Array.from({ length: 80 }, (_, k) => {
    const i = k + 1;
    return execution({
      id: `tap-${i}`,
      prompt: `button number ${i}`,
      steps: [
        step({ kind: "Locate", title: `Locate ${i}`, thought: `thought ${i}` }),
        step({ kind: "Action", title: `Tap ${i}`, param: { n: i } }),
      ],
    });
  });
}

/** Opens `file` at `hash`, failing on page errors. */
async function open(browser: Browser, file: string, hash = "") {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${pathToFileURL(file).href}${hash}`);
  await page.waitForSelector(".ex");
  return { page, errors };
}

/** What is shown: the selected execution, the current step (0: none) and the address. */
async function where(page: Page) {
  return {
    ex: await page.locator("nav .ex.sel").getAttribute("data-id"),
    step: Number(
      await page.locator("#detail li.step.cur").getAttribute("data-step", {
        timeout: 100,
      }).catch(() => 0),
    ),
    hash: new URL(page.url()).hash,
  };
}

/**
 * Asserts what is shown, reading it until it matches for up to 5 s: on a loaded machine the step a
 * key or a link selects may be drawn later than `where()`'s 100 ms read.
 */
async function assertShown(
  page: Page,
  expected: { ex: string | null; step: number; hash: string },
  message?: string,
): Promise<void> {
  let shown = await where(page);
  for (const end = Date.now() + 5000; Date.now() < end;) {
    if (JSON.stringify(shown) === JSON.stringify(expected)) break;
    await new Promise((r) => setTimeout(r, 50));
    shown = await where(page);
  }
  assert.deepEqual(shown, expected, message);
}

/**
 * Waits until the current step's card is built and at the top of the view, below the header (or
 * wholly in view, when the page ends before it could reach the top).
 */
function stepInView(page: Page) {
  return page.waitForFunction(() => {
    const card = document.querySelector("#detail li.step.cur");
    const r = card?.getBoundingClientRect();
    return !!r && r.top >= 60 && (r.top < 120 || r.bottom <= innerHeight) &&
      !!card!.querySelector(".step-body");
  });
}

test("deep links: #execution-N/step-M opens that step, #execution-N that execution; the old #<id> still works", async () => {
  const browser = chromium();
  await withRunDir(async () => {
    const file = await report(taps());
    const { page, errors } = await open(browser, file, "#execution-60/step-2");
    await assertShown(page, { ex: "tap-60", step: 2, hash: "#execution-60/step-2" });
    assert.equal(await page.locator("#detail li.step.cur .title").textContent(), "Tap 60");
    await stepInView(page);
    assert.ok(
      await page.locator("nav .ex.sel").evaluate((b) => {
        const nav = document.getElementById("list")!.getBoundingClientRect();
        const r = b.getBoundingClientRect();
        return r.top >= nav.top && r.bottom <= nav.bottom;
      }),
      "the execution is scrolled into the list's view",
    );
    // Editing the address moves too.
    await page.evaluate(() => location.hash = "#execution-3/step-1");
    await page.waitForFunction(() =>
      document.querySelector("nav .ex.sel")?.getAttribute("data-id") === "tap-3"
    );
    await assertShown(page, { ex: "tap-3", step: 1, hash: "#execution-3/step-1" });
    await page.close();

    for (
      const [hash, expected] of [
        ["#execution-7", { ex: "tap-7", step: 0, hash: "#execution-7" }],
        ["#tap-12", { ex: "tap-12", step: 0, hash: "#execution-12" }],
        ["#execution-5/step-9", { ex: "tap-5", step: 2, hash: "#execution-5/step-2" }],
        ["#execution-99/step-1", { ex: "tap-1", step: 0, hash: "#execution-99/step-1" }],
      ] as const
    ) {
      const other = await open(browser, file, hash);
      await assertShown(other.page, expected, hash);
      assert.deepEqual(other.errors, []);
      await other.page.close();
    }
    assert.deepEqual(errors, []);
  });
});

test("keys: j/k and arrows walk through steps across executions, n/p jump executions, / searches, ? helps, and the address follows", async () => {
  const browser = chromium();
  await withRunDir(async () => {
    const file = await report(taps());
    const { page, errors } = await open(browser, file, "#execution-60");
    const at = (ex: string, step: number) =>
      assertShown(page, {
        ex,
        step,
        hash: `#execution-${ex.slice(4)}${step ? `/step-${step}` : ""}`,
      });
    await at("tap-60", 0);
    await page.keyboard.press("j");
    await at("tap-60", 1);
    await stepInView(page);
    await page.keyboard.press("ArrowDown");
    await at("tap-60", 2);
    await page.keyboard.press("j"); // past the last step: the next execution
    await at("tap-61", 0);
    await page.keyboard.press("ArrowRight");
    await at("tap-61", 1);
    await page.keyboard.press("k");
    await page.keyboard.press("ArrowLeft"); // back across the execution's start
    await at("tap-60", 2);
    await page.keyboard.press("ArrowUp");
    await at("tap-60", 1);
    await page.keyboard.press("n");
    await at("tap-61", 0);
    await page.keyboard.press("p");
    await page.keyboard.press("p");
    await at("tap-59", 0);
    for (let i = 0; i < 70; i++) await page.keyboard.press("j");
    await at("tap-80", 2); // stops at the end
    await page.keyboard.press("n");
    await at("tap-80", 2);

    // "/" puts the keys into the search box, where they type.
    await page.keyboard.press("/");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "q");
    await page.keyboard.type("number 8");
    assert.equal(await page.locator("nav .ex").count(), 2); // 8, 80
    assert.equal(new URL(page.url()).hash, "#execution-80/step-2", "typing moved nothing");
    assert.equal(await page.locator("#detail li.step.cur .title").textContent(), "Tap 80");
    // A search that no longer lists the call shown moves the detail to the first call listed.
    await page.fill('nav input[name="q"]', "number 7");
    assert.equal(await page.locator("nav .ex").count(), 11); // 7, 70..79
    await at("tap-7", 0);
    // With a filter, j and n move over the executions listed only.
    await page.locator("nav .ex").first().click();
    await at("tap-7", 0);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await at("tap-70", 0);
    await page.keyboard.press("n");
    await at("tap-71", 0);

    // "?" lists the keys; Escape closes it.
    await page.keyboard.press("?");
    const help = await page.locator(".help").innerText();
    for (const key of ["j", "k", "n", "p", "r", "Space", "/", "Esc"]) {
      assert.match(help, new RegExp(`(^|\\s)${key.replace("/", "\\/")}(\\s|$)`), key);
    }
    assert.match(help, /#execution-3\/step-2/);
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(".help").count(), 0);
    await page.locator("#hdr .help-btn").click();
    assert.equal(await page.locator(".help").count(), 1);
    await page.keyboard.press("?");
    assert.equal(await page.locator(".help").count(), 0);
    assert.deepEqual(errors, []);
  });
});

test("filters: by status, by API and by text in prompts and answers (raw answers, retried calls, errors); matching steps marked", async () => {
  const browser = chromium();
  const [shot] = await makeScreenshots(browser);
  await withRunDir(async () => {
    const writer = await ReportWriter.create({
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    const id = writer.addScreenshot(shot.uri);
    const shotStep = (title: string, extra = {}) =>
      step({
        kind: "Locate",
        title,
        screenshot: id,
        screenshotSize: { width: 1280, height: 800 },
        ...extra,
      });
    const execs = [
      execution({
        id: "a",
        apiName: "aiTap",
        prompt: "the Sign in button",
        steps: [shotStep("one")],
      }),
      execution({
        id: "b",
        apiName: "aiQuery",
        prompt: "the product names",
        output: ["Lamp", "Chair"],
        steps: [shotStep("one"), shotStep("two", { rawResponse: '{"names":["Giraffe lamp"]}' })],
      }),
      execution({
        id: "c",
        apiName: "aiTap",
        prompt: "the cart icon",
        status: "failed",
        error: "Element not found: the cart icon",
        steps: [
          shotStep("one"),
          shotStep("two"),
          shotStep("three", {
            status: "failed",
            attempts: [
              { rawResponse: "a Zebra-striped icon, maybe", error: "no JSON object" },
              { rawResponse: '{"bbox":null}' },
            ],
          }),
        ],
      }),
      execution({ id: "d", apiName: "aiAssert", prompt: "the cart is empty", status: "failed" }),
      execution({ id: "e", apiName: "aiQuery", prompt: "the cart total", status: "running" }),
    ];
    for (const e of execs) await writer.writeExecution(e);
    const file = (await writer.finalize())!;
    const { page, errors } = await open(browser, file);
    const listed = () =>
      page.locator("nav .ex").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
    const count = () => page.locator("nav .fcount").textContent();

    assert.deepEqual(
      await page.locator('nav select[name="status"] option').allTextContents(),
      ["All statuses", "passed (2)", "failed (2)", "running (1)"],
    );
    assert.deepEqual(
      await page.locator('nav select[name="api"] option').allTextContents(),
      ["All APIs", "aiTap (2)", "aiQuery (2)", "aiAssert (1)"],
    );
    await page.selectOption('nav select[name="status"]', "failed");
    assert.deepEqual(await listed(), ["c", "d"]);
    assert.equal(await count(), "2 of 5 executions");
    await page.selectOption('nav select[name="api"]', "aiTap");
    assert.deepEqual(await listed(), ["c"]);
    await page.selectOption('nav select[name="status"]', "");
    assert.deepEqual(await listed(), ["a", "c"]);
    await page.selectOption('nav select[name="api"]', "aiQuery");
    assert.deepEqual(await listed(), ["b", "e"]);
    await page.selectOption('nav select[name="api"]', "");
    assert.equal(await count(), "");

    const search = async (q: string) => {
      await page.fill('nav input[name="q"]', q);
      return await listed();
    };
    assert.deepEqual(await search("CART"), ["c", "d", "e"], "prompts, any case");
    assert.deepEqual(await search("giraffe"), ["b"], "a raw answer");
    assert.deepEqual(await search("chair"), ["b"], "an output");
    assert.deepEqual(await search("element not found"), ["c"], "an error");
    assert.deepEqual(await search("zebra-striped"), ["c"], "the answer of a retried call");
    assert.deepEqual(await search("no such text"), []);
    assert.equal(await page.locator("nav .items .empty").textContent(), "No match.");

    // The matching steps of the execution shown are marked, on their cards and thumbnails.
    await search("zebra");
    await page.locator("nav .ex").click();
    assert.deepEqual(
      await page.locator("#detail li.step.hit").evaluateAll((e) =>
        e.map((x) => x.getAttribute("data-step"))
      ),
      ["3"],
    );
    assert.deepEqual(
      await page.locator("#detail .thumb.hit").evaluateAll((e) =>
        e.map((x) => x.getAttribute("data-step"))
      ),
      ["3"],
    );
    assert.equal(await page.locator("#detail .exhead .hits").textContent(), "1 step matches");
    await search("one");
    assert.equal(await page.locator("#detail .exhead .hits").textContent(), "1 step matches");
    assert.deepEqual(await listed(), ["a", "b", "c"]);
    await search("");
    assert.equal(await page.locator("#detail li.step.hit, #detail .exhead .hits").count(), 0);
    assert.deepEqual(await listed(), ["a", "b", "c", "d", "e"]);
    assert.deepEqual(errors, []);
  });
});

test("a deep link keeps the call's header in view when the step fits under it, else puts the step at the top", async () => {
  const browser = chromium();
  await withRunDir(async () => {
    const file = await report(Array.from({ length: 80 }, (_, k) =>
      execution({
        id: `tap-${k + 1}`,
        prompt: `button number ${k + 1}`,
        steps: Array.from({ length: 8 }, (_, s) =>
          step({ kind: "Locate", title: `Locate ${k + 1}.${s + 1}`, thought: `thought ${s + 1}` })),
      })));
    const boxes = (page: Page) =>
      page.evaluate(() => {
        const top = document.querySelector("header")!.getBoundingClientRect().bottom;
        const r = (s: string) => document.querySelector(s)!.getBoundingClientRect();
        const head = r("#detail .exhead"), cur = r("#detail li.step.cur");
        return {
          headInView: head.top >= top && head.bottom <= innerHeight,
          stepInView: cur.top >= top && cur.bottom <= innerHeight,
          stepAtTop: cur.top >= top && cur.top < top + 60,
        };
      });
    const { page, errors } = await open(browser, file, "#execution-60/step-2");
    await assertShown(page, { ex: "tap-60", step: 2, hash: "#execution-60/step-2" });
    await page.waitForFunction(() => !!document.querySelector("#detail li.step.cur .step-body"));
    // Rendering settles over two frames; what is shown then must hold.
    await page.evaluate(() =>
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
    );
    assert.deepEqual(await boxes(page), { headInView: true, stepInView: true, stepAtTop: false });
    // A step too far down to fit under the header goes to the top, as before.
    await page.evaluate(() => location.hash = "#execution-60/step-8");
    await assertShown(page, { ex: "tap-60", step: 8, hash: "#execution-60/step-8" });
    await stepInView(page);
    assert.equal((await boxes(page)).headInView, false);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

test("with a filter or a search active, the detail and the replay start on the first call the list shows", async () => {
  const browser = chromium();
  await withRunDir(async () => {
    const file = await report([
      execution({ id: "a", prompt: "the Sign in button", steps: [step({ title: "a1" })] }),
      execution({ id: "b", prompt: "the cart icon", steps: [step({ title: "b1" })] }),
      execution({
        id: "c",
        prompt: "the missing banner",
        status: "failed",
        steps: [step({ title: "c1" }), step({ title: "c2" })],
      }),
    ]);
    const { page, errors } = await open(browser, file);
    const shown = () => page.locator("#detail .exhead .prompt").textContent();
    await page.locator('nav .ex[data-id="c"]').click();
    assert.equal(await shown(), "the missing banner");
    // Only passed calls: c is no longer listed, so the detail moves to the first listed, a.
    await page.selectOption('nav select[name="status"]', "passed");
    await page.waitForFunction(() =>
      document.querySelector("#detail .exhead .prompt")?.textContent === "the Sign in button"
    );
    assert.equal(await page.locator("nav .ex.sel").getAttribute("data-id"), "a");
    await page.keyboard.press("r");
    assert.equal(await page.locator(".replay .rp-prompt").textContent(), "the Sign in button");
    await page.keyboard.press("Escape");
    // A search that c matches but the status filter does not; then one that b alone matches.
    await page.selectOption('nav select[name="status"]', "");
    await page.fill('nav input[name="q"]', "cart");
    await page.waitForFunction(() =>
      document.querySelector("#detail .exhead .prompt")?.textContent === "the cart icon"
    );
    await page.locator("#detail .replay-btn").click();
    assert.equal(await page.locator(".replay .rp-prompt").textContent(), "the cart icon");
    await page.keyboard.press("Escape");
    // Nothing listed: nothing is shown, and the replay does not open.
    await page.fill('nav input[name="q"]', "no such text");
    await page.waitForFunction(() => !document.querySelector("#detail .exhead"));
    await page.locator("body").press("r");
    assert.equal(await page.locator(".replay").count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
