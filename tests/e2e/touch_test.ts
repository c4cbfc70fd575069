/// <reference lib="dom" />
/**
 * Gestures (spec 4.2 `aiPinch`, `aiLongPress`; spec 4.7 `DragAndDrop`, `LongPress`, and `Swipe` /
 * `Pinch` with `enableTouchEventsInActionSpace`), on both drivers, checked on touch.html's
 * recorded state.
 */
import assert from "node:assert/strict";
import type { Page as PageB } from "playwright-core";
import type { Page as PageA } from "puppeteer-core";
import { DriverAPageDriver, DriverBPageDriver, WebPageDevice } from "@sdk/web";
import type { PageDriver, WebPageAgentOptions } from "@sdk/web";
import type { PlanCall, PlanReply, TestModelOptions } from "@sdk/core/testing";
import { driverTest } from "./_drivers.ts";
import type { E2e, E2ePage } from "./_drivers.ts";

const TARGETS: readonly [RegExp, string][] = [
  [/carousel/i, "#carousel"],
  [/hold/i, "#hold"],
  [/drawing|canvas/i, "#zoom"],
  [/chip/i, "#chip"],
  [/bin/i, "#bin"],
  [/card/i, "#card"],
  [/tray/i, "#tray"],
];

function selectorFor(description: string): string {
  const found = TARGETS.find(([re]) => re.test(description));
  if (!found) throw new Error(`touch.html has no element for "${description}"`);
  return found[1];
}

/** A scripted locate parameter: the element's measured box. */
async function target(page: E2ePage, prompt: string) {
  return { prompt, box: await page.measure(selectorFor(prompt)) };
}

type Step = (page: E2ePage) => Promise<PlanReply> | PlanReply;

const done: Step = () => ({ log: "done", finished: true });

/**
 * touch.html with an agent whose model locates elements by description and answers planning
 * calls with `steps`, one per call.
 */
async function setUp(
  e2e: E2e,
  options: WebPageAgentOptions & { family?: TestModelOptions["family"] } = {},
  steps: Step[] = [done],
) {
  const { family, ...agentOptions } = options;
  const page = await e2e.open("touch.html");
  let next = 0;
  const { agent, model } = await e2e.agent(page, {
    locate: (call) => page.measure(selectorFor(call.target)),
    plan: () => {
      const step = steps[next++];
      if (!step) throw new Error("the scripted plan has no more steps");
      return step(page);
    },
  }, { ...agentOptions, model: family ? { family } : {} });
  return { page, agent, model };
}

function systemPromptOf(call: unknown): string {
  return (call as PlanCall).systemPrompt;
}

driverTest(
  "without enableTouchEventsInActionSpace the action space has no Swipe or Pinch and aiPinch rejects before any model call",
  async (e2e) => {
    const { page, agent, model } = await setUp(e2e);
    await agent.aiAct("look at the page");
    const system = systemPromptOf(model.calls[0].call);
    for (const name of ["DragAndDrop", "LongPress"]) {
      assert.match(system, new RegExp(`^- ${name}:`, "m"));
    }
    for (const name of ["Swipe", "Pinch"]) {
      assert.doesNotMatch(system, new RegExp(`^- ${name}:`, "m"));
    }
    await assert.rejects(
      agent.aiPinch(undefined, { direction: "out" }),
      /aiPinch: This device has no action named "Pinch"; its actions are: .*DragAndDrop, LongPress\. On web pages, create the agent with enableTouchEventsInActionSpace: true/,
    );
    assert.equal(model.calls.length, 1);
    assert.equal(await page.evaluate(() => navigator.maxTouchPoints), 0);
    assert.equal(await page.state("scale"), 1);
  },
);

driverTest(
  "with enableTouchEventsInActionSpace the page sees a touch screen and planned Swipes turn the touch-only carousel",
  async (e2e) => {
    const { page, agent, model } = await setUp(e2e, { enableTouchEventsInActionSpace: true }, [
      async (p) => ({
        log: "swipe the carousel left by 200 px",
        action: {
          type: "Swipe",
          param: { start: await target(p, "the carousel"), direction: "left", distance: 200 },
        },
      }),
      async (p) => ({
        log: "swipe the carousel left again",
        action: {
          type: "Swipe",
          param: { start: await target(p, "the carousel"), direction: "left" },
        },
      }),
      done,
    ]);
    await agent.aiAct("show the third slide of the carousel");
    assert.equal(await page.state("slide"), 2);
    const system = systemPromptOf(model.calls[0].call);
    for (const name of ["Swipe", "Pinch", "LongPress", "DragAndDrop"]) {
      assert.match(system, new RegExp(`^- ${name}:`, "m"));
    }
    assert.equal(await page.evaluate(() => navigator.maxTouchPoints), 5);
    assert.equal(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), true);
  },
);

driverTest(
  "AutoGLM's Swipe(start, end) fills both locate parameters of the device's Swipe",
  async (e2e) => {
    const { page, agent } = await setUp(
      e2e,
      { enableTouchEventsInActionSpace: true, family: "auto-glm" },
      [
        async (p) => {
          const carousel = await p.measure("#carousel");
          return {
            log: "swipe from the carousel's center to its left edge",
            action: {
              type: "Swipe",
              param: {
                start: await target(p, "the carousel"),
                end: {
                  prompt: "the left edge of the carousel",
                  box: { left: carousel.left + 10, top: carousel.top + 70, width: 20, height: 20 },
                },
              },
            },
          };
        },
        () => ({ log: "done", output: "moved" }),
      ],
    );
    assert.equal(await agent.aiAct("show the next slide"), "moved");
    assert.equal(await page.state("slide"), 1);
  },
);

driverTest(
  "aiPinch out raises the canvas zoom by the default distance and aiPinch in at the screen center lowers it",
  async (e2e) => {
    const { page, agent, model } = await setUp(e2e, { enableTouchEventsInActionSpace: true });
    await agent.aiPinch("the zoomable drawing", { direction: "out" });
    const out = await page.state<number>("scale");
    // Fingers 40 px apart spread by a quarter of the 800 px side: 240 / 40.
    assert.ok(Math.abs(out - 6) < 0.3, `zoom after pinching out: ${out}`);
    assert.equal(await page.state("pinchFingers"), 2);
    const calls = model.calls.length;

    await agent.aiPinch(undefined, { direction: "in", distance: 100, duration: 200 });
    const zoomIn = await page.state<number>("scale");
    assert.ok(Math.abs(zoomIn - out * 40 / 140) < 0.3, `zoom after pinching in: ${zoomIn}`);
    assert.equal(model.calls.length, calls, "no model call without a locate");
  },
);

driverTest(
  "aiLongPress holds the mouse for the duration, and a finger when touch is enabled",
  async (e2e) => {
    const { page, agent } = await setUp(e2e);
    await agent.aiLongPress("the hold button", { duration: 700 });
    const mouse = await page.state<{ kind: string; heldMs: number }>("longPress");
    assert.equal(mouse.kind, "mouse");
    assert.ok(mouse.heldMs >= 699, `held ${mouse.heldMs} ms`);
    await agent.aiLongPress("the hold button");
    const byDefault = await page.state<{ heldMs: number }>("longPress");
    assert.ok(byDefault.heldMs >= 499 && byDefault.heldMs < 1000, `held ${byDefault.heldMs} ms`);

    const touch = await setUp(e2e, { enableTouchEventsInActionSpace: true });
    await touch.agent.aiLongPress("the hold button", { duration: 600 });
    const finger = await touch.page.state<{ kind: string; heldMs: number }>("longPress");
    assert.equal(finger.kind, "touch");
    assert.ok(finger.heldMs >= 599, `held ${finger.heldMs} ms`);
  },
);

driverTest(
  "aiPinch and aiLongPress reject bad options before any model call",
  async (e2e) => {
    const { agent, model } = await setUp(e2e, { enableTouchEventsInActionSpace: true });
    await assert.rejects(
      agent.aiPinch("the zoomable drawing", { direction: "sideways" as "in" }),
      /aiPinch: 'direction' must be 'in' \(zoom out\) or 'out' \(zoom in\): current value is "sideways"/,
    );
    await assert.rejects(
      agent.aiPinch(undefined, { direction: "in", distance: -5 }),
      /aiPinch: 'distance' must be a finite number > 0: current value is -5/,
    );
    await assert.rejects(
      agent.aiLongPress("the hold button", { duration: NaN }),
      /aiLongPress: 'duration' must be a finite number > 0: current value is NaN/,
    );
    assert.equal(model.calls.length, 0);
  },
);

driverTest(
  "DragAndDrop planned by aiAct drops a pointer-dragged chip in the bin and an HTML5-draggable card in the tray",
  async (e2e) => {
    const { page, agent } = await setUp(e2e, {}, [
      async (p) => ({
        log: "drag the chip to the bin",
        action: {
          type: "DragAndDrop",
          param: { from: await target(p, "the chip"), to: await target(p, "the bin") },
        },
      }),
      async (p) => ({
        log: "drag the card to the tray",
        action: {
          type: "DragAndDrop",
          param: { from: await target(p, "the card"), to: await target(p, "the tray") },
        },
      }),
      done,
    ]);
    await agent.aiAct("put the chip in the bin and the card in the tray");
    assert.equal(await page.state("chipInBin"), true);
    assert.equal(await page.state("cardInTray"), true);
    const chip = await page.measure("#chip"), bin = await page.measure("#bin");
    assert.ok(
      chip.left >= bin.left && chip.left + chip.width <= bin.left + bin.width,
      `chip ${JSON.stringify(chip)} inside bin ${JSON.stringify(bin)}`,
    );
  },
);

driverTest("UI-TARS drag(start_box, end_box) runs as DragAndDrop", async (e2e) => {
  const { page, agent } = await setUp(e2e, { family: "vlm-ui-tars" }, [
    async (p) => ({
      log: "drag the card to the tray",
      action: {
        type: "DragAndDrop",
        param: { from: await target(p, "the card"), to: await target(p, "the tray") },
      },
    }),
    () => ({ log: "done" }),
  ]);
  await agent.aiAct("put the card in the tray");
  assert.equal(await page.state("cardInTray"), true);
});

driverTest(
  "enableTouchEventsInActionSpace on a driver without touch input is refused at construction",
  async (e2e) => {
    const page = await e2e.open("touch.html");
    const driver: PageDriver = e2e.driver === "DriverA"
      ? new DriverAPageDriver(page.raw as PageA)
      : new DriverBPageDriver(page.raw as PageB);
    // The same driver, minus its touch capability (as a driver for a non-Chromium browser).
    const noTouch = Object.create(driver, { touch: { value: undefined } }) as PageDriver;
    assert.throws(
      () => new WebPageDevice(noTouch, { enableTouchEventsInActionSpace: true }),
      /'enableTouchEventsInActionSpace' needs touch input, which this page's driver cannot send \(Chromium-based browsers only\)/,
    );
    const device = new WebPageDevice(noTouch);
    assert.deepEqual(
      device.actionSpace().map((a) => a.name).filter((n) => /Swipe|Pinch/.test(n)),
      [],
    );
  },
);
