import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import process from "node:process";
import { SdkTypeError } from "@sdk/core";
import { ComputerDevice } from "./device.ts";
import { checkComputerDeviceOptions } from "./device_options.ts";

/** `fn` throws the SDK's `TypeError` (`INVALID_ARGUMENT`) with a message matching `message`. */
function refused(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SdkTypeError && e instanceof TypeError, String(e));
    assert.equal(e.code, "INVALID_ARGUMENT");
    assert.match(e.message, message);
    return true;
  });
}

test("display names the X display the device drives, with its xauthority, before it connects", () => {
  const device = new ComputerDevice({ display: ":99", xauthority: "/tmp/cookie" });
  assert.equal(device.display, ":99");
  assert.equal(device.xauthority, "/tmp/cookie");
  assert.equal(new ComputerDevice({ display: "host:0.1" }).display, "host:0.1");
});

test("a display that is no X display name, an empty xauthority, and either with headless are refused", () => {
  refused(() => new ComputerDevice({ display: "99" }), /'display' must be an X display name.*"99"/);
  refused(() => new ComputerDevice({ display: ":x" }), /'display'/);
  refused(() => new ComputerDevice({ xauthority: "" }), /'xauthority' must be the path/);
  refused(
    () => new ComputerDevice({ headless: true, display: ":99" }),
    /'headless' and 'display'.*a display of its own/,
  );
  refused(
    () => new ComputerDevice({ headless: true, xauthority: "/tmp/cookie" }),
    /'headless' and 'xauthority'/,
  );
});

test("a display or xauthority given outranks SDK_COMPUTER_HEADLESS_LINUX", () => {
  const before = process.env.SDK_COMPUTER_HEADLESS_LINUX;
  process.env.SDK_COMPUTER_HEADLESS_LINUX = "true";
  try {
    assert.equal(checkComputerDeviceOptions({ display: ":99" }).headless, false);
    assert.equal(checkComputerDeviceOptions({ xauthority: "/tmp/cookie" }).headless, false);
    assert.equal(checkComputerDeviceOptions({}).headless, true);
  } finally {
    if (before === undefined) delete process.env.SDK_COMPUTER_HEADLESS_LINUX;
    else process.env.SDK_COMPUTER_HEADLESS_LINUX = before;
  }
});
