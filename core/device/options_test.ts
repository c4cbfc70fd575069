import { test } from "node:test";
import assert from "node:assert/strict";
import { checkBooleanOptions } from "./options.ts";

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
