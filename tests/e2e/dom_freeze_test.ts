/// <reference lib="dom" />
/**
 * `domIncluded` on extraction and assertion (spec 4.3) and the frozen page context (spec 3.2,
 * 4.5), through real HTTP to the test model, on both drivers.
 */
import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { Agent } from "@sdk/core";
import type { AbstractInterface } from "@sdk/core";
import { createTestPng, startTestModel } from "@sdk/core/testing";
import type { ExtractCall } from "@sdk/core/testing";
import { parseReportHtml } from "../../core/report/_format.ts";
import { driverTest, type E2ePage } from "./_drivers.ts";
import { attributeOf, lineOf, requireLine } from "./_dom_lines.ts";

/** Like a model reading `<page-dom>`: the targets of the link lines. */
function linkTargets(dom: string | undefined): string[] {
  return (dom ?? "").split("\n").filter((l) => /^\s*a[# ]/.test(l)).map((l) =>
    attributeOf(l, "href")!
  );
}

/** The page's own answer: targets of the top document's links, all or only those on screen. */
function pageLinkTargets(page: E2ePage, visibleOnly: boolean): Promise<string[]> {
  return page.evaluate((onlyVisible: boolean) =>
    [...document.querySelectorAll("a")].filter((a) => {
      if (!onlyVisible) return true;
      const r = a.getBoundingClientRect();
      return a.checkVisibility() && r.bottom > 0 && r.top < innerHeight && r.width > 0;
    }).map((a) => a.getAttribute("href")!), visibleOnly);
}

const statusOf = (call: { dom?: string }) =>
  attributeOf(requireLine(call.dom ?? "", "span#status"), "text");

driverTest(
  "aiQuery with domIncluded: true answers from a hidden link's href in <page-dom>",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    const { agent, model } = await e2e.agent(page, {
      extract: (call) => attributeOf(requireLine(call.dom!, "a#hidden-download"), "href"),
    });
    const href = await agent.aiQuery<string>("the link target of the annual report download", {
      domIncluded: true,
    });
    assert.equal(href, "/files/annual-report-2024.pdf");
    const call = model.calls[0].call as ExtractCall;
    assert.ok(call.image, "the screenshot is still sent");
    assert.match(call.userText, /<page-dom>\npage url=/);
    assert.match(call.systemPrompt, /<page-dom> block/);
  },
);

driverTest("domIncluded: 'visible-only' leaves out hidden and off-screen elements", async (e2e) => {
  const page = await e2e.open("dom.html");
  const { agent, model } = await e2e.agent(page, { extract: (call) => linkTargets(call.dom) });
  const visible = await agent.aiQuery<string[]>("every link target", {
    domIncluded: "visible-only",
  });
  const all = await agent.aiQuery<string[]>("every link target", { domIncluded: true });
  const frameLinks = ["https://mirror.example.org/sunset-4096.jpg"];
  assert.deepEqual(visible, [...await pageLinkTargets(page, true), ...frameLinks]);
  assert.deepEqual(all, [
    ...(await pageLinkTargets(page, false)).filter((h) => h !== "/about"),
    ...frameLinks,
    "https://mirror.example.org/secret.zip",
    "/about",
  ]);
  assert.ok(!visible.includes("/files/annual-report-2024.pdf"));
  const [visibleCall, allCall] = model.calls.map((c) => c.call as ExtractCall);
  assert.equal(lineOf(visibleCall.dom!, "a#hidden-download"), undefined);
  assert.ok(lineOf(allCall.dom!, "a#hidden-download"));
});

driverTest("screenshotIncluded: false with domIncluded sends the DOM and no image", async (e2e) => {
  const page = await e2e.open("dom.html");
  const { agent, model } = await e2e.agent(page, {
    extract: (call) => call.image === null && lineOf(call.dom ?? "", "h1#title") !== undefined,
  });
  assert.equal(
    await agent.aiBoolean("is there a title?", { domIncluded: true, screenshotIncluded: false }),
    true,
  );
  const call = model.calls[0].call!;
  assert.equal(call.image, null);
  assert.doesNotMatch(call.userText, /The screenshot is/);
});

driverTest(
  "aiBoolean, aiNumber, aiString, aiAsk and aiAssert send <page-dom> only when asked",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    const { agent, model } = await e2e.agent(page, {
      extract: (call) => {
        const links = linkTargets(call.dom).length;
        return { boolean: links > 0, number: links, string: `${links} links`, any: null }[
          call.returnType as "boolean"
        ];
      },
      assert: (call) => ({
        pass: lineOf(call.dom ?? "", "a#hidden-download") !== undefined,
        thought: call.dom ? "The page has the report link." : "No DOM was sent.",
      }),
    });
    const o = { domIncluded: true } as const;
    const links = (await pageLinkTargets(page, false)).length + 2; // and the frame's two
    assert.equal(await agent.aiBoolean("any links?", o), true);
    assert.equal(await agent.aiNumber("how many links?", o), links);
    assert.equal(await agent.aiString("links?", o), `${links} links`);
    assert.equal(await agent.aiAsk("links?", o), `${links} links`);
    await agent.aiAssert("there is an annual report link", undefined, o);
    await assert.rejects(agent.aiAssert("there is an annual report link"), /No DOM was sent/);
    assert.equal(await agent.aiNumber("how many links?"), 0);
    const sent = model.calls.map((c) => c.call!.dom !== undefined);
    assert.deepEqual(sent, [true, true, true, true, true, false, false]);
  },
);

driverTest(
  "a domIncluded value other than true, false or 'visible-only' is a RangeError before any model call",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    const { agent, model } = await e2e.agent(page, {
      extract: () => 1,
      assert: () => ({ pass: true }),
    });
    const bad = { domIncluded: "all" as unknown as true };
    await assert.rejects(
      agent.aiQuery("x", bad),
      (e: unknown) =>
        e instanceof RangeError &&
        /aiQuery: 'domIncluded' must be true, false or 'visible-only': current value is "all"/.test(
          e.message,
        ),
    );
    await assert.rejects(agent.aiAssert("x", undefined, bad), /aiAssert: 'domIncluded' must be/);
    assert.equal(model.calls.length, 0);
  },
);

test("domIncluded on a device without getElementsDescription rejects naming the option", async () => {
  const png = await createTestPng(320, 200);
  const device: AbstractInterface = {
    interfaceType: "canvas-only",
    screenshotBase64: () => Promise.resolve(png),
    size: () => Promise.resolve({ width: 320, height: 200, dpr: 1 }),
    actionSpace: () => [],
  };
  await using model = await startTestModel({ script: { extract: () => "never asked" } });
  const agent = new Agent(device, { modelConfig: model.modelConfig(), generateReport: false });
  await assert.rejects(
    agent.aiString("anything", { domIncluded: "visible-only" }),
    (e: unknown) =>
      e instanceof TypeError && /domIncluded/.test(e.message) &&
      /getElementsDescription/.test(e.message) && /"canvas-only"/.test(e.message),
  );
  assert.equal(model.calls.length, 0);
  // Freezing such a device works: only the DOM is missing from its snapshot.
  await agent.freezePageContext();
  assert.equal(await agent.aiString("anything"), "never asked");
  await agent.destroy();
});

driverTest(
  "freezePageContext: calls read one snapshot, interactions reject, unfreeze reads the live page",
  async (e2e) => {
    const page = await e2e.open("dom.html", { dpr: 2 });
    const { agent, model } = await e2e.agent(page, {
      extract: statusOf,
      locate: () => page.measure("#go"),
    }, { screenshotShrinkFactor: 2 });

    await agent.unfreezePageContext(); // a no-op while live
    await agent.freezePageContext();
    const before = await agent.aiString("the status", { domIncluded: true });
    await page.evaluate(() => {
      document.getElementById("status")!.textContent = "0 files ready";
      document.getElementById("title")!.style.color = "red";
    });
    assert.equal(await agent.aiString("the status", { domIncluded: true }), before);
    assert.equal(before, "3 files ready");
    // aiLocate maps the frozen screen's box to physical pixels (dpr 2, image shrunk by 2).
    const go = await page.measure("#go");
    const located = await agent.aiLocate("the Search button");
    // Within the 0-1000 grid of the model's box: 1280 / 1000 image pixels, 2 physical per image one.
    for (const k of ["left", "top", "width", "height"] as const) {
      assert.ok(
        Math.abs(located.rect[k] - go[k] * 2) <= 6,
        `${k}: ${located.rect[k]} vs ${go[k] * 2}`,
      );
    }
    assert.equal(located.dpr, 2);

    const callsBefore = model.calls.length;
    const frozenError = /cannot run while the page context is frozen.*unfreezePageContext\(\)/;
    await assert.rejects(agent.aiTap("the Search button"), frozenError);
    await assert.rejects(agent.aiInput("the search field", { value: "x" }), frozenError);
    await assert.rejects(agent.aiAct("search for x"), frozenError);
    await assert.rejects(agent.aiKeyboardPress(undefined, { keyName: "Enter" }), frozenError);
    assert.equal(model.calls.length, callsBefore, "no model call for a rejected interaction");

    await agent.unfreezePageContext();
    assert.equal(await agent.aiString("the status", { domIncluded: true }), "0 files ready");
    await agent.aiTap("the Search button"); // live again: interactions run

    const executions = agent._unstableLogContent().executions;
    assert.deepEqual(
      executions.map((e) => [e.apiName, e.frozenContext ?? false]),
      [["aiString", true], ["aiString", true], ["aiLocate", true], ["aiString", false], [
        "aiTap",
        false,
      ]],
    );
    const shot = (i: number) => executions[i].steps[0].screenshot;
    assert.equal(shot(0), shot(1), "both frozen queries saw the same screenshot");
    assert.equal(shot(0), shot(2));
    assert.notEqual(shot(0), shot(3), "after unfreezing the changed page is captured");
    for (const { call } of model.calls) {
      const { width, height, format } = call!.image!;
      assert.deepEqual(
        { width, height, format },
        { width: 1280, height: 800, format: "jpeg" },
        "shrunk from 2560 x 1600",
      );
    }

    await agent.destroy();
    const report = parseReportHtml(await readFile(agent.reportFile!, "utf8"));
    assert.deepEqual(
      report.executions.map((e) => e.frozenContext ?? false),
      [true, true, true, false, false],
    );
    assert.ok(report.screenshots.has(shot(0)!), "the frozen screenshot is in the report");
  },
);

driverTest(
  "freezing again replaces the snapshot; recordToReport while frozen records it",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    const { agent } = await e2e.agent(page, { extract: statusOf });
    await agent.freezePageContext();
    await page.evaluate(() => document.getElementById("status")!.textContent = "1 file ready");
    assert.equal(await agent.aiString("status", { domIncluded: "visible-only" }), "3 files ready");
    await agent.freezePageContext();
    assert.equal(await agent.aiString("status", { domIncluded: "visible-only" }), "1 file ready");
    await page.evaluate(() => document.getElementById("status")!.textContent = "2 files ready");
    await agent.recordToReport("frozen view");
    const [, second, record] = agent._unstableLogContent().executions;
    assert.equal(record.frozenContext, true);
    assert.equal(record.steps[0].screenshot, second.steps[0].screenshot);
  },
);
