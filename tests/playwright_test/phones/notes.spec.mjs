// Each test opens a note of the simulator's notes app on its worker's phone and counts it up as
// many times as its number, through the agent; it reads the phone's screen back through the agent
// (`uiautomator dump`) and logs its worker and phone to PHONES_LOG for the Deno test to check.
import { appendFile } from "node:fs/promises";
import process from "node:process";
import { expect } from "@playwright/test";
import { test } from "./fixtures.mjs";

for (const n of [1, 2, 3, 4]) {
  test(`note ${n} counts to ${n}`, async ({ agent, device }, testInfo) => {
    const start = Date.now();
    await agent.aiTap(`Note ${n}`);
    for (let i = 0; i < n; i++) await agent.aiTap("the +1 button");
    await agent.runBridgeShell("uiautomator dump /sdcard/ui.xml");
    const screen = await agent.runBridgeShell("cat /sdcard/ui.xml");
    expect(screen).toContain(`text="Note ${n}"`);
    expect(screen).toContain(`text="${n}"`);
    await agent.aiTap("the Back button");
    const line = { n, worker: testInfo.workerIndex, device: device.id, start, end: Date.now() };
    await appendFile(process.env.PHONES_LOG, JSON.stringify(line) + "\n");
  });
}
