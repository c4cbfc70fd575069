/**
 * A page that does not open is a `NavigationError` (`NAVIGATION_FAILED`) naming the URL, the
 * browser's reason and what to check, without terminal escapes, wherever the SDK opens a page:
 * `openUrl`, the drivers' `goto` (the `Navigate` action) and the playground.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { isSdkError, NavigationError } from "@sdk/core";
import { freePort } from "../../tests/helpers/free_port.ts";
import { launchChromium } from "../chromium/launch.ts";
import { DriverBPageDriver } from "../driver_b/playwright_driver.ts";
import { startPlayground } from "../playground/playground.ts";
import { navigationError, openUrl, stripAnsi } from "./navigation.ts";

let browser: Browser;
/** An address nothing listens on: a free port, left free. */
let REFUSED: string;
before(async () => {
  browser = await launchChromium();
  REFUSED = `http://127.0.0.1:${await freePort()}/`;
});
after(async () => {
  await browser?.close();
});

function assertNavigationError(e: unknown, url: string, reason: RegExp, check: RegExp): true {
  assert.ok(e instanceof NavigationError, `a NavigationError, got ${(e as Error)?.name}: ${e}`);
  assert.ok(isSdkError(e));
  assert.equal(e.name, "NavigationError");
  assert.equal(e.code, "NAVIGATION_FAILED");
  assert.equal(e.url, url);
  assert.match(e.reason, reason);
  assert.ok(e.message.startsWith(`Cannot open ${url}: `), e.message);
  assert.match(e.message, check);
  for (const bad of ["\u001b", "\n", "Call log"]) {
    assert.ok(!e.message.includes(bad), `one line, no escapes, no call log: ${e.message}`);
  }
  assert.ok(e.cause instanceof Error, "the driver's error is the cause");
  return true;
}

test("openUrl: a host that does not resolve, and a port nothing listens on", async () => {
  const page = await browser.newPage();
  try {
    await assert.rejects(
      openUrl(page, "http://sdk-no-such-host.invalid/"),
      (e) =>
        assertNavigationError(
          e,
          "http://sdk-no-such-host.invalid/",
          /^net::ERR_NAME_NOT_RESOLVED$/,
          /host name does not resolve: check the address/,
        ),
    );
    await assert.rejects(
      openUrl(page, REFUSED),
      (e) =>
        assertNavigationError(
          e,
          REFUSED,
          /^net::ERR_CONNECTION_REFUSED$/,
          /check that the server runs and listens/,
        ),
    );
  } finally {
    await page.close();
  }
});

test("the Navigate action's driver goto rejects with a NavigationError, on DriverB", async () => {
  const page = await browser.newPage();
  try {
    const driver = new DriverBPageDriver(page);
    await assert.rejects(
      driver.goto(REFUSED),
      (e) => assertNavigationError(e, REFUSED, /ERR_CONNECTION_REFUSED/, /listens/),
    );
  } finally {
    await page.close();
  }
});

test("the playground that cannot open its page rejects with a NavigationError", async () => {
  await assert.rejects(
    startPlayground({ url: REFUSED, port: 0, sandbox: false }),
    (e) => assertNavigationError(e, REFUSED, /ERR_CONNECTION_REFUSED/, /listens/),
  );
});

test("navigationError reads a timeout and an unknown reason; stripAnsi removes escapes", () => {
  const timeout = navigationError(
    "https://slow.example/",
    new Error("page.goto: Timeout 30000ms exceeded.\nCall log:\n\u001b[2m  - navigating\u001b[22m"),
    30000,
  );
  assert.equal(timeout.reason, "timeout");
  assert.match(timeout.message, /^Cannot open https:\/\/slow\.example\/: timeout \(30000 ms\); /);
  const odd = navigationError("https://x.example/", new Error("\u001b[31msomething odd\u001b[39m"));
  assert.equal(odd.reason, "unknown");
  assert.equal(odd.message, "Cannot open https://x.example/: something odd");
  const unsafe = navigationError("http://127.0.0.1:1/", new Error("net::ERR_UNSAFE_PORT at x"));
  assert.match(unsafe.message, /refuses this port/);
  assert.equal(stripAnsi("\u001b[2mdim\u001b[22m and \u001b[1;31mred\u001b[0m"), "dim and red");
});
