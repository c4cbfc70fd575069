import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { desktopKeys } from "./keys.ts";

test("key names and combinations become nut-js keys, modifiers first", { timeout: 10_000 }, () => {
  assert.deepEqual(desktopKeys("ctrl+s").keys, ["LeftControl", "S"]);
  assert.deepEqual(desktopKeys("Shift+Tab").keys, ["LeftShift", "Tab"]);
  assert.deepEqual(desktopKeys("Cmd+Alt+Esc").keys, ["LeftSuper", "LeftAlt", "Escape"]);
  assert.deepEqual(desktopKeys("ArrowDown").keys, ["Down"]);
  assert.deepEqual(desktopKeys("f12").keys, ["F12"]);
  assert.deepEqual(desktopKeys("7").keys, ["Num7"]);
  assert.deepEqual(desktopKeys("Control+/").keys, ["LeftControl", "Slash"]);
  assert.deepEqual(desktopKeys("Control+=").keys, ["LeftControl", "Equal"]);
  // nut-js's Enter is the keypad's; Return is the main key.
  assert.deepEqual(desktopKeys("Enter").keys, ["Return"]);
  assert.deepEqual(desktopKeys("Shift+Return").keys, ["LeftShift", "Return"]);
});

test(
  "keys nut-js cannot press under X11 are refused before anything is sent",
  { timeout: 10_000 },
  () => {
    for (const name of ["F13", "F24", "Pause", "ContextMenu", "Control+F20"]) {
      assert.throws(() => desktopKeys(name), (e: unknown) => {
        assert.ok(e instanceof TypeError);
        assert.equal((e as { code?: string }).code, "INVALID_ARGUMENT");
        assert.match((e as Error).message, /nut-js cannot press ".*" under X11/);
        return true;
      });
    }
  },
);

test("characters without a key of their own are refused with the list of names", {
  timeout: 10_000,
}, () => {
  assert.throws(() => desktopKeys("Control+é"), /"é" is not a key name\. Use Enter, Tab/);
  assert.throws(() => desktopKeys("!"), /"!" is not a key name/);
  assert.throws(
    () => desktopKeys("Super+Hyper+Q"),
    /"Hyper" in "Super\+Hyper\+Q" is not a modifier/,
  );
});
