import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  ConnectionError,
  MissingDependencyError,
  SdkRangeError,
  SdkTypeError,
  shellQuote,
} from "@sdk/core";
import { MobileADevice } from "./device.ts";
import { commandOutput, shellFailure, withPrefix } from "./errors.ts";
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

test("wrong options are SdkTypeError / SdkRangeError with their codes, the core checks' included", () => {
  const typeErrors: [string, () => unknown][] = [
    ["deviceId", () => new MobileADevice("")],
    ["imeStrategy (core)", () => new MobileADevice("x", { imeStrategy: "no" as "always-helper" })],
    ["flag (core)", () => new MobileADevice("x", { autoDismissKeyboard: 1 as unknown as boolean })],
    ["bridgePath", () => new MobileADevice("x", { bridgePath: "" })],
    ["custom action (core)", () => new MobileADevice("x", { customActions: [{}] as never })],
  ];
  for (const [what, make] of typeErrors) {
    assert.throws(
      make,
      (e: Error) => e instanceof SdkTypeError && e.code === "INVALID_ARGUMENT",
      what,
    );
  }
  const rangeErrors: [string, () => unknown][] = [
    ["delay (core)", () => new MobileADevice("x", { keyboardTypeDelay: -1 })],
    ["port", () => new MobileADevice("x", { remoteBridgePort: 70000 })],
    ["mirror", () => new MobileADevice("x", { mirrorConfig: { maxSize: -1 } })],
    ["bulk (core)", () => new MobileADevice("x", { inputStrategy: "bulk", keyboardTypeDelay: 5 })],
  ];
  for (const [what, make] of rangeErrors) {
    assert.throws(
      make,
      (e: Error) => e instanceof SdkRangeError && e.code === "ARGUMENT_OUT_OF_RANGE",
      what,
    );
  }
  assert.throws(
    () => new MobileADevice("x").useAppNameMapping("no" as never),
    (e: Error) => e instanceof SdkTypeError,
  );
});

test("errors.ts: a prefix keeps the class, monkey's echo is trimmed", () => {
  const lost = new ConnectionError("gone", { kind: "lost", endpoint: "e" });
  const prefixed = withPrefix(lost, "Cannot pinch: ");
  assert.ok(prefixed instanceof ConnectionError);
  assert.equal(prefixed.message, "Cannot pinch: gone");
  assert.equal((prefixed as ConnectionError).code, "CONNECTION_LOST");
  assert.equal((prefixed as ConnectionError).endpoint, "e");
  assert.equal(prefixed.cause, lost);
  const missing = withPrefix(new MissingDependencyError("no jar", "scrcpy-server"), "P: ");
  assert.ok(missing instanceof MissingDependencyError && missing.dependency === "scrcpy-server");
  assert.equal(
    commandOutput(
      '  bash arg: -p\n  bash arg: com.x\nargs: [-p, com.x]\n arg: "-p"\ndata="com.x"\n' +
        "** No activities found to run, monkey aborted.\n",
    ),
    "** No activities found to run, monkey aborted.",
  );
  const failure = shellFailure("input text x", 255, "", "java.lang.NullPointerException\n");
  assert.equal(failure.code, "TOOL_FAILED");
  assert.equal(failure.status, 255);
  assert.equal(failure.message, "`input text x` exited with 255: java.lang.NullPointerException");
});
