import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { resolveLaunchAbility } from "./bundle.ts";

const dump = (info: unknown) => `com.example.app:\n${JSON.stringify(info, null, 4)}\n`;

test("the entry module's main ability starts the app", () => {
  const output = dump({
    entryModuleName: "phone",
    hapModuleInfos: [
      { moduleName: "feature", mainElementName: "FeatureAbility", moduleType: "feature" },
      { moduleName: "phone", mainElementName: "PhoneAbility", moduleType: "entry" },
    ],
  });
  assert.deepEqual(resolveLaunchAbility("com.example.app", output), {
    ability: "PhoneAbility",
    module: "phone",
  });
});

test("without a main ability, the ability with the home skill", () => {
  const output = dump({
    hapModuleInfos: [{
      name: "entry",
      abilityInfos: [
        { name: "SideAbility", skills: [] },
        {
          name: "HomeAbility",
          skills: [{ entities: ["entity.system.home"], actions: ["ohos.want.action.home"] }],
        },
      ],
    }],
  });
  assert.deepEqual(resolveLaunchAbility("com.example.app", output), {
    ability: "HomeAbility",
    module: "entry",
  });
});

test("a bundle that is not installed, or names no launch ability, is an error naming it", () => {
  assert.throws(
    () =>
      resolveLaunchAbility(
        "com.nope",
        "error: failed to get information and the parameters may be wrong.\n",
      ),
    /Cannot launch "com.nope": it is not installed.*failed to get information/,
  );
  assert.throws(
    () => resolveLaunchAbility("com.example.app", dump({ hapModuleInfos: [{ name: "entry" }] })),
    /names no main ability .* launch it as bundle\/Ability/,
  );
});
