import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { NodeEngineError, nodeFloor, strictestNodeEngine } from "./node_engines.ts";

test("strictestNodeEngine() takes a dependency's higher floor over the package's own", () => {
  assert.equal(
    strictestNodeEngine(">=20", [
      { name: "sharp@0.35.5", range: ">=20.9.0" },
      { name: "openai@7.57.0", range: ">=22.0.0" },
      { name: "yaml@2.9.1", range: ">=14.6" },
    ]),
    ">=22.0.0",
  );
});

test("strictestNodeEngine() keeps the package's own floor when no dependency needs more", () => {
  assert.equal(
    strictestNodeEngine(">=20", [
      { name: "pngjs@7.0.0", range: ">=14.19.0" },
      { name: "jpeg-js@0.4.4", range: undefined },
    ]),
    ">=20.0.0",
  );
});

test("strictestNodeEngine() compares minor and patch, not only majors", () => {
  assert.equal(
    strictestNodeEngine(">=22", [
      { name: "a@1.0.0", range: ">=22.12.0" },
      { name: "b@1.0.0", range: ">= 22.9" },
    ]),
    ">=22.12.0",
  );
});

test("nodeFloor() reads >=X, >=X.Y and >=X.Y.Z", () => {
  assert.deepEqual(nodeFloor(">=20", "x"), [20, 0, 0]);
  assert.deepEqual(nodeFloor(">= 20.9", "x"), [20, 9, 0]);
  assert.deepEqual(nodeFloor(">=v22.12.1", "x"), [22, 12, 1]);
});

test("strictestNodeEngine() names the package and range it cannot read", () => {
  assert.throws(
    () => strictestNodeEngine(">=20", [{ name: "dep@1.2.3", range: "^20.17.0 || >=22.9.0" }]),
    (error: unknown) =>
      error instanceof NodeEngineError &&
      error.message.includes('dep@1.2.3 declares engines.node "^20.17.0 || >=22.9.0"'),
  );
});
