/**
 * The `xpath` option (spec 4.2) on both drivers: tried before the model; a match needs no model
 * call, no match falls back to the model with the description, an invalid expression fails.
 */

import assert from "node:assert/strict";
import type { TargetBox } from "@sdk/core/testing";
import { driverTest, type E2ePage } from "./_drivers.ts";

/** Locates by description on the fixture pages, as a model would. */
function locator(page: E2ePage) {
  return {
    locate: ({ target }: { target: string }): Promise<TargetBox | null> =>
      /click me/i.test(target) ? page.measure("#click-button") : Promise.resolve(null),
  };
}

const near = (actual: number, expected: number, label: string, tolerance = 1) =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${label}: ${actual} is not within ${tolerance} of ${expected}`,
  );

driverTest("aiTap with a matching xpath clicks the element without any model call", async (e2e) => {
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, locator(page));
  const xpath = "//button[@id='click-button']";
  await agent.aiTap("the Click me button", { xpath });
  assert.equal(await page.state("clicks"), 1);
  // A text node stands for its element.
  await agent.aiTap("the Click me button", { xpath: "//button[text()='Click me']/text()" });
  assert.equal(await page.state("clicks"), 2);
  assert.equal(model.calls.length, 0);

  // The report step says how it was located and marks the element (dpr 1: image px = CSS px).
  const steps = agent._unstableLogContent().executions[0].steps;
  assert.deepEqual(steps.map((s) => [s.kind, s.title]), [
    ["Locate", `Locate by xpath: ${xpath}`],
    ["Action", "Tap"],
  ]);
  assert.match(steps[0].thought ?? "", /Located by xpath, without a model call/);
  assert.ok(steps[0].screenshot);
  const box = await page.measure("#click-button");
  const target = steps[0].target!;
  near(target.left, box.left, "target left");
  near(target.top, box.top, "target top");
  near(target.width, box.width, "target width");
  near(target.height, box.height, "target height");
});

driverTest(
  "an xpath to an element below the screen scrolls it into view and clicks it",
  async (e2e) => {
    const page = await e2e.open("long.html");
    const { agent, model } = await e2e.agent(page, {});
    await agent.aiTap("the bottom button", { xpath: "//button[@id='bottom-button']" });
    assert.equal(await page.state("bottomClicks"), 1);
    assert.ok((await page.state<number>("scrollY")) > 0, "the page scrolled");
    assert.equal(model.calls.length, 0);
  },
);

driverTest(
  "an xpath without a description locates the element for aiKeyboardPress",
  async (e2e) => {
    const page = await e2e.open("actions.html");
    const { agent, model } = await e2e.agent(page, {});
    await agent.aiKeyboardPress(undefined, { keyName: "a", xpath: "//input[@id='key-input']" });
    assert.equal(await page.state("inputValue"), "a");
    assert.equal(model.calls.length, 0);
  },
);

driverTest("an xpath that matches nothing visible falls back to the model", async (e2e) => {
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, locator(page));
  // No such element; then an element that exists but is hidden.
  await agent.aiTap("the Click me button", { xpath: "//button[@id='no-such-button']" });
  await agent.aiTap("the Click me button", { xpath: "//*[@id='hover-text']" });
  assert.equal(await page.state("clicks"), 2);
  assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "locate"]);
  assert.equal((model.calls[0].call as { target: string }).target, "the Click me button");

  const steps = agent._unstableLogContent().executions[0].steps;
  assert.deepEqual(steps.map((s) => s.kind), ["Locate", "Locate", "Action"]);
  assert.equal(steps[0].title, "Locate by xpath: //button[@id='no-such-button']");
  assert.match(steps[0].thought ?? "", /No visible element matches the xpath; locating by the/);
  assert.equal(steps[0].target, undefined);

  // Without a description there is nothing to fall back to.
  await assert.rejects(
    agent.aiKeyboardPress(undefined, { keyName: "a", xpath: "//input[@id='nope']" }),
    /no visible element matches xpath "\/\/input\[@id='nope'\]", and there is no description/,
  );
  assert.equal(model.calls.length, 2);
});

driverTest("an invalid xpath rejects naming it, without a model call or a click", async (e2e) => {
  const page = await e2e.open("actions.html");
  const { agent, model } = await e2e.agent(page, locator(page));
  await assert.rejects(
    agent.aiTap("the Click me button", { xpath: "//button[" }),
    (e: Error) => e instanceof TypeError && /^Invalid xpath "\/\/button\[": /.test(e.message),
  );
  // An expression that does not select nodes is refused the same way.
  await assert.rejects(
    agent.aiLocate("the Click me button", { xpath: "count(//button)" }),
    /Invalid xpath "count\(\/\/button\)"/,
  );
  await assert.rejects(
    agent.aiTap("the Click me button", { xpath: "" }),
    /aiTap: xpath must be a non-empty XPath expression/,
  );
  assert.equal(await page.state("clicks"), 0);
  assert.equal(model.calls.length, 0);
});

driverTest(
  "aiLocate with an xpath answers physical pixels at dpr 2 without a model call",
  async (e2e) => {
    const page = await e2e.open("actions.html", { dpr: 2 });
    const { agent, model } = await e2e.agent(page, locator(page));
    const result = await agent.aiLocate("the Click me button", {
      xpath: "//button[@id='click-button']",
    });
    const box = await page.measure("#click-button");
    assert.equal(result.dpr, 2);
    near(result.rect.left, box.left * 2, "left");
    near(result.rect.top, box.top * 2, "top");
    near(result.rect.width, box.width * 2, "width");
    near(result.rect.height, box.height * 2, "height");
    near(result.center[0], (box.left + box.width / 2) * 2, "center x");
    near(result.center[1], (box.top + box.height / 2) * 2, "center y");
    assert.equal(model.calls.length, 0);
  },
);
