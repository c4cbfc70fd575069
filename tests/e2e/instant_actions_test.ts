/// <reference lib="dom" />
import assert from "node:assert/strict";
import { locateTarget } from "../helpers/app_model.ts";
import { driverTest, type E2e, type E2ePage } from "./_drivers.ts";

/** An agent whose model locates fixture-app targets by description. */
function agentOn(env: E2e, page: E2ePage) {
  return env.agent(page, { locate: (call) => locateTarget(page.appView(), call.target) });
}

driverTest("aiTap clicks the element the model locates", async (env) => {
  const page = await env.open("actions.html");
  const { agent, model } = await agentOn(env, page);
  await agent.aiTap("the Click me button");
  assert.equal(await page.state("clicks"), 1);
  assert.equal(model.calls[0].kind, "locate");
  assert.equal((model.calls[0].call as { target: string }).target, "the Click me button");
});

driverTest("aiTap accepts a prompt object", async (env) => {
  const page = await env.open("actions.html");
  const { agent } = await agentOn(env, page);
  await agent.aiTap({ prompt: "the Click me button" });
  assert.equal(await page.state("clicks"), 1);
});

driverTest("aiDoubleClick fires one dblclick", async (env) => {
  const page = await env.open("actions.html");
  const { agent } = await agentOn(env, page);
  await agent.aiDoubleClick("the Double-click me button");
  assert.equal(await page.state("doubleClicks"), 1);
});

driverTest("aiRightClick reaches the element's own context-menu handler", async (env) => {
  const page = await env.open("actions.html");
  const { agent } = await agentOn(env, page);
  await agent.aiRightClick("the Right-click me area");
  assert.equal(await page.state("rightClicks"), 1);
});

driverTest("aiHover shows the hover card's text", async (env) => {
  const page = await env.open("actions.html");
  const { agent } = await agentOn(env, page);
  await agent.aiHover("the hover card");
  assert.equal(await page.state("hovered"), true);
  assert.equal(await page.isVisible("#hover-text"), true);
});

driverTest("aiInput replaces, types after, and clears a field's value", async (env) => {
  const page = await env.open("login.html");
  const { agent } = await agentOn(env, page);
  await page.fill("#username", "old text");
  await agent.aiInput("the username field", { value: "alice" });
  assert.equal(await page.inputValue("#username"), "alice");
  await agent.aiInput("the username field", { value: "-smith", mode: "typeOnly" });
  assert.equal(await page.inputValue("#username"), "alice-smith");
  await agent.aiInput("the username field", { mode: "clear" });
  assert.equal(await page.inputValue("#username"), "");
});

driverTest("aiInput's deprecated value-first signature and numbers work", async (env) => {
  const page = await env.open("login.html");
  const { agent } = await agentOn(env, page);
  await agent.aiInput(42, "the username field");
  assert.equal(await page.inputValue("#username"), "42");
  await agent.aiInput("x", { prompt: "the password field" }, { mode: "append" });
  assert.equal(await page.inputValue("#password"), "x");
});

driverTest("aiInput rejects a missing value before any model call", async (env) => {
  const page = await env.open("login.html");
  const { agent, model } = await agentOn(env, page);
  await assert.rejects(
    agent.aiInput("the username field", {} as { value: string }),
    /aiInput needs a value/,
  );
  assert.equal(model.calls.length, 0);
});

driverTest("aiClearInput empties the field", async (env) => {
  const page = await env.open("login.html");
  const { agent } = await agentOn(env, page);
  await page.fill("#username", "something");
  await agent.aiClearInput("the username field");
  assert.equal(await page.inputValue("#username"), "");
});

driverTest(
  "aiKeyboardPress presses combinations at a located field and keys on the focused element",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent, model } = await agentOn(env, page);
    await page.fill("#key-input", "abc");
    await agent.aiKeyboardPress("the key input", { keyName: "Control+A" });
    assert.equal(await page.state("lastKey"), "Control+A");
    // No locate: the focused element gets the key, and the model is not asked.
    const callsBefore = model.calls.length;
    await agent.aiKeyboardPress(undefined, { keyName: "Backspace" });
    assert.equal(await page.inputValue("#key-input"), "");
    assert.equal(model.calls.length, callsBefore);
    // Deprecated key-first signature.
    await agent.aiKeyboardPress("Enter");
    assert.equal(await page.state("lastKey"), "Enter");
  },
);

driverTest(
  "aiScroll scrolls the page down, to the bottom, and an inner box at its location",
  async (env) => {
    const page = await env.open("long.html");
    const { agent } = await agentOn(env, page);
    await agent.aiScroll(undefined, { direction: "down", distance: 400 });
    const y1 = await page.evaluate(() => scrollY);
    assert.ok(Math.abs(y1 - 400) <= 40, `scrolled to ${y1}, expected about 400`);
    // Deprecated param-first signature.
    await agent.aiScroll({ scrollType: "scrollToBottom" });
    const atBottom = await page.evaluate(() =>
      Math.abs(scrollY + innerHeight - document.documentElement.scrollHeight) <= 2
    );
    assert.ok(atBottom, "page is at the bottom");
    assert.equal(await page.isVisible("#bottom-button"), true);

    const actions = await env.open("actions.html");
    const { agent: a2 } = await agentOn(env, actions);
    await a2.aiScroll("the scrollable box", { direction: "down", distance: 120 });
    assert.ok((await actions.state<number>("innerScrollTop")) > 50);
    assert.equal(await actions.evaluate(() => scrollY), 0);
  },
);

driverTest(
  "aiLocate returns the element's box and center in screenshot pixels with dpr",
  async (env) => {
    const page = await env.open("actions.html");
    const { agent } = await agentOn(env, page);
    const box = await page.measure("#click-button");
    const found = await agent.aiLocate("the Click me button");
    assert.equal(found.dpr, 1);
    assert.ok(Math.abs(found.center[0] - (box.left + box.width / 2)) <= 2);
    assert.ok(Math.abs(found.center[1] - (box.top + box.height / 2)) <= 2);
    assert.ok(Math.abs(found.rect.width - box.width) <= 2);
  },
);

driverTest("an element the model cannot find fails the call without acting", async (env) => {
  const page = await env.open("actions.html");
  const { agent } = await agentOn(env, page);
  await assert.rejects(
    agent.aiTap("the purple unicorn"),
    /Element not found: "the purple unicorn"/,
  );
  assert.equal(await page.state("clicks"), 0);
});
