/**
 * The dead-export rule of the house (docs/architecture.md, "Rules"): an export of a product file
 * that nothing outside the file uses is dead weight a reader must still check. A file's exports
 * count as used when a file that imports it (a product file, or a test: an export a unit test
 * reaches is a seam of the test) names them; the members' entry points (their `exports` targets)
 * are the public API and are not checked. A type or interface the file itself uses (in another
 * export's signature) may stay exported: the docs of the public API link it.
 *
 * @module
 */

import { dirname, join, normalize } from "node:path";
import type { ImportGraph } from "./house_rules.ts";

/** One exported name of a file. */
export interface ExportedName {
  /** The name. */
  name: string;
  /** `"type"` for interfaces and type aliases, `"value"` for the rest. */
  kind: "type" | "value";
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const LIST = /^export\s+(type\s+)?\{([^}]*)\}(?!\s*from)/gm;

/** The names a file exports by declaration or by a local `export { ... }` list (not re-exports). */
export function exportedNames(text: string): ExportedName[] {
  const names: ExportedName[] = [];
  for (const m of text.matchAll(DECLARATION)) {
    names.push({ name: m[2], kind: m[1] === "interface" || m[1] === "type" ? "type" : "value" });
  }
  for (const m of text.matchAll(LIST)) {
    for (const part of m[2].split(",")) {
      const [, typeOnly, local, alias] = /^\s*(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(
        part,
      ) ?? [];
      if (!local) continue;
      names.push({ name: alias ?? local, kind: m[1] || typeOnly ? "type" : "value" });
    }
  }
  return names;
}

function mentions(text: string, name: string): number {
  return text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g"))
    ?.length ?? 0;
}

/**
 * The dead exports of the product files in `texts`, as `file: name`: names no importing product
 * file mentions, except types the file itself uses beside their declaration.
 *
 * @param graph the import graph of the product files.
 * @param texts the product files' texts (tests excluded).
 * @param entries the members' entry points, whose exports are the public API.
 * @param tests the test files' texts by path: their relative imports count as uses.
 */
export function deadExports(
  graph: ImportGraph,
  texts: ReadonlyMap<string, string>,
  entries: ReadonlySet<string>,
  tests: ReadonlyMap<string, string> = new Map(),
): string[] {
  const importers = new Map<string, string[]>();
  const add = (to: string, from: string) => {
    if (to !== from) importers.set(to, [...importers.get(to) ?? [], from]);
  };
  for (const [from, edges] of graph) for (const { to } of edges) add(to, from);
  for (const [file, text] of tests) {
    for (const m of text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
      add(normalize(join(dirname(file), m[1])).split("\\").join("/"), file);
    }
  }
  const all = new Map([...texts, ...tests]);
  const dead: string[] = [];
  for (const [file, text] of texts) {
    if (entries.has(file) || !graph.has(file)) continue;
    const users = (importers.get(file) ?? []).map((f) => all.get(f) ?? "");
    for (const { name, kind } of exportedNames(text)) {
      if (users.some((u) => mentions(u, name) > 0)) continue;
      if (kind === "type" && mentions(text, name) > 1) continue;
      dead.push(`${file}: ${name}`);
    }
  }
  return dead.sort();
}
