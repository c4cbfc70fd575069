// The Playwright Test project of docs/device-pool.md: a phone per worker, as many workers as
// phones (tests/npm/node_consumer_test.ts starts three on one adb server).
import process from "node:process";

export default {
  testDir: ".",
  testMatch: "*.spec.mjs",
  workers: 3,
  fullyParallel: true,
  reporter: [
    ["list"],
    ["@sdk/web/playwright-test", { name: "phones", outputDir: process.env.SDK_REPORT_DIR }],
  ],
};
