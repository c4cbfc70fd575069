/**
 * The tool calls of an MCP session on real targets: a page that does not open is a tool error
 * whose text starts with the SDK error's class and code (docs/mcp.md), without terminal escapes.
 *
 * @module
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { freePort } from "../../tests/helpers/free_port.ts";
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
    assert.doesNotMatch(text, /\u001b|Call log/);
    // Nothing was left open for it.
    assert.match(textOf(await session.call("report")), /No target is open/);
  } finally {
    await session.close();
  }
});
