/**
 * The tool calls of an MCP session on real targets: a page that does not open is a tool error
 * whose text starts with the SDK error's class and code (docs/mcp.md), without terminal escapes.
 *
 * @module
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { freePort } from "../../tests/helpers/free_port.ts";
import { FIXTURE_APP_DIR, serveStatic } from "../../tests/helpers/static_server.ts";
import { McpSession, type ToolResult } from "./session.ts";

function textOf(result: ToolResult): string {
  return result.content.map((c) => c.type === "text" ? c.text : `[${c.type}]`).join("\n");
}

test("web_open of a page that does not open: NavigationError (NAVIGATION_FAILED), the address and what to check, no escapes", async () => {
  const session = new McpSession();
  try {
    const url = `http://127.0.0.1:${await freePort()}/`;
    const result = await session.call("web_open", { url });
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.ok(
      text.startsWith(
        `NavigationError (NAVIGATION_FAILED): Cannot open ${url}: net::ERR_CONNECTION_REFUSED; `,
      ),
      text,
    );
    assert.match(text, /check that the server runs and listens on that host and port$/);
    assert.ok(!text.includes("\u001b") && !text.includes("Call log"), text);
    // Nothing was left open for it.
    assert.match(textOf(await session.call("report")), /No target is open/);
  } finally {
    await session.close();
  }
});

test(
  "a connect that fails leaves the open target as it was: web_open of a bad page, android_connect to no adb server",
  {
    timeout: 120_000,
  },
  async () => {
    const site = await serveStatic(FIXTURE_APP_DIR);
    const session = new McpSession();
    try {
      const opened = await session.call("web_open", { url: `${site.url}actions.html` });
      assert.equal(opened.isError, undefined, textOf(opened));
      const refused = `http://127.0.0.1:${await freePort()}/`;
      const failures = [
        await session.call("web_open", { url: refused }),
        // 127.0.0.2 is not this machine's own address to the SDK, so no adb server is started
        // for the connect (one started on 127.0.0.1 would outlive the test).
        await session.call("android_connect", {
          adb_host: "127.0.0.2",
          adb_port: await freePort(),
        }),
      ];
      for (const failed of failures) {
        assert.equal(failed.isError, true, textOf(failed));
        assert.match(textOf(failed), /^\w+Error \([A-Z_]+\): /);
      }
      // The page is still the target: a screenshot of it, and its report once a call ran.
      const shot = await session.call("screenshot");
      assert.equal(shot.isError, undefined, textOf(shot));
      assert.equal(shot.content[0].type, "image");
      assert.doesNotMatch(textOf(await session.call("report")), /No target is open/);
      const closed = await session.call("close");
      assert.match(textOf(closed), new RegExp(`^web page ${site.url}actions\\.html closed\\.`));
    } finally {
      await session.close();
      await site.close();
    }
  },
);
