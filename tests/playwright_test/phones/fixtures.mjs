// The fixture of docs/device-pool.md ("Playwright Test: a device per worker") in plain
// JavaScript: each worker takes a phone from its own pool of every phone of the adb server, and
// each test gets an agent on its worker's phone whose report the SDK reporter merges. Run by
// tests/npm/node_consumer_test.ts against simulated phones.
import process from "node:process";
import { test as base } from "@playwright/test";
import { DevicePool } from "@sdk/core";
import { agentFromBridgeDevice, listMobileADevices } from "@sdk/mobilea";
import { reportNameOf, SDK_REPORT_ATTACHMENT } from "@sdk/web/playwright-test";

// The adb server: the port adb itself reads from ANDROID_ADB_SERVER_PORT, else adb's 5037.
const adb = { remoteBridgePort: Number(process.env.ANDROID_ADB_SERVER_PORT ?? 5037) };

export const test = base.extend({
  // Playwright reads a fixture's dependencies from its first argument's pattern: none here.
  // deno-lint-ignore no-empty-pattern
  device: [async ({}, use) => {
    const pool = new DevicePool(await listMobileADevices(adb));
    const device = await pool.acquire();
    if (!device) throw new Error("no Android device is connected");
    try {
      await use(device);
    } finally {
      await pool.close();
    }
  }, { scope: "worker" }],
  agent: async ({ device }, use, testInfo) => {
    const agent = await agentFromBridgeDevice(device.id, {
      ...adb,
      reportFileName: reportNameOf(testInfo),
    });
    try {
      await use(agent);
    } finally {
      await agent.destroy();
      // Where the SDK reporter finds the test's report.
      if (agent.reportFile) {
        await testInfo.attach(SDK_REPORT_ATTACHMENT, {
          body: agent.reportFile,
          contentType: "text/plain",
        });
      }
    }
  },
});
