/**
 * Native dialogs over the extension bridge: the scenarios of `_native_dialogs.ts` on an
 * `AgentOverBrowserBridge` driving a tab of headless Chromium with the SDK Bridge extension
 * loaded (docs/web.md, "Native dialogs"; docs/bridge.md).
 *
 * Playwright only launches the browser and opens the tabs. It would dismiss a dialog of its own
 * pages by itself, so each tab gets a Playwright listener that leaves dialogs alone: only the
 * bridge answers them.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import type { AgentOverBrowserBridge } from "@sdk/web";
import { openFixture, startBridgeAgent, useBridgeFixture } from "../helpers/bridge_extension.ts";
import { nativeDialogTests } from "./_native_dialogs.ts";

const bridge = useBridgeFixture("sdk-bridge-dialogs-", "test-pairing-token-dialogs-0123");
/** Messages of the dialogs the tabs opened, as Playwright saw them (it answers none). */
const opened: string[] = [];

nativeDialogTests((name, body) =>
  test(`bridge: ${name}`, { timeout: 60_000 }, async () => {
    opened.length = 0;
    await body(async (script, options) => {
      const page = await openFixture(bridge.context, bridge.app.url, "dialogs.html");
      bridge.pages.push(page);
      page.on("dialog", (dialog) => void opened.push(`${dialog.type()}: ${dialog.message()}`));
      const agent: AgentOverBrowserBridge = await startBridgeAgent(
        bridge,
        () => page,
        script(() => agent),
        options,
      );
      await agent.connectCurrentTab();
      return agent;
    });
    // The dialogs were real, and open until the bridge answered them.
    assert.ok(opened.length > 0, "the page opened a dialog");
  })
);
