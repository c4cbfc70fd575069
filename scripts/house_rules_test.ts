import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  cleanupsSkippedByFilter,
  coreLayerViolations,
  globMatcher,
  importCircles,
  type ImportEdge,
  type ImportGraph,
  MAX_PRODUCT_FILE_LINES,
  oversizedFiles,
  packageOf,
  packageViolations,
  platformNamesInScripts,
  testsWithoutTimeLimit,
} from "./house_rules.ts";

/** A graph from `from: [to, specifier?][]`; the specifier defaults to `./<to's name>`. */
function graphOf(edges: Record<string, (string | [string, string])[]>): ImportGraph {
  return new Map(
    Object.entries(edges).map(([from, to]) => [
      from,
      to.map((t): ImportEdge =>
        typeof t === "string"
          ? { to: t, specifier: `./${t.slice(t.lastIndexOf("/") + 1)}` }
          : { to: t[0], specifier: t[1] }
      ),
    ]),
  );
}

test("importCircles() names the path that closes each circle, and nothing for a tree", () => {
  const graph = graphOf({
    "web/testing/_adb_sync.ts": ["web/testing/_android_shell.ts"],
    "web/testing/_android_shell.ts": ["web/testing/_scrcpy_server.ts", "core/mod.ts"],
    "web/testing/_scrcpy_server.ts": ["web/testing/_adb_sync.ts"],
    "web/playground/playground.ts": ["web/playground/web_target.ts"],
    "web/playground/web_target.ts": ["web/playground/playground.ts"],
    "core/mod.ts": [],
  });
  assert.deepEqual(importCircles(graph).sort(), [
    "web/playground/playground.ts -> web/playground/web_target.ts -> web/playground/playground.ts",
    "web/testing/_adb_sync.ts -> web/testing/_android_shell.ts -> web/testing/_scrcpy_server.ts -> web/testing/_adb_sync.ts",
  ]);
  assert.deepEqual(importCircles(graphOf({ "a.ts": ["b.ts", "c.ts"], "b.ts": ["c.ts"] })), []);
  assert.deepEqual(importCircles(graphOf({ "a.ts": ["a.ts"] })), ["a.ts -> a.ts"]);
});

test("packageOf() puts a platform's testing folder apart from the platform", () => {
  assert.equal(packageOf("mobilea/testing/adb_front.ts"), "mobilea/testing");
  assert.equal(packageOf("mobilea/device.ts"), "mobilea");
  assert.equal(packageOf("cli/main.ts"), "cli");
  assert.equal(packageOf("tests/e2e/cli_test.ts"), undefined);
});

test("packageViolations() refuses an import against the direction, and a relative path into another package", () => {
  const graph = graphOf({
    "web/cli/platforms.ts": [["mobilea/mod.ts", "@sdk/mobilea"]],
    "mobilea/device.ts": [["core/mod.ts", "@sdk/core"], ["web/mod.ts", "@sdk/web"]],
    "mobilea/testing/adb_front.ts": [["web/testing/mod.ts", "@sdk/web/testing"]],
    "web/page/contract.ts": [["core/image/size.ts", "../../core/image/size.ts"]],
    "cli/platforms.ts": [["mobilec/mod.ts", "@sdk/mobilec"]],
    "core/agent/agent.ts": [["web/mod.ts", "@sdk/web"]],
  });
  assert.deepEqual(packageViolations(graph), [
    "core/agent/agent.ts -> web/mod.ts (@sdk/web): core may import no other package, not web",
    "mobilea/device.ts -> web/mod.ts (@sdk/web): mobilea may import core, not web",
    "web/cli/platforms.ts -> mobilea/mod.ts (@sdk/mobilea): web may import core, not mobilea",
    "web/page/contract.ts -> core/image/size.ts (../../core/image/size.ts): reach core through its package name (@sdk/core...), not a relative path",
  ]);
});

test("coreLayerViolations() names a lower layer of core importing an upper one", () => {
  const graph = graphOf({
    "core/model/caller.ts": ["core/log/redact.ts", "core/planning/act.ts"],
    "core/agent/agent.ts": ["core/planning/act.ts"],
    "core/errors.ts": ["core/agent/agent.ts"],
  });
  assert.deepEqual(coreLayerViolations(graph), [
    "core/errors.ts -> core/agent/agent.ts",
    "core/model/caller.ts -> core/planning/act.ts",
  ]);
});

test("oversizedFiles() counts lines with or without a final newline", () => {
  const lines = (n: number, end = "\n") => "x\n".repeat(n - 1) + "x" + end;
  const files = new Map([
    ["ok.ts", lines(MAX_PRODUCT_FILE_LINES)],
    ["ok_no_newline.ts", lines(MAX_PRODUCT_FILE_LINES, "")],
    ["big.ts", lines(MAX_PRODUCT_FILE_LINES + 1)],
  ]);
  assert.deepEqual(oversizedFiles(files), [`big.ts: ${MAX_PRODUCT_FILE_LINES + 1} lines`]);
});

test("platformNamesInScripts() finds a platform's name in core/script's code, not in its comments or elsewhere", () => {
  const files = new Map([
    ["core/script/a.ts", '/** The section, e.g. `"phone"`. */\nconst ok = 1;\n'],
    ["core/script/b.ts", 'const x = 1;\nif (key === "phone") run();\n'],
    ["core/device/c.ts", 'export const KEYS = ["phone"];\n'],
  ]);
  assert.deepEqual(platformNamesInScripts(files, ["phone", "desk"]), [
    "core/script/b.ts:2: names the platform 'phone'; let the platform hand it in",
  ]);
});

test("globMatcher() reads publish.exclude globs as deno publish does", () => {
  const tests = globMatcher("**/*_test.ts");
  assert.equal(tests("agent_test.ts"), true);
  assert.equal(tests("agent/agent_test.ts"), true);
  assert.equal(tests("agent/agent.ts"), false);
  const file = globMatcher("image/test_util.ts");
  assert.equal(file("image/test_util.ts"), true);
  assert.equal(file("image/test_utilXts"), false);
  const folder = globMatcher("**/testdata/");
  assert.equal(folder("runtime/testdata/adopt_child.ts"), true);
  assert.equal(folder("runtime/testdata.ts"), false);
});

test("testsWithoutTimeLimit() names a test file that takes test from node:test", () => {
  const files = new Map([
    ["core/a_test.ts", 'import { after, test } from "node:test";\n'],
    [
      "core/b_test.ts",
      'import { after } from "node:test";\nimport { test } from "../tests/helpers/test.ts";\n',
    ],
    ["tests/e2e/_drivers.ts", 'import { before, test as nodeTest } from "node:test";\n'],
    ["tests/helpers/test.ts", 'import { test as nodeTest } from "node:test";\n'],
  ]);
  assert.deepEqual(testsWithoutTimeLimit(files), [
    "core/a_test.ts: takes test from node:test; import { test } from tests/helpers/test.ts",
    "tests/e2e/_drivers.ts: takes test from node:test; import { test } from tests/helpers/test.ts",
  ]);
});

test("cleanupsSkippedByFilter() names a file that takes after from node:test", () => {
  const files = new Map([
    ["core/a_test.ts", 'import { after, before } from "node:test";\n'],
    [
      "core/b_test.ts",
      'import { before } from "node:test";\nimport { after, test } from "../tests/helpers/test.ts";\n',
    ],
    ["tests/e2e/_drivers.ts", 'import { after as cleanup } from "node:test";\n'],
    ["tests/helpers/test.ts", 'import { test as nodeTest } from "node:test";\n'],
  ]);
  assert.deepEqual(cleanupsSkippedByFilter(files), [
    "core/a_test.ts: takes after from node:test, which a --filter skips; import { after } from tests/helpers/test.ts",
    "tests/e2e/_drivers.ts: takes after from node:test, which a --filter skips; import { after } from tests/helpers/test.ts",
  ]);
});
