/**
 * Runs once before the test suite (`deno task test`): makes sure a Chromium is there, installing
 * Debian's package when none is found, so that parallel test files do not race to install it.
 *
 * @module
 */

import { findChromium } from "./helpers/browser.ts";

console.log(`Chromium for the tests: ${await findChromium()}`);
