import { test } from "node:test";
import assert from "node:assert/strict";
import { checkBooleanOptions, typeSettings } from "./options.ts";

test("checkBooleanOptions accepts booleans and absent keys, and names the first other value", () => {
  const options: { a?: unknown; b?: unknown } = { a: true };
  checkBooleanOptions("Thing", options, ["a", "b"]);
  assert.throws(
    () => checkBooleanOptions("Thing", { a: false, b: "yes" }, ["a", "b"]),
    {
      name: "TypeError",
      message: `Cannot create Thing as 'b' must be a boolean: current value is "yes"`,
    },
  );
});

test("typeSettings: the action's settings over the device's, 'bulk' with a delay refused naming the default", () => {
  assert.deepEqual(typeSettings(undefined, undefined, "legacy"), { delay: 0, strategy: "legacy" });
  assert.deepEqual(typeSettings({ keyboardTypeDelay: 5 }, 20, "sequential"), {
    delay: 5,
    strategy: "sequential",
  });
  assert.throws(
    () => typeSettings({ inputStrategy: "bulk" }, 20, "legacy"),
    /must be 0 or unset: current value is 20 \(the delay is the device's default/,
  );
  assert.throws(
    () => typeSettings({ keyboardTypeDelay: 5 }, undefined, "bulk"),
    /current value is 5 \('bulk' is the device's default/,
  );
  assert.throws(() => typeSettings({ keyboardTypeDelay: -1 }, undefined, "legacy"), RangeError);
});
