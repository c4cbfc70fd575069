import { test } from "node:test";
import assert from "node:assert/strict";
import { runMobileAYaml } from "@sdk/mobilea";
import { runMobileBYaml } from "@sdk/mobileb";
import { runMobileCYaml } from "@sdk/mobilec";
import { type PlatformScriptRunner, platformScriptRunner } from "./platform_scripts.ts";

// The packages are loaded by a name no import shows, so their runners' types are checked here.
const RUNNERS: Record<string, PlatformScriptRunner> = {
  mobilea: runMobileAYaml,
  mobileb: runMobileBYaml,
  mobilec: runMobileCYaml,
};

test("each platform section loads its package's runner by name at run time", async () => {
  for (const [section, runner] of Object.entries(RUNNERS)) {
    assert.equal(await platformScriptRunner(section), runner, section);
  }
  await assert.rejects(platformScriptRunner("computer"), /'computer' scripts do not run/);
});
