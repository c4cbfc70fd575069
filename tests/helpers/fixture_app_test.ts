/// <reference lib="dom" />
import { test } from "./test.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { useFixtureApp } from "./browser.ts";

const env = useFixtureApp();

/** Opens a fixture page in a fresh context (fresh sessionStorage) and runs `body`. */
async function onPage(name: string, body: (page: Page) => Promise<void>): Promise<void> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${env.url}${name}`);
    await body(page);
  } finally {
    await context.close();
  }
}

function state<T = Record<string, unknown>>(page: Page): Promise<T> {
  return page.evaluate("window.appState") as Promise<T>;
}

test("login.html shows an inline error for wrong credentials", async () => {
  await onPage("login.html", async (page) => {
    await page.fill("#username", "bob");
    await page.fill("#password", "nope");
    await page.click("text=Sign in >> nth=-1");
    await page.locator("#login-error").waitFor({ state: "visible" });
    assert.equal(await page.textContent("#login-error"), "Wrong username or password.");
    const s = await state<{ attempts: number; error: string; user: string | null }>(page);
    assert.deepEqual(s, {
      page: "login",
      attempts: 1,
      error: "Wrong username or password.",
      user: null,
    });
    assert.match(page.url(), /login\.html$/);
  });
});

test("login.html signs alice in and goes to list.html, which greets her", async () => {
  await onPage("login.html", async (page) => {
    await page.fill("#username", "alice");
    await page.fill("#password", "secret");
    await Promise.all([page.waitForURL(/list\.html$/), page.press("#password", "Enter")]);
    assert.equal(await page.evaluate("sessionStorage.getItem('user')"), "alice");
    assert.equal(await page.textContent("#welcome"), "Signed in as alice");
    assert.equal((await state<{ user: string }>(page)).user, "alice");
  });
});

test("list.html adds, completes and deletes items and shows the count", async () => {
  await onPage("list.html", async (page) => {
    assert.equal(await page.textContent("#item-count"), "3 items");
    await page.fill("#new-item", "Call mum");
    await page.click("#add");
    assert.equal(await page.textContent("#item-count"), "4 items");
    await page.fill("#new-item", "Water plants");
    await page.press("#new-item", "Enter");
    await page.check('[aria-label="Done: Buy milk"]');
    await page.click('[aria-label="Delete Walk the dog"]');
    const s = await state<
      { items: Array<{ text: string; done: boolean }>; count: number; doneCount: number }
    >(
      page,
    );
    assert.deepEqual(s.items.map((i) => [i.text, i.done]), [
      ["Buy milk", true],
      ["Write the report", false],
      ["Call mum", false],
      ["Water plants", false],
    ]);
    assert.equal(s.count, 4);
    assert.equal(s.doneCount, 1);
    assert.equal(await page.textContent("#item-count"), "4 items");
    assert.equal(await page.textContent("#done-count"), "1 done");
    for (const text of ["Buy milk", "Write the report", "Call mum"]) {
      await page.click(`[aria-label="Delete ${text}"]`);
    }
    assert.equal(await page.textContent("#item-count"), "1 item");
  });
});

test("todos.html: each trap of a batched plan puts another element where its target was", async () => {
  // The center of an element now, and the data-key of what is at a point now.
  const keyAt = (page: Page, selector: string) =>
    page.evaluate((sel) => {
      const r = document.querySelector(sel)!.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    }, selector);
  const at = (page: Page, point: number[]) =>
    page.evaluate(([x, y]) => {
      const el = document.elementFromPoint(x, y)?.closest("[data-key]") as HTMLElement | null;
      return el?.dataset.key;
    }, point);
  await onPage("todos.html", async (page) => {
    // A new row takes the place of the Active filter link.
    const active = await keyAt(page, '[data-key="filter:Active"]');
    await page.fill("#title", "Water plants");
    await page.press("#title", "Enter");
    assert.equal(await at(page, active), "row:Water plants");
    // Typing a todo opens its suggestions over the Note field.
    const note = await keyAt(page, "#note");
    await page.click("#title");
    await page.keyboard.type("Pay rent");
    assert.equal(await at(page, note), "option:Pay rent online");
    await page.click('[data-key="option:Pay rent"]');
    assert.deepEqual(
      [await page.inputValue("#title"), await at(page, note)],
      ["Pay rent", "field:note"],
    );
  });
  for (const act of ['[data-key="button:clear-completed"]', '[data-key="filter:Active"]']) {
    await onPage("todos.html", async (page) => {
      // Clear completed, or the Active filter, puts the next row where "Write the report" was.
      const write = await keyAt(page, '[data-key="toggle:Write the report"]');
      await page.click(act);
      // The filter follows the address's fragment, on the hashchange event after the click.
      await page.waitForFunction(
        "window.appState.items.length === 3 || window.appState.filter === 'active'",
      );
      assert.equal(await at(page, write), "toggle:Call mum");
      const s = await state<{ items: { text: string }[]; filter: string; events: unknown[] }>(
        page,
      );
      assert.equal(s.events.length, 1, "the app recorded the press");
      assert.equal(s.items.length, act.includes("clear") ? 3 : 4);
      assert.equal(s.filter, act.includes("clear") ? "all" : "active");
    });
  }
});

test("form.html shows a summary of the submitted values", async () => {
  await onPage("form.html", async (page) => {
    await page.selectOption("#country", "Japan");
    await page.check("#subscribe");
    await page.check('input[name="plan"][value="Team"]');
    await page.fill("#comments", "Hello\nthere");
    await page.click("#submit");
    await page.locator("#summary").waitFor({ state: "visible" });
    assert.equal(await page.textContent("#summary-country"), "Japan");
    assert.equal(await page.textContent("#summary-subscribe"), "Yes");
    assert.equal(await page.textContent("#summary-plan"), "Team");
    assert.equal(await page.textContent("#summary-comments"), "Hello\nthere");
    assert.deepEqual(await state(page), {
      page: "form",
      submitCount: 1,
      submitted: { country: "Japan", subscribe: true, plan: "Team", comments: "Hello\nthere" },
    });
  });
});

test("long.html is about five screens tall with the bottom button at the very end", async () => {
  await onPage("long.html", async (page) => {
    const s = await state<{ pageHeight: number; scrollY: number }>(page);
    assert.ok(s.pageHeight >= 3600 && s.pageHeight <= 4800, `height ${s.pageHeight}`);
    assert.equal(s.scrollY, 0);
    assert.equal(await page.locator("#bottom-button").isVisible(), true);
    assert.equal(
      await page.evaluate(
        "document.getElementById('bottom-button').getBoundingClientRect().top > innerHeight",
      ),
      true,
    );
    await page.mouse.wheel(0, 10000);
    await page.waitForFunction(
      "window.scrollY + innerHeight >= document.documentElement.scrollHeight",
    );
    await page.click("#bottom-button");
    const end = await state<{ bottomClicks: number; scrollY: number; pageHeight: number }>(page);
    assert.equal(end.bottomClicks, 1);
    assert.equal(end.scrollY, end.pageHeight - 800);
    assert.equal(await page.locator("#bottom-message").isVisible(), true);
  });
});

test("actions.html counts clicks, double-clicks, right-clicks, hovers, keys and inner scrolling", async () => {
  await onPage("actions.html", async (page) => {
    await page.click("#click-button");
    await page.click("#click-button");
    await page.dblclick("#dblclick-button");
    await page.click("#right-target", { button: "right" });
    await page.hover("#hover-card");
    assert.equal(await page.locator("#hover-text").isVisible(), true);
    await page.click("#key-input");
    await page.keyboard.type("ab");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Shift+Tab");
    await page.focus("#key-input");
    await page.keyboard.press("Enter");
    await page.hover("#scroll-box");
    await page.mouse.wheel(0, 200);
    await page.waitForFunction("window.appState.innerScrollTop > 0");
    const s = await state<Record<string, unknown>>(page);
    assert.equal(s.clicks, 2);
    assert.equal(s.doubleClicks, 1);
    assert.equal(s.rightClicks, 1);
    assert.equal(s.hoverCount, 1);
    assert.equal(s.hovered, false, "the pointer left the card for the scroll box");
    assert.deepEqual(s.keys, ["a", "b", "Control", "Control+A", "Shift", "Shift+Tab", "Enter"]);
    assert.equal(s.lastKey, "Enter");
    assert.equal(s.inputValue, "ab");
    assert.equal(await page.textContent("#key-log"), "Enter");
    assert.equal(await page.textContent("#rightclick-count"), "1");
    assert.ok((s.innerScrollTop as number) > 0);
    assert.equal(await page.evaluate("window.scrollY"), 0, "the inner box scrolled, not the page");
  });
});
