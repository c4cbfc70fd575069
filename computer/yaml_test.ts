import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { YamlScriptError } from "@sdk/core/script";
import { runComputerYaml } from "./yaml.ts";

test("an untrusted computer: script may not name an X authority file; display is read", async () => {
  const error = await runComputerYaml(
    "computer:\n  display: ':99'\n  xauthority: /home/me/.Xauthority\ntasks: []\n",
    { fileName: "desk.yaml", untrusted: true },
  ).then(() => assert.fail("it ran"), (e: Error) => e);
  assert.ok(error instanceof YamlScriptError, String(error));
  assert.match(error.message, /desk\.yaml:3:3: .*'xauthority'.*X authority file/);
  assert.doesNotMatch(error.message, /'display'/);
});
