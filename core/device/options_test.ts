import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  checkBooleanOptions,
  checkOneOfOption,
  checkTypeDelayOption,
  typeSettings,
} from "./options.ts";

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

test("checkTypeDelayOption returns the delay, or names the class for a bad one", () => {
  assert.equal(checkTypeDelayOption("Thing", undefined), undefined);
  assert.equal(checkTypeDelayOption("Thing", 0), 0);
  assert.equal(checkTypeDelayOption("Thing", 12.5), 12.5);
  for (const bad of [-1, Infinity, NaN, "5", null]) {
    assert.throws(() => checkTypeDelayOption("Thing", bad), {
      name: "RangeError",
      message: `Cannot create Thing as 'keyboardTypeDelay' must be a finite number of ms >= 0: ` +
        `current value is ${JSON.stringify(bad)}`,
    });
  }
});

test("checkOneOfOption returns the word or the fallback, and lists the words it takes", () => {
  const values = ["esc-first", "back-first"] as const;
  assert.equal(checkOneOfOption("Thing", "how", undefined, values, "esc-first"), "esc-first");
  assert.equal(checkOneOfOption("Thing", "how", "back-first", values, "esc-first"), "back-first");
  assert.throws(() => checkOneOfOption("Thing", "how", "never", values, "esc-first"), {
    name: "TypeError",
    message: `Cannot create Thing as 'how' must be 'esc-first' or 'back-first': ` +
      `current value is "never"`,
  });
  assert.throws(
    () => checkOneOfOption("Thing", "how", null, ["a", "b", "c"], "a"),
    /'how' must be 'a', 'b' or 'c': current value is null$/,
  );
  assert.throws(() => checkOneOfOption("Thing", "how", 1, ["a"], "a"), /must be 'a': current/);
});
