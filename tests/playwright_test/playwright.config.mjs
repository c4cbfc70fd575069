// A Playwright Test project that uses @sdk/web/playwright-test from the npm build; run by
// tests/npm/node_consumer_test.ts in a scratch project (see its "Playwright Test" step).
import process from "node:process";

export default {
  testDir: ".",
  testMatch: "*.spec.mjs",
  testIgnore: "phones/**", // a project of its own (phones/playwright.config.mjs)
  workers: 2,
  fullyParallel: true,
  reporter: [
    ["list"],
    ["@sdk/web/playwright-test", {
      name: process.env.SDK_REPORT_NAME,
      outputDir: process.env.SDK_REPORT_DIR,
    }],
  ],
  use: {
    browserName: "chromium",
    viewport: { width: 800, height: 600 },
    launchOptions: { executablePath: process.env.SDK_CHROMIUM_PATH },
  },
};
