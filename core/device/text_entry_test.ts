import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { runClearInput, runInput, runKeyboardPress, type TextEntryHost } from "./text_entry.ts";
import type { Point } from "./types.ts";

const field = (x: number, y: number) => ({
  description: "the field",
  center: [x, y] as Point,
  rect: { left: x - 5, top: y - 5, width: 10, height: 10 },
});

function recording(
  withCaret = true,
  withDismiss = true,
): { host: TextEntryHost; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const record = (...call: unknown[]) => {
    calls.push(call);
    return Promise.resolve();
  };
  const host: TextEntryHost = {
    tap: (point) => record("tap", point),
    clearField: () => record("clear"),
    typeText: (text, overrides) => record("type", text, overrides),
    key: (keyName) => {
      if (keyName === "Nope") throw new TypeError("no key Nope");
      return () => record("key", keyName);
    },
  };
  if (withCaret) host.caretToEnd = () => record("end");
  if (withDismiss) host.dismissKeyboard = () => record("dismiss");
  return { host, calls };
}

test("runInput replaces by default: tap, empty, type with the call's overrides, hide the keyboard", async () => {
  const { host, calls } = recording();
  await runInput(host, { locate: field(10, 20), value: "hé" }, {
    inputOptions: { keyboardTypeDelay: 5 },
  });
  assert.deepEqual(calls, [
    ["tap", [10, 20]],
    ["clear"],
    ["type", "hé", { keyboardTypeDelay: 5 }],
    ["dismiss"],
  ]);
});

test("runInput typeOnly (and append) moves the caret to the end where the host can, else types on", async () => {
  for (const mode of ["typeOnly", "append"]) {
    const { host, calls } = recording(true, false);
    await runInput(host, { value: 42, mode }, {});
    assert.deepEqual(calls, [["end"], ["type", "42", undefined]]);
  }
  const { host, calls } = recording(false, false);
  await runInput(host, { value: "x", mode: "typeOnly" }, {});
  assert.deepEqual(calls, [["type", "x", undefined]]);
});

test("runInput clear empties the field without typing, and needs no value", async () => {
  const { host, calls } = recording();
  await runInput(host, { mode: "clear" }, {});
  assert.deepEqual(calls, [["clear"], ["dismiss"]]);
});

test("runInput refuses a malformed parameter before touching anything", async () => {
  const { host, calls } = recording();
  await assert.rejects(runInput(host, { locate: field(1, 2), mode: "bogus", value: "x" }, {}), {
    name: "TypeError",
    message: /^Cannot run Input: 'mode' must be one of 'replace', 'typeOnly', 'clear', 'append'/,
  });
  await assert.rejects(runInput(host, { locate: field(1, 2) }, {}), /'value' must be a string/);
  assert.deepEqual(calls, []);
});

test("runInput asks the host to check the text first: text it cannot send leaves the field untouched", async () => {
  const { host, calls } = recording();
  host.checkText = (text, overrides) => {
    calls.push(["check", text, overrides]);
    return /é/.test(text) ? Promise.reject(new TypeError("cannot send é")) : Promise.resolve();
  };
  await assert.rejects(runInput(host, { locate: field(1, 2), value: "café" }, {}), /cannot send é/);
  assert.deepEqual(calls, [["check", "café", undefined]]);
  calls.length = 0;
  await runInput(host, { locate: field(1, 2), value: "cafe" }, {
    inputOptions: { inputStrategy: "bulk" },
  });
  assert.deepEqual(calls.slice(0, 2), [["check", "cafe", { inputStrategy: "bulk" }], ["tap", [
    1,
    2,
  ]]]);
  calls.length = 0;
  await runInput(host, { locate: field(1, 2), mode: "clear" }, {});
  assert.deepEqual(calls[0], ["tap", [1, 2]], "clear types nothing, so nothing is checked");
});

test("runClearInput taps the required field, empties it and hides the keyboard", async () => {
  const { host, calls } = recording();
  await runClearInput(host, { locate: field(3, 4) });
  assert.deepEqual(calls, [["tap", [3, 4]], ["clear"], ["dismiss"]]);
  await assert.rejects(runClearInput(host, {}), /Cannot run ClearInput: 'locate' is required/);
});

test("runKeyboardPress checks the key before the tap, then taps and presses", async () => {
  const { host, calls } = recording();
  await runKeyboardPress(host, { locate: field(5, 6), keyName: "Enter" });
  await runKeyboardPress(host, { keyName: "a" });
  assert.deepEqual(calls, [["tap", [5, 6]], ["key", "Enter"], ["key", "a"]]);
  await assert.rejects(runKeyboardPress(host, { locate: field(5, 6), keyName: "Nope" }), /no key/);
  await assert.rejects(runKeyboardPress(host, { locate: field(5, 6) }), /'keyName' must be/);
  assert.equal(calls.length, 3);
});
