import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { parseScriptFile } from "./script_schema.ts";

const TASKS = "tasks:\n  - name: t\n    flow:\n      - aiTap: the button\n";

test("the web section reads bridgeMode and closeNewTabsAfterDisconnect, as the peer SDK's scripts write them", async () => {
  const script = await parseScriptFile(
    "web:\n  url: https://example.com\n  bridgeMode: newTabWithUrl\n" +
      "  closeNewTabsAfterDisconnect: true\n" + TASKS,
    "b.yaml",
  );
  assert.deepEqual(
    [script.web.bridgeMode, script.web.closeNewTabsAfterDisconnect],
    ["newTabWithUrl", true],
  );
  const off = await parseScriptFile(
    "web:\n  url: https://example.com\n  bridgeMode: false\n" + TASKS,
    "b.yaml",
  );
  assert.equal(off.web.bridgeMode, false);
});

test("bridgeMode: true, an unknown mode, and a browser setting of sdk run's beside a mode are errors at their line", async () => {
  await assert.rejects(
    parseScriptFile(
      "web:\n  url: https://example.com\n  bridgeMode: true\n  viewportWidth: 800\n" + TASKS,
      "b.yaml",
    ),
    (e: Error) => {
      assert.match(e.message, /b\.yaml:3:15: 'bridgeMode' is newTabWithUrl .* got true/);
      assert.doesNotMatch(e.message, /viewportWidth/, "true is no mode: nothing else applies");
      return true;
    },
  );
  await assert.rejects(
    parseScriptFile(
      "web:\n  url: https://example.com\n  bridgeMode: currentTab\n  viewportWidth: 800\n" +
        "  cookie: c.json\n" + TASKS,
      "b.yaml",
    ),
    (e: Error) => {
      assert.match(e.message, /b\.yaml:4:3: 'viewportWidth' sets up a browser of sdk run's/);
      assert.match(e.message, /b\.yaml:5:3: 'cookie' sets up a browser/);
      return true;
    },
  );
  await assert.rejects(
    parseScriptFile("web:\n  url: https://x.org\n  bridgeMode: newTab\n" + TASKS, "b.yaml"),
    /b\.yaml:3:15: .*newTabWithUrl/,
  );
});
