import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { deadExports, exportedNames } from "./dead_exports.ts";
import type { ImportGraph } from "./house_rules.ts";

test("exportedNames() reads declarations and local export lists, not re-exports", () => {
  const text = [
    "export const A = 1;",
    "export async function b() {}",
    "export interface C {}",
    "export type D = string;",
    "export class E {}",
    "const f = 1; type G = 1;",
    "export { f as F, type G };",
    'export { H } from "./h.ts";',
  ].join("\n");
  assert.deepEqual(exportedNames(text), [
    { name: "A", kind: "value" },
    { name: "b", kind: "value" },
    { name: "C", kind: "type" },
    { name: "D", kind: "type" },
    { name: "E", kind: "value" },
    { name: "F", kind: "value" },
    { name: "G", kind: "type" },
  ]);
});

test("deadExports() names exports no importer uses; a test's use, a type used in the file and an entry point's exports count", () => {
  const graph: ImportGraph = new Map([
    ["core/mod.ts", [{ to: "core/a.ts", specifier: "./a.ts" }]],
    ["core/a.ts", []],
    ["core/b.ts", []],
  ]);
  const texts = new Map([
    ["core/mod.ts", 'export { used } from "./a.ts";\nexport const PUBLIC = 1;'],
    [
      "core/a.ts",
      [
        "export interface Shape { x: number }",
        "export function used(s: Shape) {}",
        "export const unused = 1;",
        "export const tested = 2;",
        "export type Lonely = 1;",
      ].join("\n"),
    ],
    ["core/b.ts", "export function orphan() {}"],
  ]);
  const tests = new Map([["core/a_test.ts", 'import { tested } from "./a.ts";']]);
  assert.deepEqual(deadExports(graph, texts, new Set(["core/mod.ts"]), tests), [
    "core/a.ts: Lonely",
    "core/a.ts: unused",
    "core/b.ts: orphan",
  ]);
});
