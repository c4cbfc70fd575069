// Four tests, each tapping the fixture app's "Click me" button a different number of times
// through the SDK's fixtures, so each test's report has its own executions.
import process from "node:process";
import { expect, test as base } from "@playwright/test";
import { sdkFixtures } from "@sdk/web/playwright-test";

const test = base.extend(sdkFixtures({ waitAfterAction: 0 }));

for (const taps of [1, 2, 3, 4]) {
  test(`taps the button ${taps} times`, async ({ page, aiTap, agent }) => {
    await page.goto(`${process.env.FIXTURE_URL}actions.html`);
    for (let i = 1; i < taps; i++) await aiTap("the Click me button");
    await agent.aiTap("the Click me button"); // the fixture's agent is the same agent
    await expect(page.locator("#click-count")).toHaveText(String(taps));
  });
}
