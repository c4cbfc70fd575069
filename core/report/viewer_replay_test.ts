/// <reference lib="dom" />
/**
 * The viewer's timeline and replay in Chromium: thumbnails per step, the pointer on each target
 * in rendered pixels (also for screenshots in device pixels, twice the page's CSS size), playing
 * and pausing, and closing back to the step.
 */
import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { execution, step, withRunDir } from "./_test_helpers.ts";
import {
  assertMarks,
  buildExecutions,
  center,
  makeScreenshots,
  near,
  openReport,
  replayGeometry,
  useBrowser,
} from "./_viewer_fixtures.ts";
import type { ReportExecution, ReportStep } from "./types.ts";
import { ReportWriter } from "./writer.ts";

const chromium = useBrowser();

/** Writes a report of the given executions (built over the writer's screenshots). */
async function report(build: (writer: ReportWriter) => ReportExecution[]): Promise<string> {
  const writer = await ReportWriter.create({
    meta: { sdkVersion: "0.1.0", interfaceType: "web-page" },
  });
  for (const e of build(writer)) await writer.writeExecution(e);
  return (await writer.finalize())!;
}

const hash = (page: Page) => new URL(page.url()).hash;

test("timeline: one thumbnail per step with a screenshot, in order, with its target; a click opens that step", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  await withRunDir(async () => {
    let execs: ReportExecution[] = [];
    const file = await report((writer) => {
      execs = buildExecutions(writer, shots);
      // A step without a screenshot gets no thumbnail.
      execs[1].steps.splice(3, 0, step({ kind: "Action", title: "Sleep 500 ms" }));
      return execs;
    });
    const { page, errors } = await openReport(browser, file);
    for (const [i, exec] of execs.entries()) {
      await page.locator("nav .ex").nth(i).click();
      const withShot = exec.steps.flatMap((s, k) => s.screenshot ? [String(k + 1)] : []);
      const thumbs = page.locator("#detail .tl .thumb");
      assert.equal(await thumbs.count(), withShot.length, `execution ${i + 1}: thumbnails`);
      assert.deepEqual(
        await thumbs.evaluateAll((b) => b.map((e) => e.getAttribute("data-step"))),
        withShot,
      );
      assert.deepEqual(
        await thumbs.locator(".tk").allTextContents(),
        exec.steps.filter((s) => s.screenshot).map((s) => s.kind),
      );
    }
    await page.locator("nav .ex").nth(1).click(); // aiAct: 6 of its 7 steps have a screenshot

    // The thumbnails show the screenshots, with the target drawn where it is on them.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLElement>("#detail .tshot")].every((t) =>
        t.style.backgroundImage
      )
    );
    // Each thumbnail shows its step's screenshot, the very image of the step's card.
    const sources = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("#detail .thumb")].map((b) => {
        const card = document.querySelector(`#detail li.step[data-step="${b.dataset.step}"]`);
        const img = card!.querySelector<HTMLImageElement>(".shot img");
        return b.querySelector<HTMLElement>(".tshot")!.style.backgroundImage ===
          `url("${img?.getAttribute("src")}")`;
      })
    );
    assert.deepEqual(sources, Array(6).fill(true));
    const locate = page.locator('#detail .thumb[data-step="2"]');
    const [img, box] = await Promise.all([
      locate.locator(".tshot").boundingBox(),
      locate.locator(".box").boundingBox(),
    ]);
    const scale = img!.width / 1280;
    near(box!.x - img!.x, shots[1].rect.left * scale, "thumbnail box left");
    near(box!.width, shots[1].rect.width * scale, "thumbnail box width");

    // A click goes to the step: marked, scrolled to the top of the view, built, in the address.
    await page.locator('#detail .thumb[data-step="6"]').click();
    assert.equal(hash(page), "#execution-2/step-6");
    const card = page.locator("#detail li.step.cur");
    assert.equal(await card.count(), 1);
    assert.equal(await card.getAttribute("data-step"), "6");
    assert.equal(await card.locator(".title").textContent(), "Tap 'Dark mode switch'");
    await page.waitForFunction(() => {
      const r = document.querySelector("#detail li.step.cur")!.getBoundingClientRect();
      return r.top >= 60 && r.top < 120;
    });
    assert.equal(await card.locator(".step-body .shot img").count(), 1, "the step is built");
    assert.equal(await page.locator("#detail .thumb.cur").getAttribute("data-step"), "6");
    assert.deepEqual(errors, []);
  });
});

test("replay walks the run step by step and moves the pointer onto each target, in rendered pixels", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  await withRunDir(async () => {
    let execs: ReportExecution[] = [];
    const file = await report((writer) => (execs = buildExecutions(writer, shots)));
    // A viewport narrower than the screenshots: the image is shown scaled down.
    const { page, errors } = await openReport(browser, file, 1200, 800);
    await page.locator("#detail .replay-btn").click();
    assert.equal(await page.locator(".replay").count(), 1);
    const all = execs.flatMap((e, i) => e.steps.map((s, k) => ({ s, i, k })));
    assert.equal(all.length, 9);
    const seen: ([number, number] | null)[] = [];
    for (const [n, { s, i, k }] of all.entries()) {
      if (n > 0) await page.locator(".replay .rp-next").click();
      const what = `execution ${i + 1} step ${k + 1}`;
      assert.equal(hash(page), `#execution-${i + 1}/step-${k + 1}`, what);
      assert.equal(
        await page.locator(".replay .rp-count").textContent(),
        `execution ${i + 1} of 3 \u00b7 step ${k + 1} of ${execs[i].steps.length}`,
      );
      assert.equal(await page.locator(".replay .rp-side .title").textContent(), s.title);
      const g = await replayGeometry(page);
      assert.ok(g.img[2] < 1280 && g.img[2] > 300, `${what}: shown scaled (${g.img[2]} px)`);
      assertMarks(g, s, what);
      seen.push(g.pointer);
    }
    // The pointer went to five different places (the steps with a target) and was idle on four.
    assert.equal(seen.filter((p) => p === null).length, 4);
    assert.equal(new Set(seen.filter((p) => p).map((p) => p!.map(Math.round).join())).size, 4);
    // Past the last step, next stays; prev goes back across executions.
    await page.locator(".replay .rp-next").click();
    assert.equal(hash(page), "#execution-3/step-1");
    await page.keyboard.press("k");
    assert.equal(hash(page), "#execution-2/step-6");
    assertMarks(await replayGeometry(page), execs[1].steps[5], "back on 2/6");
    // The replay's own strip: the thumbnails of the execution shown, the current one marked.
    assert.equal(await page.locator(".replay .thumb").count(), 6);
    assert.equal(await page.locator(".replay .thumb.cur").getAttribute("data-step"), "6");
    await page.locator('.replay .thumb[data-step="2"]').click();
    assert.equal(hash(page), "#execution-2/step-2");
    assertMarks(await replayGeometry(page), execs[1].steps[1], "thumbnail 2/2");
    assert.deepEqual(errors, []);
  });
});

test("replay places marks recorded in the screenshot's own pixels (device pixels, twice the page's CSS size)", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser, 2);
  const [login] = shots;
  await withRunDir(async () => {
    let steps: ReportStep[] = [];
    const file = await report((writer) => {
      const id = writer.addScreenshot(login.uri);
      steps = [
        step({
          kind: "Locate",
          title: "Locate 'Sign in'",
          screenshot: id,
          screenshotSize: { width: 2560, height: 1600 },
          target: login.rect,
        }),
        // As an agent records the Action: the mark in image pixels, no size of its own, and the
        // parameters in the page's CSS pixels.
        step({
          kind: "Action",
          title: "Tap",
          screenshot: id,
          point: center(login.rect),
          param: { locate: { description: "Sign in", center: center(login.cssRect) } },
        }),
      ];
      return [execution({ id: "hidpi", steps })];
    });
    const { page, errors } = await openReport(browser, file, 1100, 760);
    await page.keyboard.press("r");
    const locate = await replayGeometry(page);
    assert.deepEqual(locate.natural, [2560, 1600], "the stored image is in device pixels");
    assertMarks(locate, steps[0], "locate");
    await page.keyboard.press("j");
    const tap = await replayGeometry(page);
    assertMarks(tap, steps[1], "tap");
    // Taken as CSS pixels, the point would sit at half the distance: the test tells them apart.
    const scale = tap.img[2] / 2560;
    const cssX = tap.img[0] + center(login.cssRect)[0] * scale;
    assert.ok(Math.abs(tap.pointer![0] - cssX) > 50, "not at the CSS-pixel position");

    // The step cards behind draw the same marks.
    await page.keyboard.press("Escape");
    const card = page.locator('#detail li.step[data-step="2"] .shot');
    await page.waitForFunction(() =>
      document.querySelector<HTMLImageElement>('#detail li.step[data-step="2"] .shot img')
        ?.complete === true
    );
    const [img, pt] = await Promise.all([
      card.locator("img").boundingBox(),
      card.locator(".pt").boundingBox(),
    ]);
    const s = img!.width / 2560;
    near(pt!.x + pt!.width / 2 - img!.x, center(login.rect)[0] * s, "card point x");
    near(pt!.y + pt!.height / 2 - img!.y, center(login.rect)[1] * s, "card point y");
    assert.deepEqual(errors, []);
  });
});

test("replay plays on its own and pauses (button and space), stops at the run's end, and closes back to its step", async () => {
  const browser = chromium();
  const shots = await makeScreenshots(browser);
  await withRunDir(async () => {
    const file = await report((writer) => buildExecutions(writer, shots));
    const { page, errors } = await openReport(browser, file);
    await page.goto(`${page.url()}#execution-2/step-1`);
    await page.reload();
    await page.waitForSelector("#detail li.step.cur");
    await page.keyboard.press("r");
    await page.selectOption(".replay .rp-speed", "4"); // 400 ms a step
    const play = page.locator(".replay .rp-play");
    await play.click();
    assert.equal(await play.getAttribute("aria-pressed"), "true");
    assert.match(await play.textContent() ?? "", /Pause/);
    await page.waitForFunction(() => location.hash === "#execution-2/step-3");
    await page.keyboard.press(" ");
    assert.equal(await play.getAttribute("aria-pressed"), "false");
    const paused = hash(page);
    await page.waitForTimeout(1000);
    assert.equal(hash(page), paused, "paused: no step advanced");

    // From the second-to-last step, playing reaches the last one and stops there.
    await page.locator('.replay .thumb[data-step="6"]').click();
    await page.keyboard.press(" ");
    await page.waitForFunction(() => location.hash === "#execution-3/step-1");
    await page.waitForFunction(() =>
      document.querySelector(".replay .rp-play")!.getAttribute("aria-pressed") === "false"
    );
    assert.equal(hash(page), "#execution-3/step-1");
    // Playing again starts over from the first step.
    await page.selectOption(".replay .rp-speed", "0.5");
    await page.keyboard.press(" ");
    assert.equal(hash(page), "#execution-1/step-1");
    await page.keyboard.press(" ");

    // Escape closes it; the page shows the step the replay was on.
    await page.keyboard.press("l"); // not a key of the viewer: nothing happens
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(".replay").count(), 0);
    assert.equal(await page.evaluate(() => document.body.className), "");
    assert.equal(await page.locator("nav .ex.sel").getAttribute("data-id"), "1");
    assert.equal(await page.locator("#detail li.step.cur").getAttribute("data-step"), "1");
    // Its first step fits under its call's header: both are in view.
    await page.waitForFunction(() => {
      const r = document.querySelector("#detail li.step.cur")!.getBoundingClientRect();
      const head = document.querySelector("#detail .exhead")!.getBoundingClientRect();
      return r.top >= 60 && r.bottom <= innerHeight && head.top >= 60;
    });
    assert.deepEqual(errors, []);
  });
});
