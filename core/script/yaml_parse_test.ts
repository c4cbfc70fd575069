import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { YamlScriptError } from "./script_errors.ts";
import { parseYamlTree, type YamlMapNode, type YamlNode } from "./yaml_parse.ts";

async function rejectsAt(text: string, line: number, column: number, message: RegExp) {
  await assert.rejects(parseYamlTree(text, "f.yaml"), (e: unknown) => {
    assert.ok(e instanceof YamlScriptError);
    assert.equal(e.fileName, "f.yaml");
    assert.deepEqual([e.line, e.column], [line, column]);
    assert.match(e.message, message);
    return true;
  });
}

test("parseYamlTree() gives keys and values their 1-based line and column", async () => {
  const tree = await parseYamlTree("a:\n  - b: 1\n    c: 'x'\n", "f.yaml") as YamlMapNode;
  assert.equal(tree.kind, "map");
  const [a] = tree.entries;
  assert.deepEqual([a.key, a.keyPos], ["a", { line: 1, column: 1 }]);
  const item = (a.value as { items: YamlNode[] }).items[0] as YamlMapNode;
  assert.deepEqual(item.entries.map((e) => [e.key, e.keyPos, e.value.pos]), [
    ["b", { line: 2, column: 5 }, { line: 2, column: 8 }],
    ["c", { line: 3, column: 5 }, { line: 3, column: 8 }],
  ]);
});

test("parseYamlTree() reads an empty value as null and keeps numbers' source text", async () => {
  const tree = await parseYamlTree("a:\nb: 01234\nc: true\n", "f.yaml") as YamlMapNode;
  assert.deepEqual(
    tree.entries.map((e) => e.value.kind === "scalar" && [e.value.value, e.value.source]),
    [[null, ""], [1234, "01234"], [true, "true"]],
  );
});

test("parseYamlTree() expands aliases and returns null for an empty document", async () => {
  const tree = await parseYamlTree("a: &x {p: 1}\nb: *x\n", "f.yaml") as YamlMapNode;
  assert.deepEqual(tree.entries[1].value.kind, "map");
  assert.equal(await parseYamlTree("# only a comment\n", "f.yaml"), null);
});

test("parseYamlTree() rejects bad YAML naming the file, line and column", async () => {
  await rejectsAt("a: 1\n  b: 2\n", 1, 4, /^f\.yaml:1:4: invalid YAML: Nested mappings/);
  await rejectsAt("a:\n\t- x\n", 2, 1, /Tabs are not allowed/);
  await rejectsAt("a: [1, 2\n", 2, 1, /invalid YAML/);
  await rejectsAt("a: 1\na: 2\n", 2, 1, /f\.yaml:2:1: invalid YAML: Map keys must be unique/);
  await rejectsAt("a: 1\n---\nb: 2\n", 2, 1, /multiple documents/);
  await rejectsAt("? [a]\n: 1\n", 1, 3, /a key must be plain text/);
});

test("parseYamlTree() stops alias bombs", async () => {
  const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 6; i++) {
    const prev = String.fromCharCode(96 + i), next = String.fromCharCode(97 + i);
    lines.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
  }
  await assert.rejects(parseYamlTree(lines.join("\n"), "f.yaml"), /more than 1000 aliases/);
});
