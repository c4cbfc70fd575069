/// <reference lib="dom" />
import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { parseReportHtml } from "./_format.ts";
import { execution, step, withRunDir } from "./_test_helpers.ts";
import {
  buildExecutions,
  makeScreenshots,
  near,
  openReport,
  useBrowser,
} from "./_viewer_fixtures.ts";
import type { ReportExecution } from "./types.ts";
import { ReportWriter } from "./writer.ts";

const OUTPUT_PNG = new URL("../../tests/output/report-viewer.png", import.meta.url);
const chromium = useBrowser();

/** Where the overlays sit relative to their image, in CSS pixels, and where they should. */
function overlayGeometry(page: Page) {
  return page.evaluate(() => {
    const out: { box?: number[]; pt?: number[]; img: number[]; natural: number }[] = [];
    for (const wrap of document.querySelectorAll("#detail .shot")) {
      const img = wrap.querySelector("img")!.getBoundingClientRect();
      const box = wrap.querySelector(".box")?.getBoundingClientRect();
      const pt = wrap.querySelector(".pt")?.getBoundingClientRect();
      out.push({
        img: [img.left, img.top, img.width, img.height],
        box: box && [box.left - img.left, box.top - img.top, box.width, box.height],
        pt: pt && [pt.left + pt.width / 2 - img.left, pt.top + pt.height / 2 - img.top],
        natural: wrap.querySelector("img")!.naturalWidth,
      });
    }
    return out;
  });
}

async function loadAllImages(page: Page): Promise<void> {
  // Screenshots load lazily: bring each into view, then wait for all to decode.
  for (const img of await page.locator("#detail .shot img").all()) {
    await img.scrollIntoViewIfNeeded();
  }
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>("#detail .shot img")].every((i) =>
      i.complete && i.naturalWidth > 0
    )
  );
  await page.evaluate(() => scrollTo(0, 0));
}

test("viewer renders executions, steps, screenshots and scaled target overlays in Chromium", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  // SDK_RUN_DIR is process-wide and `deno test --parallel` shares the process: set it late.
  await withRunDir(async () => {
    const writer = await ReportWriter.create({
      name: "checkout-flow",
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    const execs = buildExecutions(writer, shots);
    for (const e of execs) await writer.writeExecution(e);
    const file = (await writer.finalize())!;

    const { page, errors } = await openReport(browser, file);
    const data = await page.evaluate(() =>
      (window as unknown as { __SDK_REPORT__: unknown }).__SDK_REPORT__
    ) as { meta: { name: string }; executions: ReportExecution[]; screenshotIds: string[] };
    assert.equal(data.meta.name, "checkout-flow");
    assert.deepEqual(data.executions, parseReportHtml(await readFile(file, "utf8")).executions);
    assert.deepEqual(data.executions.map((e) => e.steps.length), [2, 6, 1]);
    assert.equal(data.screenshotIds.length, 3);

    assert.equal(await page.locator("nav .ex").count(), 3);
    assert.equal(await page.locator("nav .ex.failed .frozen").count(), 1, "frozen marker");
    assert.match(await page.locator("header").innerText(), /checkout-flow[\s\S]*0\.1\.0/);

    for (const [i, exec] of execs.entries()) {
      await page.locator("nav .ex").nth(i).click();
      assert.equal(await page.locator("#detail li.step").count(), exec.steps.length);
      const titles = await page.locator("#detail .step-head .title").allInnerTexts();
      assert.deepEqual(titles, exec.steps.map((s) => s.title));
      await loadAllImages(page);
      const geo = await overlayGeometry(page);
      const withShots = exec.steps.filter((s) => s.screenshot);
      assert.equal(geo.length, withShots.length);
      for (const [j, s] of withShots.entries()) {
        const g = geo[j];
        assert.equal(g.natural, 1280, "screenshot decoded");
        const scale = g.img[2] / 1280;
        near(g.img[3], 800 * scale, "aspect ratio kept");
        assert.equal(!!g.box, !!s.target, `box present on step ${j}`);
        if (s.target && g.box) {
          near(g.box[0], s.target.left * scale, "box left");
          near(g.box[1], s.target.top * scale, "box top");
          near(g.box[2], s.target.width * scale, "box width");
          near(g.box[3], s.target.height * scale, "box height");
        }
        if (s.point && g.pt) {
          near(g.pt[0], s.point[0] * scale, "point x");
          near(g.pt[1], s.point[1] * scale, "point y");
        }
        assert.equal(!!g.pt, !!s.point, `point present on step ${j}`);
      }
    }
    // The failed execution shows its error and the frozen marker in the detail.
    assert.match(await page.locator("#detail .exhead").innerText(), /frozen context/i);
    assert.match(await page.locator("#detail .exhead .err").innerText(), /no cart badge/);

    // A person looks at the aiAct execution.
    await page.locator("nav .ex").nth(1).click();
    await loadAllImages(page);
    await mkdir(new URL(".", OUTPUT_PNG), { recursive: true });
    await page.screenshot({ path: OUTPUT_PNG.pathname, fullPage: true });

    // Zooming a screenshot shows it large with the same overlay.
    await page.locator("#detail .shot").nth(1).click();
    assert.equal(await page.locator(".lightbox .box").count(), 1);
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(".lightbox").count(), 0);
    assert.deepEqual(errors, []);

    // What a step costs on disk: the image once (plus the step), then only the step. (A report
    // of its own: a finalized one takes no more writes.)
    const costs = await ReportWriter.create({
      name: "step-costs",
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    await costs.writeExecution(execution({ id: "start" }));
    const costFile = costs.file!;
    const before = (await stat(costFile)).size;
    const uri = shots[0].uri.replace("base64,", "base64,AAAA");
    const fresh = costs.addScreenshot(uri);
    await costs.writeExecution(execution({ id: "m", steps: [step({ screenshot: fresh })] }));
    const first = (await stat(costFile)).size - before;
    assert.equal(costs.addScreenshot(uri.slice(0)), fresh);
    await costs.writeExecution(
      execution({ id: "m", steps: [step({ screenshot: fresh }), step({ screenshot: fresh })] }),
    );
    const repeated = (await stat(costFile)).size - before - first;
    await costs.finalize();
    assert.ok(first > uri.length && first < uri.length + 1000, `first step: ${first} bytes`);
    assert.ok(repeated < 500, `repeated screenshot step: ${repeated} bytes`);
  });
});

test("viewer shows page and model text literally and injects no element, in every view", async () => {
  const evil =
    `</script><img src=x onerror="window.__xss=1"><b>bold</b><script>window.__xss=2</script>`;
  const browser = chromium();
  const [shot] = await makeScreenshots(browser);
  await withRunDir(async () => {
    const writer = await ReportWriter.create({
      name: "x<b>y",
      meta: { sdkVersion: `1${evil}`, interfaceType: `web${evil}` },
    });
    const id = writer.addScreenshot(shot.uri);
    await writer.writeExecution(execution({
      id: `id${evil}`,
      apiName: `aiTap${evil}`,
      prompt: `prompt ${evil} \u2028 end`,
      status: "failed",
      error: `error ${evil}`,
      output: { html: evil },
      steps: [step({
        kind: `Locate${evil}` as "Locate",
        title: `title ${evil}`,
        status: `failed" onmouseover="window.__xss=3` as "failed",
        screenshot: id,
        screenshotSize: { width: 1280, height: 800 },
        target: shot.rect,
        thought: `thought ${evil}`,
        rawResponse: `raw ${evil}`,
        param: { text: evil },
        error: `step error ${evil}`,
        attempts: [
          { rawResponse: `first answer ${evil}`, error: `first problem ${evil}` },
          { rawResponse: `raw ${evil}`, error: `second problem ${evil}` },
        ],
      })],
    }));
    const file = (await writer.finalize())!;
    const html = await readFile(file, "utf8");
    assert.ok(!html.includes("<img src=x"), "payload is escaped in the file");
    assert.ok(!html.includes("<b>"), "payload is escaped in the file");

    const { page, errors } = await openReport(browser, file);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    // Open the raw response and the model calls.
    for (const summary of await page.locator("#detail details summary").all()) {
      await summary.click();
    }
    // Search by the payload (it must match as text), open the replay and the help.
    await page.fill('nav input[name="q"]', "first answer </script><img");
    assert.equal(await page.locator("nav .ex").count(), 1, "the payload is searchable text");
    assert.equal(await page.locator("#detail li.step.hit").count(), 1);
    await page.selectOption('nav select[name="api"]', `aiTap${evil}`);
    assert.equal(await page.locator("nav .ex").count(), 1, "the API filter takes the name as is");
    await page.locator("#detail .replay-btn").click();
    await page.keyboard.press("?");
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLElement>(".tshot")].filter((t) => t.style.backgroundImage)
        .length === 2
    );
    const dom = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      bold: document.querySelectorAll("b:not(.usage b, .chip b)").length,
      imgs: [...document.images].map((i) => i.closest(".shot")?.className),
      thumbs: [...document.querySelectorAll<HTMLElement>(".tshot")].map((t) =>
        t.style.backgroundImage.slice(0, 27)
      ),
      scripts: document.scripts.length,
      title: document.title,
      text: document.body.innerText,
      options: [...document.querySelectorAll('select[name="api"] option')].map((o) =>
        o.textContent
      ),
      replay: document.querySelector(".replay .rp-side")!.textContent,
      thumbTitle: document.querySelector("#detail .thumb")!.getAttribute("title"),
    }));
    assert.equal(dom.xss, undefined);
    assert.equal(dom.bold, 0, "no <b> from data");
    assert.deepEqual(
      dom.imgs.sort(),
      ["shot", "shot rp-shot"],
      "only screenshots: the step's and the replay's",
    );
    assert.deepEqual(dom.thumbs, Array(2).fill(`url("data:image/png;base64,`), "thumbnails");
    // viewer + meta + 1 screenshot + 1 execution
    assert.equal(dom.scripts, 4);
    assert.equal(dom.title, "x<b>y");
    for (
      const label of [
        "prompt",
        "title",
        "thought",
        "raw",
        "step error",
        "error",
        "first answer",
        "first problem",
        "second problem",
      ]
    ) {
      assert.ok(dom.text.includes(`${label} ${evil}`), `${label} shown literally`);
    }
    assert.ok(dom.text.includes(`aiTap${evil}`));
    assert.deepEqual(dom.options, ["All APIs", `aiTap${evil} (1)`]);
    assert.ok(dom.replay.includes(`title ${evil}`) && dom.replay.includes(`thought ${evil}`));
    assert.ok(dom.thumbTitle!.includes(`title ${evil}`));
    await page.waitForTimeout(200); // a late onerror would fire by now
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
  });
});

test("viewer skips a truncated trailing tag and shows the rest", async () => {
  await withRunDir(async () => {
    const browser = chromium();
    const writer = await ReportWriter.create({
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    await writer.writeExecution(execution({ id: "a", apiName: "aiTap" }));
    await writer.writeExecution(execution({ id: "b", apiName: "aiQuery" }));
    const file = (await writer.finalize())!;
    for (const tail of [`<script type="sdk-execution" data-id="c">{"id":"c","st`, `<script ty`]) {
      const copy = join(file, "..", `cut-${tail.length}.html`);
      await appendFile(copy, (await readFile(file, "utf8")) + tail);
      const { page, errors } = await openReport(browser, copy);
      assert.deepEqual(await page.locator("nav .ex .api").allInnerTexts(), ["aiTap", "aiQuery"]);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});

test("viewer shows every model call of a retried step: each raw answer and its problem, literally", async () => {
  const browser = chromium();
  await withRunDir(async () => {
    const writer = await ReportWriter.create({
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    const first = `I think <b id="x">this</b> is it`;
    const problem = `no JSON object in the answer <i>`;
    const second = `{"bbox": null, "error": "still <b>lost</b>"}`;
    const usage = (total: number) => ({
      promptTokens: total - 10,
      completionTokens: 10,
      totalTokens: total,
      cachedInputTokens: 0,
      modelName: "vision-model-1",
      intent: "default",
      requestId: "r",
      timeCostMs: 900,
    });
    await writer.writeExecution(execution({
      id: "retried",
      status: "failed",
      steps: [
        step({ kind: "Locate", title: "Locate once", rawResponse: '{"bbox":[1,2,3,4]}' }),
        // Unusable, then used: the step passed on the retry.
        step({
          kind: "Locate",
          title: "Locate on the retry",
          rawResponse: '{"bbox":[5,6,7,8]}',
          attempts: [
            { rawResponse: "the button, probably", error: "no JSON object", usage: usage(1200) },
            { rawResponse: '{"bbox":[5,6,7,8]}', usage: usage(1300) },
          ],
        }),
        // Unusable twice: the step failed.
        step({
          kind: "Locate",
          title: "Locate twice",
          status: "failed",
          rawResponse: second,
          attempts: [
            { rawResponse: first, error: problem },
            { rawResponse: second, error: "the box is null" },
          ],
        }),
      ],
    }));
    const file = (await writer.finalize())!;
    const { page, errors } = await openReport(browser, file);
    const steps = page.locator("#detail li.step");
    assert.equal(await steps.nth(0).locator(".attempts, .retry").count(), 0, "one call: no list");

    const passed = steps.nth(1);
    assert.equal(await passed.locator(".step-head .retry").textContent(), "2 calls");
    const calls = passed.locator("details.attempts");
    assert.equal(await calls.getAttribute("open"), null, "closed on a passed step");
    assert.equal(await calls.locator("summary").textContent(), "Model calls (2), 1 unusable");
    await calls.locator("summary").click();
    const tries = calls.locator("ol.tries > li");
    assert.deepEqual(await tries.locator(".try-head .pill").allTextContents(), [
      "unusable",
      "used",
    ]);
    assert.deepEqual(await tries.locator("pre.raw").allTextContents(), [
      "the button, probably",
      '{"bbox":[5,6,7,8]}',
    ]);
    assert.deepEqual(await tries.locator(".err").allTextContents(), ["no JSON object"]);
    assert.match(await tries.nth(0).locator(".usage").innerText(), /total 1,200/);
    assert.match(await tries.nth(1).locator(".usage").innerText(), /total 1,300/);

    const failed = steps.nth(2).locator("details.attempts");
    assert.equal(await failed.getAttribute("open"), "true", "open on a failed step");
    assert.equal(await failed.locator("summary").textContent(), "Model calls (2), 2 unusable");
    const items = failed.locator("ol.tries > li");
    assert.equal(await items.count(), 2);
    assert.deepEqual(await items.locator(".label").allTextContents(), [
      "Raw answer",
      "Problem",
      "Raw answer",
      "Problem",
    ]);
    assert.deepEqual(await items.locator(".err").allTextContents(), [problem, "the box is null"]);
    assert.deepEqual(await items.locator("pre.raw").allTextContents(), [first, second]);
    assert.equal(await page.locator("#detail b#x, #detail i, #detail .tries pre *").count(), 0);
    assert.deepEqual(errors, []);
  });
});

test("viewer builds a long execution lazily: bounded step bodies and images, built near the viewport and dropped far from it", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  await withRunDir(async () => {
    const writer = await ReportWriter.create({
      meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
    });
    const ids = shots.map((s) => writer.addScreenshot(s.uri));
    const n = 300;
    const steps = Array.from({ length: n }, (_, i) =>
      step({
        kind: i % 2 ? "Action" : "Locate",
        title: `Step ${i + 1}`,
        screenshot: ids[i % 3],
        screenshotSize: { width: 1280, height: 800 },
        target: shots[i % 3].rect,
        thought: `thought ${i + 1}`,
        rawResponse: `{"step":${i + 1}}`,
      }));
    await writer.writeExecution(execution({ id: "long", apiName: "aiAct", steps }));
    const file = (await writer.finalize())!;
    const { page, errors } = await openReport(browser, file);

    const counts = () =>
      page.evaluate(() => ({
        heads: document.querySelectorAll("#detail li.step .step-head").length,
        bodies: document.querySelectorAll("#detail li.step .step-body").length,
        imgs: document.querySelectorAll("#detail li.step img").length,
        thumbs: document.querySelectorAll("#detail .thumb").length,
        thumbImgs: [...document.querySelectorAll<HTMLElement>("#detail .tshot")].filter((t) =>
          t.style.backgroundImage
        ).length,
      }));
    const shown = (i: number) =>
      page.waitForFunction((i) => {
        const img = document.querySelectorAll("#detail li.step")[i]?.querySelector("img");
        return !!img && img.complete && img.naturalWidth === 1280;
      }, i);
    const bounded = (c: { bodies: number; imgs: number; thumbImgs: number }, when: string) => {
      assert.ok(c.bodies <= 40, `${when}: ${c.bodies} step bodies`);
      assert.ok(c.imgs <= 40, `${when}: ${c.imgs} images`);
      assert.ok(c.thumbImgs <= 24, `${when}: ${c.thumbImgs} timeline images`);
    };

    // Every step has its head (title, status) at once; bodies and images only for a few.
    await shown(0);
    const first = await counts();
    assert.equal(first.heads, n);
    assert.deepEqual(
      await page.locator("#detail li.step .title").evaluateAll((els) =>
        els.slice(0, 3).map((e) => e.textContent)
      ),
      ["Step 1", "Step 2", "Step 3"],
    );
    bounded(first, "at first");
    assert.ok(first.imgs >= 2, "the screenshots on screen are shown");
    // The timeline has a thumbnail per step, with an image only near the strip's view.
    assert.equal(first.thumbs, n);
    const thumbImage = (i: number) =>
      page.locator("#detail .tshot").nth(i).evaluate((t) =>
        (t as HTMLElement).style.backgroundImage.startsWith('url("data:image/png;base64,')
      );
    await page.waitForFunction(() =>
      !!document.querySelector<HTMLElement>("#detail .tshot")!.style.backgroundImage
    );
    assert.equal(await thumbImage(0), true);
    assert.ok((await counts()).thumbImgs >= 5, "the thumbnails in view have their image");
    await page.locator("#detail .strip").evaluate((el) => el.scrollLeft = el.scrollWidth);
    await page.waitForFunction(
      (n) =>
        !!document.querySelectorAll<HTMLElement>("#detail .tshot")[n - 1].style.backgroundImage,
      n,
    );
    assert.equal(await thumbImage(0), false, "the first thumbnail's image was dropped");
    bounded(await counts(), "timeline at its end");
    await page.locator("#detail .strip").evaluate((el) => el.scrollLeft = 0);
    await page.waitForFunction(() =>
      !!document.querySelector<HTMLElement>("#detail .tshot")!.style.backgroundImage
    );
    const firstHeight = await page.locator("#detail li.step").first().evaluate((el) =>
      el.getBoundingClientRect().height
    );

    // Scrolling down builds the steps it reaches and drops those far behind.
    for (const at of [0.33, 0.66, 1]) {
      await page.evaluate((at) => scrollTo(0, document.body.scrollHeight * at), at);
      await page.waitForTimeout(100);
      bounded(await counts(), `scrolled to ${at}`);
    }
    await shown(n - 1);
    const last = page.locator("#detail li.step").last();
    assert.equal(await last.locator(".title").textContent(), `Step ${n}`);
    assert.equal(await last.locator(".thought").textContent(), `thought ${n}`);
    assert.equal(await last.locator(".shot .box").count(), 1, "target box on the last step");
    const end = await counts();
    bounded(end, "at the bottom");
    const top = page.locator("#detail li.step").first();
    assert.equal(await top.locator("img").count(), 0, "the first step's image was dropped");
    const kept = await top.evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(Math.abs(kept - firstHeight) < 1, `height kept: ${kept} vs ${firstHeight}`);

    // Back at the top, the first step is built again.
    await page.evaluate(() => scrollTo(0, 0));
    await shown(0);
    assert.equal(await top.locator(".thought").textContent(), "thought 1");
    bounded(await counts(), "back at the top");

    // The data is all there for tools, whatever is on screen.
    const data = await page.evaluate(() =>
      (window as unknown as { __SDK_REPORT__: { executions: ReportExecution[] } }).__SDK_REPORT__
    );
    assert.equal(data.executions[0].steps.length, n);
    assert.deepEqual(errors, []);
  });
});
