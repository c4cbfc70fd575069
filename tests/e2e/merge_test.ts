/// <reference lib="dom" />

/**
 * Report merging end to end (spec 4.6): the reports of real agent sessions on the fixture app
 * (JPEG screenshots, a failed assertion, one `html-and-external-assets` report), finalized with
 * `destroy()`, merged with `ReportMergingTool` and read in Chromium the way a person reads them.
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { AssertionError } from "@sdk/core";
import { ReportMergingTool } from "@sdk/core/report";
import type { WebPageAgentOptions } from "@sdk/web";
import { locateTarget } from "../helpers/app_model.ts";
import { serveStatic } from "../helpers/static_server.ts";
import { appState, startE2e } from "./_setup.ts";
import { exists, loadAllScreenshots, openReport, reportDir } from "./_report_helpers.ts";

const env = await startE2e();
const scratch: string[] = [];
after(async () => {
  await env.close();
  await Promise.all(scratch.map((f) => rm(f, { recursive: true, force: true })));
});

const EVIL = `<img src=x onerror=alert(1)>`;

function uniqueName(label: string): string {
  return `e2e-merge-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A finished agent session on actions.html: taps the button, then asserts when `assertion`. */
async function session(
  label: string,
  options: WebPageAgentOptions,
  assertion?: { text: string; pass: boolean; thought: string },
): Promise<string> {
  const page = await env.open("actions.html");
  const { agent } = await env.agent(page, {
    locate: (call) => locateTarget(page, call.target),
    assert: () => ({ pass: assertion!.pass, thought: assertion!.thought }),
  }, { waitAfterAction: 0, reportFileName: uniqueName(label), ...options });
  await agent.aiTap("the Click me button");
  assert.equal(await appState(page, "clicks"), 1);
  if (assertion) {
    const result = await agent.aiAssert(assertion.text).then(() => undefined, (e: unknown) => e);
    assert.equal(result instanceof AssertionError, !assertion.pass);
  }
  await agent.destroy();
  await page.context().close();
  const file = agent.reportFile!;
  assert.ok(file && await exists(file), `report of ${label}`);
  scratch.push(options.outputFormat === "html-and-external-assets" ? dirname(file) : file);
  return file;
}

test("the reports of real agent sessions merge into one report that lists each test and shows its executions and screenshots", async () => {
  const passed = await session("passed", {});
  const failed = await session("failed", {}, {
    text: "the page shows a cart badge",
    pass: false,
    thought: `There is no badge ${EVIL}`,
  });
  const external = await session("external", { outputFormat: "html-and-external-assets" });
  const outputDir = join(reportDir(), uniqueName("out"));
  scratch.push(outputDir);

  const tool = new ReportMergingTool();
  tool.append({
    reportFilePath: passed,
    reportAttributes: {
      testId: "tap",
      testTitle: "Tapping counts",
      testDescription: "one tap",
      testDuration: 1500,
      testStatus: "passed",
    },
  });
  tool.append({
    reportFilePath: failed,
    reportAttributes: {
      testId: "badge",
      testTitle: `Badge ${EVIL}`,
      testDescription: `expects a badge ${EVIL}`,
      testDuration: 3200,
      testStatus: "failed",
    },
  });

  // Two single-html reports: one file, opened from file://.
  const single = (await tool.mergeReports("two", { outputDir }))!;
  assert.equal(single, join(outputDir, "two.html"));
  const { page, dialogs, errors } = await openReport(env, single);
  const rows = await page.locator("nav .src:not(.src-all)").evaluateAll((els) =>
    els.map((el) => [
      el.querySelector(".src-title")!.textContent,
      el.querySelector(".spill")!.textContent,
      el.querySelector(".src-dur")!.textContent,
    ])
  );
  assert.deepEqual(rows, [
    ["Tapping counts", "passed", "1.50 s"],
    [`Badge ${EVIL}`, "failed", "3.20 s"],
  ]);
  await page.locator("nav .src.failed").click();
  assert.deepEqual(
    await page.locator("nav .ex:not(.src-off) .api").allInnerTexts(),
    ["aiTap", "aiAssert"],
  );
  await page.locator("nav .ex.failed:not(.src-off)").click();
  assert.match(await page.locator("#detail .exhead .err").innerText(), /cart badge/);
  assert.ok((await page.locator("#detail").innerText()).includes(`There is no badge ${EVIL}`));
  assert.ok((await loadAllScreenshots(page)).every((w) => w > 0));
  assert.equal(await page.locator("#detail .src-head .src-title").textContent(), `Badge ${EVIL}`);
  const src = await page.locator("#detail .shot img").first().getAttribute("src");
  assert.match(src!, /^data:image\/jpeg;base64,/, "the agent's JPEG screenshot");
  await page.waitForTimeout(200);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await page.context().close();

  // With the external report and a skipped test: a directory, served over HTTP; the sources go.
  tool.append({
    reportFilePath: external,
    reportAttributes: {
      testId: "ext",
      testTitle: "External assets",
      testDescription: "",
      testDuration: 900,
      testStatus: "passed",
    },
  });
  tool.append({
    reportAttributes: {
      testId: "later",
      testTitle: "Later",
      testDescription: "",
      testDuration: 0,
      testStatus: "skipped",
    },
  });
  const index = (await tool.mergeReports("all", { outputDir, rmOriginalReports: true }))!;
  assert.equal(index, join(outputDir, "all", "index.html"));
  for (const file of [passed, failed, external]) {
    assert.equal(await exists(file), false, `${basename(file)} removed`);
  }
  assert.equal(await exists(dirname(external)), false);
  assert.ok(await exists(single), "an earlier merged report is not a source");

  const server = await serveStatic(dirname(index));
  try {
    const view = await env.open("about:blank");
    const viewErrors: string[] = [];
    view.on("pageerror", (e) => viewErrors.push(e.message));
    view.on("response", (r) => {
      const url = new URL(r.url());
      if (r.status() >= 400 && url.pathname !== "/favicon.ico") {
        viewErrors.push(`${r.status()} ${url}`);
      }
    });
    await view.goto(`${server.url}index.html`);
    await view.waitForSelector("nav .src");
    assert.equal(await view.locator("nav .src:not(.src-all)").count(), 4);
    for (const title of ["Tapping counts", "External assets"]) {
      await view.locator("nav .src", { hasText: title }).click();
      assert.equal(await view.locator("#detail .src-head .src-title").textContent(), title);
      const widths = await loadAllScreenshots(view);
      assert.ok(widths.length > 0 && widths.every((w) => w === 1280), `${title}: ${widths}`);
      const srcs = await view.locator("#detail .shot img").evaluateAll((imgs) =>
        imgs.map((i) => i.getAttribute("src"))
      );
      for (const s of srcs) assert.match(s!, /^screenshots\/[A-Za-z0-9._-]+\.jpg$/);
    }
    await view.locator("nav .src.skipped").click();
    assert.match(await view.locator("#detail").innerText(), /No report/);
    assert.deepEqual(viewErrors, []);
    await view.context().close();
  } finally {
    await server.close();
  }
});
