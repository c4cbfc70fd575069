import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { withCustomActions } from "./custom_actions.ts";
import type { DeviceAction } from "./types.ts";

const noop = (): Promise<void> => Promise.resolve();
const TAP: DeviceAction = { name: "Tap", description: "tap", params: [], call: noop };

function action(partial: Record<string, unknown>): DeviceAction {
  return { name: "Wave", description: "waves", params: [], call: noop, ...partial } as DeviceAction;
}

test("withCustomActions appends the custom actions, keeping each object as given", () => {
  const wave = action({
    params: [{
      name: "hand",
      type: "enum",
      values: ["left", "right"],
      required: true,
      description: "which",
    }],
  });
  const space = withCustomActions("Dev", [TAP], [wave]);
  assert.deepEqual(space.map((a) => a.name), ["Tap", "Wave"]);
  assert.equal(space[1], wave);
  assert.deepEqual(withCustomActions("Dev", [TAP], undefined), [TAP]);
  assert.deepEqual(withCustomActions("Dev", [TAP], []), [TAP]);
});

test("withCustomActions rejects a name used by a built-in action or another custom action", () => {
  assert.throws(
    () => withCustomActions("Dev", [TAP], [action({ name: "Tap" })]),
    {
      name: "TypeError",
      message:
        `Cannot create Dev as 'customActions[0].name' must differ from a built-in action of the same name; rename it: current value is "Tap"`,
    },
  );
  assert.throws(
    () => withCustomActions("Dev", [TAP], [action({}), action({ call: noop })]),
    /'customActions\[1\]\.name' must differ from customActions\[0\] of the same name; rename it: current value is "Wave"/,
  );
});

test("withCustomActions names the entry and field of a malformed action", () => {
  const cases: [unknown, RegExp][] = [
    [{ notAnArray: true }, /'customActions' must be an array of actions/],
    [[null], /'customActions\[0\]' must be an action object .*: current value is null/],
    [
      [action({ name: undefined })],
      /'customActions\[0\]\.name' must be a non-empty string: current value is undefined/,
    ],
    [[action({ name: "  " })], /'customActions\[0\]\.name' must be a non-empty string/],
    [
      [action({ call: "run" })],
      /'customActions\[0\]\.call' must be a function .*: current value is "run"/,
    ],
    [[action({ call: undefined })], /'customActions\[0\]\.call' must be a function/],
    [[action({ description: 3 })], /'customActions\[0\]\.description' must be a string/],
    [
      [action({ params: undefined })],
      /'customActions\[0\]\.params' must be an array of parameter specs/,
    ],
    [
      [action({ params: [{ name: "x", type: "date", required: true, description: "" }] })],
      /'customActions\[0\]\.params\[0\]\.type' must be one of string, number, boolean, locate, enum: current value is "date"/,
    ],
    [
      [action({ params: [{ name: "x", type: "enum", required: true, description: "" }] })],
      /'customActions\[0\]\.params\[0\]\.values' must be a non-empty array of strings for an enum/,
    ],
    [
      [action({ params: [{ name: "x", type: "string", description: "" }] })],
      /'customActions\[0\]\.params\[0\]\.required' must be a boolean/,
    ],
    [
      [action({
        params: [
          { name: "x", type: "string", required: true, description: "" },
          { name: "x", type: "number", required: true, description: "" },
        ],
      })],
      /'customActions\[0\]\.params\[1\]\.name' must not repeat another parameter's: current value is "x"/,
    ],
  ];
  for (const [custom, message] of cases) {
    assert.throws(
      () => withCustomActions("Dev", [TAP], custom as DeviceAction[]),
      (e: unknown) => e instanceof TypeError && message.test(e.message),
      `expected ${message} for ${JSON.stringify(custom)}`,
    );
  }
});
