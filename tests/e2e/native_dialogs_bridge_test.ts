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

import { after, afterEach, before } from "node:test";
import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { AgentOverBrowserBridge } from "@sdk/web";
import type { TestModel } from "@sdk/core/testing";
import {
  launchWithBridgeExtension,
  openFixture,
  startBridgeAgent,
} from "../helpers/bridge_extension.ts";
import { freePort } from "../helpers/free_port.ts";
import { FIXTURE_APP_DIR, serveStatic, type StaticServer } from "../helpers/static_server.ts";
import { nativeDialogTests } from "./_native_dialogs.ts";

const TOKEN = "test-pairing-token-dialogs-0123";

let tmp: string;
let context: BrowserContext;
let app: StaticServer;
let port: number;
const models: TestModel[] = [];
const agents: AgentOverBrowserBridge[] = [];
const pages: Page[] = [];
/** Messages of the dialogs the tabs opened, as Playwright saw them (it answers none). */
const opened: string[] = [];

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sdk-bridge-dialogs-"));
  app = await serveStatic(FIXTURE_APP_DIR);
  port = await freePort();
  ({ context } = await launchWithBridgeExtension(tmp, { port, token: TOKEN }));
});

afterEach(async () => {
  await Promise.allSettled(agents.splice(0).map((a) => a.destroy()));
  await Promise.allSettled(pages.splice(0).map((p) => p.close()));
});

after(async () => {
  await Promise.allSettled(models.map((m) => m.close()));
  await context?.close();
  await app?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

nativeDialogTests((name, body) =>
  test(`bridge: ${name}`, { timeout: 60_000 }, async () => {
    opened.length = 0;
    await body(async (script, options) => {
      const page = await openFixture(context, app.url, "dialogs.html");
      pages.push(page);
      page.on("dialog", (dialog) => void opened.push(`${dialog.type()}: ${dialog.message()}`));
      const agent: AgentOverBrowserBridge = await startBridgeAgent(
        { port, token: TOKEN, models, agents },
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
