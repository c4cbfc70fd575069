import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { InvalidStateError, SdkRangeError, SdkTypeError } from "@sdk/core";
import { MobileBDevice } from "./device.ts";

test("new MobileBDevice: defaults, and checks its options before connecting", () => {
  const device = new MobileBDevice();
  assert.equal(device.driverHost, "localhost");
  assert.equal(device.driverPort, 8100);
  assert.equal(device.driverMjpegPort, 9100);
  assert.equal(device.sessionId, undefined);
  assert.equal(device.startFrameStream, undefined);
  assert.throws(() => new MobileBDevice({ driverPort: 0 }), /driverPort.*1-65535/);
  assert.throws(() => new MobileBDevice({ driverMjpegPort: 70000 }), RangeError);
  assert.throws(() => new MobileBDevice({ driverHost: " " }), TypeError);
  assert.throws(() => new MobileBDevice({ sessionId: "" }), /sessionId/);
  assert.throws(() => new MobileBDevice({ keyboardTypeDelay: -1 }), RangeError);
  assert.throws(
    () => new MobileBDevice({ inputStrategy: "bulk", keyboardTypeDelay: 5 }),
    /bulk/,
  );
  assert.throws(
    // @ts-expect-error: a wrong type on purpose
    () => new MobileBDevice({ autoDismissKeyboard: "yes" }),
    /autoDismissKeyboard.*boolean/,
  );
  assert.throws(
    // @ts-expect-error: a wrong type on purpose
    () => new MobileBDevice({ driverMjpegFrameSource: true }),
    /driverMjpegFrameSource/,
  );
});

test("new MobileBDevice: driverConnectTimeout must be a finite number of ms > 0", {
  timeout: 5_000,
}, () => {
  for (const bad of [0, -1, Infinity, Number.NaN, "5000"]) {
    assert.throws(
      // @ts-expect-error: a string among the values on purpose
      () => new MobileBDevice({ driverConnectTimeout: bad }),
      (e: unknown) =>
        e instanceof SdkRangeError && e instanceof RangeError &&
        e.code === "ARGUMENT_OUT_OF_RANGE" && /'driverConnectTimeout'.*> 0/.test(e.message),
      `driverConnectTimeout ${String(bad)}`,
    );
  }
  assert.doesNotThrow(() => new MobileBDevice({ driverConnectTimeout: 250 }));
});

test("new MobileBDevice: wrong option shapes and ranges are SdkTypeError / SdkRangeError", {
  timeout: 5_000,
}, () => {
  assert.throws(
    () => new MobileBDevice({ driverHost: " " }),
    (e: unknown) => e instanceof SdkTypeError && e.code === "INVALID_ARGUMENT",
  );
  assert.throws(
    () => new MobileBDevice({ driverPort: 0 }),
    (e: unknown) => e instanceof SdkRangeError && e.code === "ARGUMENT_OUT_OF_RANGE",
  );
});

test("the MobileB action space lists the spec's actions in order, then custom ones", () => {
  const custom = { name: "Shake", description: "shake", params: [], call: () => Promise.resolve() };
  const names = new MobileBDevice({ customActions: [custom] }).actionSpace().map((a) => a.name);
  assert.deepEqual(names, [
    "Tap",
    "DoubleClick",
    "Input",
    "ClearInput",
    "KeyboardPress",
    "Scroll",
    "Swipe",
    "DragAndDrop",
    "LongPress",
    "Pinch",
    "Launch",
    "Terminate",
    "RunDriverRequest",
    "MobileBHomeButton",
    "MobileBAppSwitcher",
    "Shake",
  ]);
  const pinch = new MobileBDevice().actionSpace().find((a) => a.name === "Pinch")!;
  assert.deepEqual(pinch.params.map((p) => [p.name, p.required]), [
    ["locate", false],
    ["direction", false],
    ["distance", false],
    ["duration", false],
    ["scale", false],
  ]);
});

test("driverMjpegFrameSource.enabled gives the device a frame stream", () => {
  const device = new MobileBDevice({ driverMjpegFrameSource: { enabled: true } });
  assert.equal(typeof device.startFrameStream, "function");
});

test("destroy is idempotent and later calls say the device was destroyed", async () => {
  const device = new MobileBDevice({ driverPort: 1 });
  await device.destroy();
  await device.destroy();
  await assert.rejects(() => device.screenshotBase64(), (e: unknown) => {
    assert.ok(e instanceof InvalidStateError, String(e));
    assert.equal(e.code, "INVALID_STATE");
    assert.match(e.message, /destroyed; create a new device/);
    return true;
  });
  await assert.rejects(() => device.size(), /destroyed/);
});
