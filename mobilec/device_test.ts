import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { MobileCDevice } from "./device.ts";

test("MobileCDevice.useAppNameMapping takes a function and refuses anything else", () => {
  const device = new MobileCDevice("127.0.0.1:5555");
  device.useAppNameMapping((target) => target);
  for (const bad of [undefined, null, "com.example", { Notes: "com.example.notes" }]) {
    assert.throws(
      () => device.useAppNameMapping(bad as unknown as (target: string) => string),
      {
        name: "TypeError",
        message: "useAppNameMapping needs a function from app name to bundle name",
      },
    );
  }
});
