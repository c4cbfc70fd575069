import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { MissingDependencyError, SdkTypeError } from "@sdk/core";
import { checkXvfbResolution, confirmX11Display, parseMonitors } from "./display.ts";

test("xrandr monitors: the primary one is the default", { timeout: 10_000 }, () => {
  const displays = parseMonitors(
    "Monitors: 2\n 0: +*DP-1 1920/527x1080/296+0+0  DP-1\n 1: +HDMI-1 1280/338x1024/270+1920+0  HDMI-1\n",
  );
  assert.deepEqual(displays, [
    { id: "DP-1", index: 0, width: 1920, height: 1080, x: 0, y: 0, primary: true, isDefault: true },
    {
      id: "HDMI-1",
      index: 1,
      width: 1280,
      height: 1024,
      x: 1920,
      y: 0,
      primary: false,
      isDefault: false,
    },
  ]);
});

test("xrandr monitors: without a primary, the one at the origin is the default", {
  timeout: 10_000,
}, () => {
  const displays = parseMonitors(
    "Monitors: 2\n 0: SIDE 600/600x300/300+400+0 \n 1: +screen 1280/339x800/212+0+0  screen\n",
  );
  assert.deepEqual(displays.map((d) => [d.id, d.isDefault]), [["SIDE", false], ["screen", true]]);
});

test("xvfbResolution must be <width>x<height>x<depth>", { timeout: 10_000 }, () => {
  checkXvfbResolution("1920x1080x24");
  assert.throws(() => checkXvfbResolution("1920x1080"), /'xvfbResolution' must be/);
  assert.throws(() => checkXvfbResolution("0x10x24"), /current value is "0x10x24"/);
  assert.throws(() => checkXvfbResolution("10x10x32"), /depth 8, 16 or 24/);
});

test(
  "a display name that is not one, or unset, fails with what to do",
  { timeout: 10_000 },
  async () => {
    await assert.rejects(confirmX11Display(undefined), (e: unknown) => {
      assert.ok(e instanceof MissingDependencyError);
      assert.equal(e.code, "DEPENDENCY_MISSING");
      assert.equal(e.dependency, "X display");
      assert.match(e.message, /DISPLAY is not set.*headless: true/);
      return true;
    });
    await assert.rejects(confirmX11Display("nonsense"), (e: unknown) => {
      assert.ok(e instanceof SdkTypeError && e instanceof TypeError);
      assert.equal(e.code, "INVALID_ARGUMENT");
      assert.match(e.message, /"nonsense" is not an X display name/);
      return true;
    });
  },
);
