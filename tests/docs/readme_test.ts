/**
 * The README documents the web agents a user can import: every class name of spec 4.1.2 for
 * browser pages, the page agents' aliases included.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as web from "@sdk/web";

/** Spec 4.1.2: the page agents with their aliases, and the browser-wide agents. */
const WEB_AGENT_NAMES = [
  "DriverAPageAgent",
  "DriverAAgent",
  "DriverBPageAgent",
  "DriverBAgent",
  "DriverABrowserAgent",
  "DriverBBrowserAgent",
] as const;

test("README names every web agent class of spec 4.1.2, the aliases DriverAAgent and DriverBAgent included", async () => {
  const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
  const exported = web as Record<string, unknown>;
  for (const name of WEB_AGENT_NAMES) {
    assert.equal(typeof exported[name], "function", `@sdk/web exports ${name}`);
    assert.ok(readme.includes(`\`${name}\``), `README names \`${name}\``);
  }
  assert.equal(web.DriverAAgent, web.DriverAPageAgent);
  assert.equal(web.DriverBAgent, web.DriverBPageAgent);
});
