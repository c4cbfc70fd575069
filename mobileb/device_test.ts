import { test } from "node:test";
import assert from "node:assert/strict";
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
  await assert.rejects(() => device.screenshotBase64(), /destroyed; create a new device/);
  await assert.rejects(() => device.size(), /destroyed/);
});
