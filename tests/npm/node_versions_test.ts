import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { nodeMajorsToTest } from "./node_versions.ts";

test("nodeMajorsToTest() covers the declared minimum, each LTS major above it and the newest", () => {
  assert.deepEqual(nodeMajorsToTest(">=22.0.0", 26), [22, 24, 26]);
  assert.deepEqual(nodeMajorsToTest(">=20", 27), [20, 22, 24, 26, 27]);
});

test("nodeMajorsToTest() tests an odd declared minimum itself", () => {
  assert.deepEqual(nodeMajorsToTest(">=21.3", 24), [21, 22, 24]);
});

test("nodeMajorsToTest() rejects a range it cannot read and a newest major below the minimum", () => {
  assert.throws(
    () => nodeMajorsToTest("^22 || >=24", 26),
    /declares engines\.node "\^22 \|\| >=24"/,
  );
  assert.throws(() => nodeMajorsToTest(">=24", 22), /the newest Node is 22/);
});
