import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { UnsupportedActionError } from "@sdk/core";
import { YamlScriptError } from "@sdk/core/script";
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

test("a phone script's unknown flow key is offered its own phone's items, as each ScriptPlatform hands them in", async () => {
  const offered = async (section: string) => {
    const platform = await scriptPlatform(section);
    const script = `${section}: {}\ntasks:\n  - name: t\n    flow:\n      - hom:\n`;
    const e = await platform.run(script, { fileName: "p.yaml" }).then(() => undefined, (e) => e);
    assert.ok(e instanceof YamlScriptError, String(e));
    assert.match(e.message, /did you mean 'home'/);
    return e.message.replace(/^.*flow keys: /s, "").split(", ");
  };
  const own = {
    mobilea: ["launch", "terminate", "runBridgeShell", "back", "recentApps"],
    mobileb: ["launch", "terminate", "runDriverRequest", "appSwitcher"],
    mobilec: ["launch", "terminate", "runToolShell", "back", "recentApps"],
  };
  const all = new Set(Object.values(own).flat());
  for (const [section, keys] of Object.entries(own)) {
    const got = await offered(section);
    for (const key of all) {
      assert.equal(
        got.includes(key),
        keys.includes(key),
        `${section} should ${keys.includes(key) ? "" : "not "}offer ${key}`,
      );
    }
    assert.ok(got.includes("aiTap") && !got.includes("javascript"), got.join(", "));
  }
});
