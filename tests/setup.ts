/**
 * Runs once before the test suite (`deno task test`): makes sure a Chromium and adb are there,
 * installing Debian's packages when they are missing, so that parallel test files do not race to
 * install them.
 *
 * @module
 */

import { ensureAdb } from "./helpers/adb.ts";
import { findChromium } from "./helpers/browser.ts";

console.log(`Chromium for the tests: ${await findChromium()}`);
await ensureAdb();
