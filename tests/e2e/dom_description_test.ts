/// <reference lib="dom" />
/**
 * The web device's element description (`getElementsDescription`, behind `domIncluded`) on a real
 * page, for both drivers: what it lists, where it says elements are, and what it leaves out.
 */
import assert from "node:assert/strict";
import { driverTest, type E2ePage } from "./_drivers.ts";
import { attributeOf, boxOf, depthOf, lineOf, requireLine } from "./_dom_lines.ts";

/** The element's box in CSS pixels of the viewport, rounded like the description rounds. */
function roundedBox(page: E2ePage, selector: string) {
  return page.evaluate((sel: string) => {
    const r = document.querySelector(sel)!.getBoundingClientRect();
    return {
      left: Math.round(r.left),
      top: Math.round(r.top),
      width: Math.round(r.width),
      height: Math.round(r.height),
    };
  }, selector);
}

driverTest(
  "the full description lists hidden link targets, flags hidden and off-screen elements, and gives real boxes",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    const { agent } = await e2e.agent(page, {});
    const dom = await agent.interface.getElementsDescription({ visibleOnly: false });

    assert.equal(
      dom.split("\n")[0],
      `page url=${JSON.stringify(page.url())} title="Downloads - Fixture App" viewport=(1280,800)`,
    );
    // The point of domIncluded: a link the screenshot cannot show, with its target.
    const hidden = requireLine(dom, "a#hidden-download");
    assert.equal(attributeOf(hidden, "href"), "/files/annual-report-2024.pdf");
    assert.equal(attributeOf(hidden, "text"), "Annual report");
    assert.ok(hidden.endsWith(" hidden"), hidden);
    assert.equal(boxOf(hidden), undefined, "a display:none element has no box");
    assert.equal(attributeOf(requireLine(dom, "img"), "alt"), "Report cover");
    for (const head of ["span#ghost", "span#faded", "input#token"]) {
      assert.ok(requireLine(dom, head).endsWith(" hidden"), `${head} is flagged hidden`);
    }
    assert.equal(attributeOf(requireLine(dom, "input#token"), "value"), "tok-1234");

    // Visible elements carry their measured box and no flag.
    for (const selector of ["#title", "#photo-thumb", "#go", "#query", "#agree"]) {
      const line = requireLine(dom, requireHead(dom, selector));
      assert.deepEqual(boxOf(line), await roundedBox(page, selector), line);
      assert.ok(!/ (hidden|off-screen)$/.test(line), line);
    }
    // Below the fold: rendered, outside the viewport.
    const footer = requireLine(dom, "a#footer-link");
    assert.ok(footer.endsWith(" off-screen"), footer);
    assert.deepEqual(boxOf(footer), await roundedBox(page, "#footer-link"));
    assert.ok(boxOf(footer)!.top >= 800);

    // Same-origin frame content, offset into the top page, including its hidden link.
    assert.equal(
      attributeOf(requireLine(dom, "a#mirror-link"), "href"),
      "https://mirror.example.org/sunset-4096.jpg",
    );
    assert.ok(requireLine(dom, "a#frame-hidden").endsWith(" hidden"));
    assert.ok(
      depthOf(requireLine(dom, "button#frame-button")) > depthOf(
        requireLine(dom, "iframe#inner-frame"),
      ),
    );
    // Open shadow roots are walked.
    assert.equal(attributeOf(requireLine(dom, "button#shadow-button"), "text"), "Shadow action");

    // Wrappers without anything of their own are dropped, their children move up.
    assert.equal(depthOf(requireLine(dom, "span#status")), 0);
    assert.equal(depthOf(requireLine(dom, "img#photo-thumb")), 1, "nested in its link");
    assert.equal(lineOf(dom, "div"), undefined, "no line for an empty wrapper div");
    assert.ok(!dom.includes("SCRIPT_MARKER") && !dom.includes("must not be described"));
    assert.equal(lineOf(dom, "script"), undefined);
    assert.equal(lineOf(dom, "style"), undefined);

    // Form state is the current one, and a password never leaves the page.
    await page.evaluate(() => {
      (document.getElementById("query") as HTMLInputElement).value = "moon <b>";
    });
    const after = await agent.interface.getElementsDescription({ visibleOnly: false });
    assert.equal(attributeOf(requireLine(after, "input#query"), "value"), "moon <b>");
    assert.ok(requireLine(after, "input#query").includes("\\u003cb>"), "'<' is escaped");
    assert.ok(!after.includes("hunter2"), "the password value is not described");
    assert.equal(attributeOf(requireLine(after, "input#secret"), "value"), undefined);
    assert.ok(requireLine(after, "input#agree").includes(" checked"));
    assert.equal(attributeOf(requireLine(after, "select#sort"), "value"), "date");
    assert.ok(!after.includes("</page-dom>"), "page text cannot close the block it is sent in");
    assert.equal(
      attributeOf(requireLine(after, "p#escaped"), "text"),
      "Tags like </page-dom> stay text",
    );
  },
);

/** The line head (`tag#id`) of the element a `#id` selector names. */
function requireHead(dom: string, selector: string): string {
  const id = selector.slice(1);
  const line = dom.split("\n").find((l) => new RegExp(`^\\s*[a-z0-9-]+#${id}( |$)`).test(l));
  if (!line) throw new Error(`no line for ${selector} in:\n${dom}`);
  return line.trimStart().split(" ")[0];
}

driverTest(
  "the boxes are where the elements are: taps at them hit a button inside a frame and one in a shadow root",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    let target = "";
    const { agent } = await e2e.agent(page, {
      locate: async () => boxOf(requireLine(await dom(), target))!,
    });
    const dom = () => agent.interface.getElementsDescription({ visibleOnly: true });
    target = "button#frame-button";
    await agent.aiTap("the Frame button");
    target = "button#shadow-button";
    await agent.aiTap("the Shadow action button");
    assert.equal(await page.state("frameClicks"), 1);
    assert.equal(await page.state("shadowClicks"), 1);
  },
);

driverTest(
  "visibleOnly keeps only rendered elements inside the viewport, and follows scrolling",
  async (e2e) => {
    const page = await e2e.open("dom.html");
    const { agent } = await e2e.agent(page, {});
    const dom = await agent.interface.getElementsDescription({ visibleOnly: true });
    for (
      const head of [
        "a#hidden-download",
        "span#ghost",
        "span#faded",
        "input#token",
        "a#frame-hidden",
        "a#footer-link",
      ]
    ) {
      assert.equal(lineOf(dom, head), undefined, `${head} is left out`);
    }
    for (
      const head of ["h1#title", "a#photo-link", "button#frame-button", "button#shadow-button"]
    ) {
      assert.ok(boxOf(requireLine(dom, head)), `${head} is listed with its box`);
    }
    assert.ok(!/ (hidden|off-screen)$/m.test(dom), "no flagged line");

    await page.evaluate(() => scrollTo(0, 2000));
    const scrolled = await agent.interface.getElementsDescription({ visibleOnly: true });
    assert.deepEqual(
      boxOf(requireLine(scrolled, "a#footer-link")),
      await roundedBox(page, "#footer-link"),
    );
    assert.equal(lineOf(scrolled, "h1#title"), undefined, "scrolled out of view");
  },
);

driverTest("a long page is cut at 60,000 characters with a truncation note", async (e2e) => {
  const page = await e2e.open("dom.html");
  const { agent } = await e2e.agent(page, {});
  await page.evaluate(() => {
    const list = document.createElement("ul");
    for (let i = 0; i < 3000; i++) {
      const item = document.createElement("li");
      item.id = `item-${i}`;
      item.textContent = `Generated entry number ${i} with some descriptive text`;
      list.append(item);
    }
    document.querySelector("main")!.append(list);
  });
  const dom = await agent.interface.getElementsDescription({ visibleOnly: false });
  assert.ok(dom.length <= 60_000, `${dom.length} characters`);
  assert.ok(dom.length > 59_000, `${dom.length} characters: the budget is used`);
  assert.ok(dom.endsWith("\n... (truncated)"));
  assert.ok(requireLine(dom, "li#item-0"));
  assert.equal(lineOf(dom, "li#item-2999"), undefined);
  // Each line before the note is whole.
  const lines = dom.split("\n");
  assert.ok(
    /^\s*li#item-\d+ text=".*" box=\(.*\)( off-screen)?$/.test(lines.at(-2)!),
    lines.at(-2),
  );
});
