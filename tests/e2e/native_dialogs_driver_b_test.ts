/**
 * Native dialogs on DriverB (`playwright-core`): the scenarios of `_native_dialogs.ts` on a page
 * agent, and the option's checks (docs/web.md, "Native dialogs").
 *
 * @module
 */

import assert from "node:assert/strict";
import { SdkTypeError } from "@sdk/core";
import { singleDriverTest } from "./_drivers.ts";
import { nativeDialogTests } from "./_native_dialogs.ts";

nativeDialogTests((name, body) =>
  singleDriverTest("DriverB", name, async (e2e) => {
    await body(async (script, options) => {
      const page = await e2e.open("dialogs.html");
      const { agent } = await e2e.agent(page, script(() => agent), options);
      return agent;
    });
  }, { timeout: 60_000 })
);

singleDriverTest(
  "DriverB",
  "nativeDialogs of the wrong shape throws SdkTypeError when the agent is created",
  async (e2e) => {
    const page = await e2e.open("dialogs.html");
    for (const value of ["ignore", "", 1, true, null, {}, ["accept"]]) {
      assert.throws(
        () => e2e.pageAgent(page, { nativeDialogs: value as "accept" }),
        (error: unknown) =>
          error instanceof SdkTypeError && error.code === "INVALID_ARGUMENT" &&
          /'nativeDialogs' must be "dismiss", "accept" or a function/.test(error.message),
        `nativeDialogs: ${JSON.stringify(value)}`,
      );
    }
    for (const value of ["dismiss", "accept", () => ({ accept: true }), undefined] as const) {
      await e2e.pageAgent(page, { nativeDialogs: value }).destroy();
    }
  },
  { timeout: 60_000 },
);
