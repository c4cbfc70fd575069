/// <reference lib="dom" />
/**
 * `forceChromeSelectRendering` and `customActions` (spec 4.7) on both drivers: a select's picker
 * rendered in the page (option boxes, screenshots, picking an option), and extra actions the
 * planner is offered and `aiAct` calls.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page as PageB } from "playwright-core";
import type { Page as PageA } from "puppeteer-core";
import { DriverABrowserAgent, DriverBBrowserAgent } from "@sdk/web";
import type { WebPageAgent } from "@sdk/web";
import type { DeviceAction, LocatedElement } from "@sdk/core";
import type { LocateCall, PlanCall, TargetBox } from "@sdk/core/testing";
import { loadJsCodecs } from "../../core/image/backend.ts";
import { decodeBase64 } from "../../core/image/base64.ts";
import { driverTest, type E2e, type E2ePage } from "./_drivers.ts";

const STYLE_ID = "__sdk-select-rendering";
const FRUITS = ["", "apple", "banana", "cherry", "mango"];

/** How the page renders the select: its computed `appearance`, and whether the SDK's style is in. */
function selectRendering(page: E2ePage): Promise<{ appearance: string; styled: boolean }> {
  return page.evaluate((id: string) => ({
    appearance: getComputedStyle(document.querySelector("#fruit")!).appearance,
    styled: document.getElementById(id) !== null,
  }), STYLE_ID);
}

/** Share (0-1) of the pixels inside `box` (CSS pixels) that differ between two PNG data URIs. */
async function changedShare(a: string, b: string, box: TargetBox, dpr: number): Promise<number> {
  const codecs = await loadJsCodecs();
  const [x, y] = [a, b].map((uri) =>
    codecs.decode(decodeBase64(uri.slice(uri.indexOf(",") + 1)), "image/png")
  );
  assert.deepEqual([x.width, x.height], [y.width, y.height]);
  const [left, top] = [Math.round(box.left * dpr), Math.round(box.top * dpr)];
  const [right, bottom] = [
    Math.round((box.left + box.width) * dpr),
    Math.round((box.top + box.height) * dpr),
  ];
  let changed = 0;
  for (let row = top; row < bottom; row++) {
    for (let col = left; col < right; col++) {
      const i = (row * x.width + col) * 4;
      if ([0, 1, 2].some((c) => Math.abs(x.data[i + c] - y.data[i + c]) > 24)) changed++;
    }
  }
  return changed / ((right - left) * (bottom - top));
}

/** The box around several boxes. */
function union(boxes: TargetBox[]): TargetBox {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}

/** A model that finds the fruit select and, when the picker shows them, its options. */
function selectLocator(page: E2ePage) {
  return {
    locate: (call: LocateCall) => {
      const option = FRUITS.find((v) => v && new RegExp(`\\b${v}\\b`, "i").test(call.target));
      if (option) return page.box(`#fruit option[value=${option}]`);
      return /fruit select/i.test(call.target) ? page.box("#fruit") : null;
    },
  };
}

driverTest(
  "forceChromeSelectRendering (default) opens the picker in the page, where aiTap picks an option the screenshot shows",
  async (e2e) => {
    const dpr = 2;
    const page = await e2e.open("select.html", { dpr });
    const { agent, model } = await e2e.agent(page, selectLocator(page));
    assert.deepEqual(await selectRendering(page), { appearance: "auto", styled: false });

    const closed = await agent.interface.screenshotBase64();
    assert.deepEqual(await selectRendering(page), { appearance: "base-select", styled: true });
    assert.equal(await page.box("#fruit option[value=cherry]"), null, "closed: options hidden");

    await agent.aiTap("the Fruit select");
    assert.equal(await page.state("open"), true);
    const select = await page.measure("#fruit");
    const options: TargetBox[] = [];
    for (const value of FRUITS) {
      const box = await page.measure(`#fruit option[value="${value}"]`);
      assert.ok(
        box.height >= 16 && box.width >= select.width / 2,
        `option ${value}: ${JSON.stringify(box)}`,
      );
      assert.ok(box.top >= select.top + select.height - 2, `option ${value} is below the select`);
      options.push(box);
    }
    const opened = await agent.interface.screenshotBase64();
    const picker = union(options);
    const inPicker = await changedShare(closed, opened, picker, dpr);
    assert.ok(
      inPicker > 0.03,
      `the picker shows in the screenshot: ${inPicker} of its pixels changed`,
    );
    const topbar = { left: 0, top: 0, width: page.viewport().width, height: 60 };
    assert.equal(await changedShare(closed, opened, topbar, dpr), 0, "nothing else changed");

    await agent.aiTap("the Cherry option");
    assert.equal(await page.state("value"), "cherry");
    assert.equal(await page.state("changes"), 1);
    assert.equal(await page.state("open"), false);
    assert.deepEqual(
      model.calls.map((c) => (c.call as LocateCall).target),
      ["the Fruit select", "the Cherry option"],
    );

    // Later documents get the style from the init script, before any agent call; after
    // destroy() they no longer do.
    const reload = () => (page.raw as { goto(url: string): Promise<unknown> }).goto(page.url());
    await reload();
    assert.deepEqual(await selectRendering(page), { appearance: "base-select", styled: true });
    await agent.destroy();
    await reload();
    assert.deepEqual(await selectRendering(page), { appearance: "auto", styled: false });
  },
);

driverTest(
  "forceChromeSelectRendering false leaves selects to the browser: no style, no in-page picker",
  async (e2e) => {
    const page = await e2e.open("select.html");
    const { agent } = await e2e.agent(page, selectLocator(page), {
      forceChromeSelectRendering: false,
    });
    await agent.interface.screenshotBase64();
    await agent.aiTap("the Fruit select");
    assert.deepEqual(await selectRendering(page), { appearance: "auto", styled: false });
    assert.equal(await page.box("#fruit option[value=cherry]"), null, "no option box in the page");
    await (page.raw as { goto(url: string): Promise<unknown> }).goto(page.url());
    assert.deepEqual(await selectRendering(page), { appearance: "auto", styled: false });
  },
);

/** What a custom action received. */
interface Received {
  param: { target: LocatedElement; label: string; times?: number };
  /** Id of the element at `target.center`, read in the page when the action ran. */
  hit: string | null;
}

/** A custom action that labels the element at a located point (through the page itself). */
function labelAction(page: E2ePage, received: Received[]): DeviceAction<Received["param"]> {
  return {
    name: "LabelElement",
    description: "Put a text label on an element, for a reviewer.",
    params: [
      { name: "target", type: "locate", required: true, description: "the element to label" },
      { name: "label", type: "string", required: true, description: "the label text" },
      { name: "times", type: "number", required: false, description: "how many labels" },
    ],
    async call(param) {
      const hit = await page.evaluate(({ center, label }) => {
        const el = document.elementFromPoint(center[0], center[1]);
        el?.setAttribute("data-label", label);
        return el?.id || null;
      }, { center: param.target.center, label: param.label });
      received.push({ param, hit });
    },
  };
}

driverTest(
  "customActions are listed in the planning prompt and aiAct calls them with their params and a CSS-pixel element",
  async (e2e) => {
    const page = await e2e.open("actions.html", { dpr: 2 });
    const received: Received[] = [];
    const button = await page.measure("#click-button");
    const { agent, model } = await e2e.agent(page, {
      plan: (call: PlanCall) =>
        call.history.length === 0
          ? {
            log: "Label the Click me button",
            action: {
              type: "LabelElement",
              param: {
                target: { prompt: "the Click me button", box: button },
                label: "checked <ok>",
                times: 2,
              },
            },
          }
          : { log: "Labelled", finished: true },
    }, { customActions: [labelAction(page, received)] });

    assert.equal(await agent.aiAct("label the Click me button as checked"), undefined);
    assert.equal(received.length, 1);
    const { param, hit } = received[0];
    assert.equal(param.label, "checked <ok>");
    assert.equal(param.times, 2);
    assert.equal(param.target.description, "the Click me button");
    // CSS pixels, not the dpr-2 screenshot's: the point is on the button in the page.
    assert.equal(hit, "click-button");
    const [cx, cy] = param.target.center;
    assert.ok(Math.abs(cx - (button.left + button.width / 2)) <= 2, `center x ${cx}`);
    assert.ok(Math.abs(cy - (button.top + button.height / 2)) <= 2, `center y ${cy}`);
    assert.ok(Math.abs(param.target.rect.width - button.width) <= 2);
    assert.equal(
      await page.evaluate(() =>
        document.querySelector("#click-button")!.getAttribute("data-label")
      ),
      "checked <ok>",
    );
    assert.equal(await page.state("clicks"), 0, "the custom action ran, not a Tap");

    const system = model.calls[0].call!.systemPrompt;
    assert.ok(
      system.includes(
        "- LabelElement: Put a text label on an element, for a reviewer.\n" +
          "    - target (locate, required): the element to label\n" +
          "    - label (string, required): the label text\n" +
          "    - times (number, optional): how many labels",
      ),
      system,
    );
    assert.ok(system.indexOf("- Tap:") < system.indexOf("- LabelElement:"), "built-ins first");
    const [execution] = agent._unstableLogContent().executions;
    const step = execution.steps.find((s) => s.kind === "Action")!;
    assert.equal(step.title, "LabelElement");
    assert.equal(step.status, "passed");
  },
);

/** A browser-wide agent of the page's driver over the page's own context. */
function browserAgent(e2e: E2e, page: E2ePage, customActions: DeviceAction[]): WebPageAgent {
  const options = { customActions, autoPrintReportMsg: false };
  return e2e.driver === "DriverA"
    ? new DriverABrowserAgent((page.raw as PageA).browserContext(), page.raw as PageA, options)
    : new DriverBBrowserAgent((page.raw as PageB).context(), page.raw as PageB, options);
}

driverTest(
  "customActions reach browser agents too; a clashing or malformed one fails at construction",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const wave = {
      name: "Wave",
      description: "Wave at the user.",
      params: [],
      call: () => Promise.resolve(),
    };
    const agent = browserAgent(e2e, page, [wave]);
    const names = agent.interface.actionSpace().map((a) => a.name);
    assert.equal(names.at(-1), "Wave");
    assert.ok(names.includes("Tap") && names.includes("GoBack"));
    await agent.destroy();

    assert.throws(
      () => browserAgent(e2e, page, [wave, { ...wave, description: "again" }]),
      /'customActions\[1\]\.name' must differ from customActions\[0\] of the same name; rename it: current value is "Wave"/,
    );
    await assert.rejects(
      e2e.agent(page, {}, { customActions: [{ ...wave, name: "Tap" }] }),
      /Cannot create WebPageDevice as 'customActions\[0\]\.name' must differ from a built-in action of the same name; rename it: current value is "Tap"/,
    );
    await assert.rejects(
      e2e.agent(page, {}, { customActions: [{ name: "Wave" } as DeviceAction] }),
      /'customActions\[0\]\.call' must be a function \(param, context\) => Promise<void>: current value is undefined/,
    );
    await assert.rejects(
      e2e.agent(page, {}, { customActions: [{ ...wave, name: "" }] }),
      /'customActions\[0\]\.name' must be a non-empty string: current value is ""/,
    );
  },
);
