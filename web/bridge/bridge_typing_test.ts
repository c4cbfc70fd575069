import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { BridgePageDriver } from "./bridge_driver.ts";

test("legacy typing through the bridge ignores the delay (spec 4.7 keyboardTypeDelay): one command per character, no wait", async () => {
  const sent: Array<[string, Record<string, unknown> | undefined]> = [];
  const driver = new BridgePageDriver({
    send: (method, params) => {
      sent.push([method, params]);
      return Promise.resolve({});
    },
    onEvent: () => () => {},
  });
  // A delay that would take a minute: typing must not wait for it.
  const typed = driver.keyboard.type("ab€", { delayMs: 60_000 });
  const late = new Promise<"waited">((resolve) => {
    const timer = setTimeout(() => resolve("waited"), 5_000);
    typed.finally(() => clearTimeout(timer));
  });
  assert.equal(await Promise.race([typed.then(() => "typed" as const), late]), "typed");
  const inserted = sent.filter(([m]) => m === "Input.insertText").map(([, p]) => p?.text);
  const keyDowns = sent.filter(([m, p]) => m === "Input.dispatchKeyEvent" && p?.type === "keyDown")
    .map(([, p]) => p?.key);
  assert.deepEqual([...keyDowns, ...inserted], ["a", "b", "€"]);
});
