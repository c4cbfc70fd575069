import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { AppNameMapping, checkAppNameResolver, requireTarget } from "./app_names.ts";

test("AppNameMapping: the user's names outrank the defaults, names match case-insensitively", () => {
  const apps = new AppNameMapping(
    { Settings: "com.android.settings", Notes: "com.system.notes" },
    { notes: "com.example.notes" },
    "package name",
  );
  assert.equal(apps.resolve("  NOTES "), "com.example.notes");
  assert.equal(apps.resolve("settings"), "com.android.settings");
  assert.equal(apps.resolve(" com.other.app "), "com.other.app");
});

test("AppNameMapping refuses a mapping that is not an object of non-empty strings", () => {
  for (const bad of [null, "x", { Notes: "" }, { Notes: 3 }]) {
    assert.throws(
      () => new AppNameMapping({}, bad, "bundle id"),
      /'appNameMapping' must be an object of app name -> bundle id \(non-empty strings\)/,
    );
  }
});

test("requireTarget names the API for an empty or non-string target", () => {
  assert.equal(requireTarget("launch", "x"), "x");
  assert.throws(() => requireTarget("launch", " "), /launch needs a non-empty string/);
  assert.throws(() => requireTarget("terminate", 5), /terminate needs a non-empty string/);
});

test("checkAppNameResolver returns the function, and refuses anything else naming the targets", () => {
  const resolve = (target: string) => `com.${target}`;
  assert.equal(checkAppNameResolver(resolve, "package name"), resolve);
  for (const bad of [undefined, null, "com.x", { resolve }]) {
    assert.throws(() => checkAppNameResolver(bad, "bundle id"), {
      name: "TypeError",
      message: "useAppNameMapping needs a function from app name to bundle id",
    });
  }
});
