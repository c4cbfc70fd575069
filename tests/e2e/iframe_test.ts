/// <reference lib="dom" />
/**
 * Elements inside a same-origin iframe, on both drivers: the model locates them on the screenshot
 * of the top page, and aiTap / aiInput reach them.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { TargetBox } from "@sdk/core/testing";
import { driverTest, type E2ePage } from "./_drivers.ts";

/**
 * Box of an element of the `#frame` iframe in CSS pixels of the top page's viewport: the
 * frame's box, plus its border and padding, plus the element's box inside the frame.
 */
function frameBox(page: E2ePage, selector: string): Promise<TargetBox> {
  return page.evaluate((sel: string) => {
    const frame = document.querySelector<HTMLIFrameElement>("#frame")!;
    const el = frame.contentDocument!.querySelector(sel);
    if (!el) throw new Error(`no ${sel} in the frame`);
    const f = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    const r = el.getBoundingClientRect();
    return {
      left: f.left + frame.clientLeft + parseFloat(style.paddingLeft) + r.left,
      top: f.top + frame.clientTop + parseFloat(style.paddingTop) + r.top,
      width: r.width,
      height: r.height,
    };
  }, selector);
}

function frameValue(page: E2ePage): Promise<string> {
  return page.evaluate(() =>
    document.querySelector<HTMLIFrameElement>("#frame")!.contentDocument!
      .querySelector<HTMLInputElement>("#nickname")!.value
  );
}

driverTest(
  "aiTap and aiInput reach a button and a field inside a same-origin iframe",
  async (e2e) => {
    const page = await e2e.open("iframe.html", { dpr: 2 });
    assert.equal(await page.state("frameReady"), true);
    const { agent, model } = await e2e.agent(page, {
      locate: (call) =>
        /nickname/i.test(call.target)
          ? frameBox(page, "#nickname")
          : /save/i.test(call.target)
          ? frameBox(page, "#save")
          : null,
    });

    await agent.aiInput("the Nickname field", { value: "Ada" });
    assert.equal(await frameValue(page), "Ada", "replace mode replaced the old name");
    assert.equal(await page.state("nickname"), "Ada");
    assert.ok((await page.state<number>("inputEvents")) >= 3, "typed with key events");

    await agent.aiInput("the Nickname field", { value: " L.", mode: "typeOnly" });
    assert.equal(await frameValue(page), "Ada L.");

    await agent.aiTap("the Save button");
    assert.equal(await page.state("saves"), 1);
    assert.equal(await page.state("saved"), "Ada L.");
    assert.equal(
      await page.evaluate(() => document.querySelector("#saves")!.textContent),
      "1",
      "the top page shows the save the frame reported",
    );
    assert.deepEqual(model.calls.map((c) => c.kind), ["locate", "locate", "locate"]);
  },
);
