/**
 * A platform's other names of its items (issue 40): the peer SDK's phone scripts write the system
 * buttons by their action names (`AndroidBackButton`, here `MobileABackButton`), which a platform
 * hands in beside its items with `platformFlowAliases`; they read and run as the item they name.
 *
 * @module
 */

import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { runScriptTasks } from "./run_yaml.ts";
import { YamlScriptError } from "./script_errors.ts";
import { parsePlatformScriptFile } from "./script_schema.ts";
import type { ScriptSectionSchema } from "./script_sections.ts";
import { platformFlowAliases, platformFlowItems } from "./platform_items.ts";
import type { YamlAgent } from "./yaml_agent.ts";
import { SdkTypeError } from "../errors.ts";

const PHONE: ScriptSectionSchema<Record<string, never>> = {
  key: "mobilea",
  label: "MobileA",
  describe: "launch",
  fields: {},
  items: {
    ...platformFlowItems("back", "home", "recentApps"),
    ...platformFlowAliases({ PhoneBackButton: "back", PhoneHomeButton: "home" }),
  },
};

const script = (items: string) => `mobilea:\ntasks:\n  - name: t\n    flow:\n${items}`;

test("a platform's alias of an item reads as the item it names and calls the same method", async () => {
  const parsed = await parsePlatformScriptFile(
    PHONE,
    script("      - PhoneBackButton:\n      - PhoneHomeButton:\n      - recentApps:\n"),
    "alias.yaml",
  );
  assert.deepEqual(parsed.tasks[0].flow.map((i) => i.key), ["back", "home", "recentApps"]);
  const calls: string[] = [];
  const press = (button: string) => () => {
    calls.push(button);
    return Promise.resolve();
  };
  const agent = {
    back: press("back"),
    home: press("home"),
    recentApps: press("recentApps"),
  } as unknown as YamlAgent;
  await runScriptTasks(agent, parsed);
  assert.deepEqual(calls, ["back", "home", "recentApps"]);
});

test("an alias is the platform's own: a near miss suggests it, another platform's script does not know it, and it takes the item's keys only", async () => {
  const miss = await parsePlatformScriptFile(PHONE, script("      - PhoneBackButon:\n"), "m.yaml")
    .then(() => undefined, (e: unknown) => e);
  assert.ok(miss instanceof YamlScriptError);
  assert.match(miss.message, /'PhoneBackButon' is not one \(did you mean 'PhoneBackButton'\?\)/);

  const other: ScriptSectionSchema<Record<string, never>> = {
    ...PHONE,
    key: "mobilec",
    items: platformFlowItems("back"),
  };
  const unknown = await parsePlatformScriptFile(
    other,
    "mobilec:\ntasks:\n  - name: t\n    flow:\n      - PhoneBackButton:\n",
    "o.yaml",
  ).then(() => undefined, (e: unknown) => e);
  assert.ok(unknown instanceof YamlScriptError);
  assert.match(unknown.message, /'PhoneBackButton' is not one/);

  const extra = await parsePlatformScriptFile(
    PHONE,
    script("      - PhoneBackButton:\n        timeout: 3\n"),
    "x.yaml",
  ).then(() => undefined, (e: unknown) => e);
  assert.ok(extra instanceof YamlScriptError);
  assert.match(extra.message, /x\.yaml:6:9: unknown key 'timeout' in the PhoneBackButton item/);
});

test("platformFlowAliases refuses an alias that is a flow key already, and an item no platform has", () => {
  assert.throws(
    () => platformFlowAliases({ home: "back" }),
    (e: Error) => e instanceof SdkTypeError && /'home' is a flow key already/.test(e.message),
  );
  assert.throws(
    () => platformFlowAliases({ PhoneTap: "aiTap" as "back" }),
    (e: Error) =>
      e instanceof SdkTypeError && /'aiTap' is not a platform's flow item/.test(e.message),
  );
});
