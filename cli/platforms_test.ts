import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { UnsupportedActionError } from "@sdk/core";
import { scriptPlatform } from "./platforms.ts";

test("scriptPlatform() loads the ScriptPlatform of each device section's package, the desktop's too", async () => {
  for (
    const [section, packageName, runnerName] of [
      ["mobilea", "@sdk/mobilea", "runMobileAYaml"],
      ["mobileb", "@sdk/mobileb", "runMobileBYaml"],
      ["mobilec", "@sdk/mobilec", "runMobileCYaml"],
      ["computer", "@sdk/computer", "runComputerYaml"],
    ]
  ) {
    const platform = await scriptPlatform(section);
    assert.deepEqual(
      [platform.section, platform.packageName, platform.runnerName],
      [section, packageName, runnerName],
    );
    assert.equal(typeof platform.run, "function");
  }
});

test("scriptPlatform() refuses a section no platform runs, naming the ones it runs", async () => {
  await assert.rejects(scriptPlatform("interface"), (e: unknown) => {
    assert.ok(e instanceof UnsupportedActionError, String(e));
    assert.equal(e.code, "ACTION_UNSUPPORTED");
    assert.equal(e.action, "interface");
    assert.match(
      e.message,
      /'interface' scripts do not run in this version of sdk run; it runs 'web' scripts and 'mobilea', 'mobileb', 'mobilec', 'computer' scripts/,
    );
    return true;
  });
});
