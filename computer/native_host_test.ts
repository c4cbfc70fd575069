import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";

test("importing the host module starts nothing (it runs only as a process's main module)", {
  timeout: 10_000,
}, async () => {
  // Were the host to start here, it would load nut-js and hold stdin open, which the test
  // runner reports as a leak.
  const host = await import("./native_host.ts");
  assert.equal(typeof host.runNativeHost, "function");
});
