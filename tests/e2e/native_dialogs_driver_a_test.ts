/**
 * Native dialogs on DriverA (`puppeteer-core`), which on its own leaves a page's dialog open and
 * the page blocked: the scenarios of `_native_dialogs.ts` on a page agent, and a browser-wide
 * agent answering dialogs on each page it drove (docs/web.md, "Native dialogs").
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { DriverABrowserAgent } from "@sdk/web";
import { startTestModel } from "@sdk/core/testing";
import { singleDriverTest } from "./_drivers.ts";
import { dialogsScript, nativeDialogTests } from "./_native_dialogs.ts";

nativeDialogTests((name, body) =>
  singleDriverTest("DriverA", name, async (e2e) => {
    await body(async (script, options) => {
      const page = await e2e.open("dialogs.html");
      const { agent } = await e2e.agent(page, script(() => agent), options);
      return agent;
    });
  }, { timeout: 60_000 })
);

singleDriverTest(
  "DriverA",
  "a browser-wide agent answers dialogs on each page it drove, the active one and the one before",
  async (e2e) => {
    const first = (await e2e.open("dialogs.html")).raw as Page;
    const context = first.browserContext();
    let agent: DriverABrowserAgent | undefined;
    const model = await startTestModel({ script: dialogsScript(() => agent!) });
    try {
      agent = await DriverABrowserAgent.create(context, {
        initialPage: first,
        modelConfig: model.modelConfig(),
        waitAfterAction: 50,
        autoPrintReportMsg: false,
        nativeDialogs: "accept",
      });
      await agent.aiTap("the Ask to confirm button");
      const second = await agent.newPage();
      await second.goto(new URL("dialogs.html", e2e.appUrl).href);
      await agent.aiTap("the Ask for a name button");
      assert.equal(
        await second.evaluate("JSON.stringify(appState.answers)"),
        '[{"dialog":"prompt","value":"guest"}]',
      );
      // The first page is no longer active; its dialogs are still answered.
      assert.equal(await first.evaluate("confirm('still there?')"), true);
      assert.equal(
        await first.evaluate("JSON.stringify(appState.answers)"),
        '[{"dialog":"confirm","value":true}]',
      );
      const titles = agent._unstableLogContent().executions.flatMap((e) =>
        e.steps.filter((s) => s.kind === "Log").map((s) => `${e.apiName}: ${s.title}`)
      );
      assert.deepEqual(titles.slice(0, 2), [
        "aiTap: Dialog: confirm, accepted",
        'aiTap: Dialog: prompt, accepted with "guest"',
      ]);
    } finally {
      await agent?.destroy();
      await model.close();
    }
  },
  { timeout: 60_000 },
);
