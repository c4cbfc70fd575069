/**
 * A scripted stand-in model for the bundled fixture app: it answers the SDK's model calls by
 * reading the live page with Playwright (element boxes measured in the browser, field values, the
 * URL), the way a vision model reads the screenshot. Used by the demo (offline mode) and the e2e
 * tests. It is not an AI model.
 *
 * @module
 */

import type { Page } from "playwright-core";
import type {
  AssertReply,
  PlanCall,
  PlanReply,
  TargetBox,
  TestModelScript,
} from "../../core/testing/mod.ts";

/** Target descriptions the fixture app knows, first match wins. */
export const APP_TARGETS: readonly [RegExp, string][] = [
  [/user ?name/i, "#username"],
  [/password/i, "#password"],
  [/sign.?in/i, "#sign-in"],
  [/new (todo )?item|todo input|what needs/i, "#new-item"],
  [/\badd\b/i, "#add"],
  [/double/i, "#dblclick-button"],
  [/right/i, "#right-target"],
  [/hover/i, "#hover-card"],
  [/key/i, "#key-input"],
  [/scroll(able)? (box|list)/i, "#scroll-box"],
  [/click/i, "#click-button"],
  [/country/i, "#country"],
  [/subscribe/i, "#subscribe"],
  [/comment/i, "#comments"],
  [/submit/i, "#submit"],
  [/bottom/i, "#bottom-button"],
];

/** Box of the first visible element matching the description, or `null` when none is visible. */
export async function locateTarget(page: Page, description: string): Promise<TargetBox | null> {
  for (const [re, selector] of APP_TARGETS) {
    if (!re.test(description)) continue;
    const el = page.locator(selector).first();
    if (!(await el.isVisible())) continue;
    const box = await el.boundingBox();
    if (box) return { left: box.x, top: box.y, width: box.width, height: box.height };
  }
  return null;
}

async function locateParam(page: Page, prompt: string) {
  const box = await locateTarget(page, prompt);
  if (!box) throw new Error(`scripted model: "${prompt}" is not on the page`);
  return { prompt, box };
}

/** Todo items shown on the list page. */
export function todoItems(page: Page): Promise<string[]> {
  return page.locator("#todo-list li .text, #todo-list li span:first-child").allTextContents()
    .then((all) => all.map((t) => t.trim()).filter(Boolean));
}

/** One step of the demo task: the action and its log. */
type Step = { type: string; param: Record<string, unknown>; log: string };

/** How the scripted planner answers. */
export interface AppPlanOptions {
  /**
   * Plan every step the screen allows in one answer (the fields of a form with its submit last),
   * up to the call's `maxActions`, as a model following the planning prompt does. Default
   * `false`: one step per answer.
   */
  batch?: boolean;
}

/**
 * Plans the demo task on the fixture app: "sign in as USER with password PASS, then add the todo
 * 'ITEM'". Each answer is the next step from the page's current state, or with `batch` the steps
 * up to the next page change.
 */
export async function planSignInAndAdd(
  page: Page,
  call: PlanCall,
  options: AppPlanOptions = {},
): Promise<PlanReply> {
  const user = /as (\w+)/i.exec(call.instruction)?.[1];
  const pass = /password (\w+)/i.exec(call.instruction)?.[1];
  const item = /'([^']+)'/.exec(call.instruction)?.[1];
  if (!user || !pass || !item) {
    return { log: "", error: "The instruction names no user, password or todo item." };
  }
  const input = async (prompt: string, value: string, log: string): Promise<Step> => ({
    type: "Input",
    param: { locate: await locateParam(page, prompt), value },
    log,
  });
  const tap = async (prompt: string, log: string): Promise<Step> => ({
    type: "Tap",
    param: { locate: await locateParam(page, prompt) },
    log,
  });
  const path = new URL(page.url()).pathname;
  const steps: Step[] = [];
  if (path.endsWith("/login.html")) {
    if (await page.inputValue("#username") !== user) {
      steps.push(await input("the username field", user, `Type "${user}" into the username field`));
    }
    if (await page.inputValue("#password") !== pass) {
      steps.push(
        await input("the password field", pass, "Type the password into the password field"),
      );
    }
    steps.push(await tap("the Sign in button", "Tap the Sign in button"));
  } else if (path.endsWith("/list.html")) {
    if ((await todoItems(page)).includes(item)) {
      return { log: "The item is in the list", finished: true, output: `Added "${item}"` };
    }
    if (await page.inputValue("#new-item") !== item) {
      steps.push(
        await input("the new item field", item, `Type "${item}" into the new item field`),
      );
    }
    steps.push(await tap("the Add button", "Tap the Add button"));
  } else {
    return { log: "", error: `I see neither the login page nor the todo list (at ${path}).` };
  }
  if (options.batch && call.maxActions > 1) {
    const taken = steps.slice(0, call.maxActions);
    return { log: taken.map((s) => s.log).join("; "), actions: taken };
  }
  const [{ log, ...action }] = steps;
  return { log, action };
}

/** Answers extraction demands about the todo list and the page heading. */
export async function extractFromApp(page: Page, demand: string): Promise<unknown> {
  if (/todo|items?/i.test(demand)) {
    const items = await todoItems(page);
    return /how many|count|number/i.test(demand) ? items.length : items;
  }
  if (/heading|title/i.test(demand)) {
    return (await page.locator("h1").first().textContent())?.trim();
  }
  return null;
}

/** Checks assertions of the form "... shows 'TEXT'" against the page's visible text. */
export async function assertOnApp(page: Page, assertion: string): Promise<AssertReply> {
  const quoted = /'([^']+)'/.exec(assertion)?.[1];
  if (!quoted) return { pass: false, thought: "The assertion names no quoted text to look for." };
  const text = await page.locator("body").innerText();
  const pass = text.includes(quoted);
  return {
    pass,
    thought: pass ? `The page shows "${quoted}".` : `The page does not show "${quoted}".`,
  };
}

/** The whole script for the demo task on the fixture app. */
export function appModelScript(page: Page, options: AppPlanOptions = {}): TestModelScript {
  return {
    plan: (call) => planSignInAndAdd(page, call, options),
    locate: (call) => locateTarget(page, call.target),
    extract: (call) => extractFromApp(page, call.demand),
    assert: (call) => assertOnApp(page, call.assertion),
  };
}
