import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { Agent } from "./agent.ts";
import { UnsupportedActionError } from "../errors.ts";
import type { AbstractInterface, DeviceAction } from "../device/types.ts";

/** A phone-like device without Hover, RightClick or Pinch that counts its screenshots. */
function phone(): AbstractInterface & { screenshots: number } {
  const action = (name: string): DeviceAction => ({
    name,
    description: name,
    params: [],
    call: () => Promise.resolve(),
  });
  return {
    interfaceType: "phone",
    screenshots: 0,
    screenshotBase64() {
      this.screenshots++;
      return Promise.reject(new Error("no screenshot expected"));
    },
    size: () => Promise.resolve({ width: 400, height: 800, dpr: 1 }),
    actionSpace: () => ["Tap", "Input", "Scroll", "KeyboardPress", "LongPress"].map(action),
  };
}

test("aiHover, aiRightClick and aiPinch on a device without them reject at once with UnsupportedActionError: no screenshot, no model call", async () => {
  const device = phone();
  // An endpoint that nothing answers: a model call would fail differently.
  const agent = new Agent(device, {
    generateReport: false,
    modelConfig: {
      SDK_MODEL_NAME: "m",
      SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
      SDK_MODEL_API_KEY: "k",
    },
  });
  for (
    const [call, api] of [
      [() => agent.aiHover("the menu"), "aiHover"],
      [() => agent.aiRightClick("the row"), "aiRightClick"],
      [() => agent.aiPinch(undefined, { direction: "in" }), "aiPinch"],
      [() => agent.aiDoubleClick("the row"), "aiDoubleClick"],
    ] as const
  ) {
    await assert.rejects(call(), (e: unknown) => {
      assert.ok(e instanceof UnsupportedActionError, String(e));
      assert.equal(e.code, "ACTION_UNSUPPORTED");
      assert.equal(e.action, api);
      assert.match(e.message, new RegExp(`^${api}: This device has no action named`));
      return true;
    });
  }
  assert.equal(device.screenshots, 0);
  await agent.destroy();
});
