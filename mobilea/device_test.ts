import { test } from "node:test";
import assert from "node:assert/strict";
import { shellQuote } from "@sdk/core";
import { MobileADevice } from "./device.ts";
import { escapeInputText, isNativeText } from "./typing.ts";

test("isNativeText: printable ASCII without % format specifiers only", () => {
  assert.equal(isNativeText("hello world 42!"), true);
  assert.equal(isNativeText("50% off"), true);
  assert.equal(isNativeText("100%s done"), false);
  assert.equal(isNativeText("%d"), false);
  assert.equal(isNativeText("café"), false);
  assert.equal(isNativeText("你好"), false);
  assert.equal(isNativeText("tab\there"), false);
});

test("escapeInputText and shellQuote make one safe argument for input text", () => {
  assert.equal(escapeInputText("a b  c"), "a%sb%s%sc");
  assert.equal(shellQuote("it's $HOME; rm"), `'it'\\''s $HOME; rm'`);
});

test("new MobileADevice checks its options before connecting", () => {
  assert.throws(() => new MobileADevice(""), TypeError);
  assert.throws(() => new MobileADevice("x", { keyboardTypeDelay: -1 }), RangeError);
  assert.throws(() => new MobileADevice("x", { minScreenshotBufferSize: -1 }), RangeError);
  assert.throws(() => new MobileADevice("x", { displayId: 1.5 }), RangeError);
  assert.throws(() => new MobileADevice("x", { remoteBridgePort: 70000 }), RangeError);
  assert.throws(
    () => new MobileADevice("x", { imeStrategy: "sometimes" as "always-helper" }),
    /imeStrategy/,
  );
  assert.throws(
    () => new MobileADevice("x", { screenshotStrategy: "always-helper", displayId: 2 }),
    /default display/,
  );
  assert.throws(
    () => new MobileADevice("x", { inputStrategy: "bulk", keyboardTypeDelay: 10 }),
    RangeError,
  );
  const device = new MobileADevice("x", { exposeRunBridgeShellAction: false });
  assert.ok(!device.actionSpace().some((a) => a.name === "RunBridgeShell"));
  assert.deepEqual(device.getMirrorStatus().connected, false);
});

test("the MobileA action space speaks dp and the MobileA defaults", () => {
  const actions = new MobileADevice("x").actionSpace();
  const scroll = actions.find((a) => a.name === "Scroll")!;
  assert.match(scroll.params.find((p) => p.name === "distance")!.description, /^dp /);
  const hold = actions.find((a) => a.name === "LongPress")!;
  assert.match(hold.params.find((p) => p.name === "duration")!.description, /2000 when left out/);
});
