import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { parseCliArgs, type RunCommand } from "./args.ts";
import { agentOptionsOf } from "./run_file.ts";

test("a web section's nativeDialogs reaches the page agent; the --native-dialogs flag wins over it", () => {
  assert.deepEqual(
    agentOptionsOf("f.yaml", { url: "https://x", nativeDialogs: "accept" }, {}, {}),
    { nativeDialogs: "accept" },
  );
  const flags = (parseCliArgs(["run", "f.yaml", "--native-dialogs", "dismiss"]) as RunCommand)
    .agentOptions;
  assert.deepEqual(flags, { nativeDialogs: "dismiss" });
  assert.deepEqual(
    agentOptionsOf("f.yaml", { url: "https://x", nativeDialogs: "accept" }, {}, flags),
    { nativeDialogs: "dismiss" },
  );
  assert.throws(
    () => parseCliArgs(["run", "f.yaml", "--native-dialogs", "ignore"]),
    /--native-dialogs takes one of dismiss, accept: got "ignore"/,
  );
});
