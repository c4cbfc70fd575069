/**
 * Core's imports run one way (docs/architecture.md, "Layers"): no module of `@sdk/core` imports
 * itself back through a circle, and the lower layers never import the upper ones. Read from
 * `deno info --json` on each of core's entry points, so a new circle fails here, naming its files.
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const CORE = new URL("../../core/", import.meta.url);
const ENTRY_POINTS = [
  "mod.ts",
  "report/mod.ts",
  "script/mod.ts",
  "gherkin/mod.ts",
  "testing/mod.ts",
  "browser/mod.ts",
];

/** Lower layers and the folders they must not import. */
const LAYERS: Record<string, string[]> = {
  "errors.ts": ["agent", "planning", "insight", "model", "report", "observe", "script", "gherkin"],
  device: ["agent", "planning", "insight", "model", "observe", "script", "gherkin"],
  image: ["agent", "planning", "insight", "model", "observe", "script", "gherkin"],
  runtime: ["agent", "planning", "insight", "model", "observe", "script", "gherkin"],
  log: ["agent", "planning", "insight", "observe", "script", "gherkin"],
  model: ["agent", "planning", "insight", "observe", "script", "gherkin"],
  insight: ["planning", "observe", "script", "gherkin"],
};

interface DenoInfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
}

/** Core's import graph: file path relative to core/ -> the core files it imports. */
async function coreGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  const corePath = fileURLToPath(CORE);
  const relative = (specifier: string) =>
    specifier.startsWith("file://") && fileURLToPath(specifier).startsWith(corePath)
      ? fileURLToPath(specifier).slice(corePath.length)
      : undefined;
  for (const entry of ENTRY_POINTS) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", fileURLToPath(new URL(entry, CORE))],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const { modules } = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: DenoInfoModule[];
    };
    for (const m of modules) {
      const from = relative(m.specifier);
      if (from === undefined) continue;
      const to = (m.dependencies ?? []).flatMap((d) =>
        [d.code?.specifier, d.type?.specifier].flatMap((s) => (s && relative(s)) || [])
      );
      graph.set(from, [...new Set(to)]);
    }
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const graph = await coreGraph();

test("no module of @sdk/core imports itself back through a circle of imports", () => {
  assert.ok(graph.size > 50, `read the import graph (${graph.size} files)`);
  assert.deepEqual(circles(graph), []);
});

test("the lower layers of core (errors, device, image, runtime, log, model, insight) never import the upper ones", () => {
  const wrong: string[] = [];
  for (const [from, to] of graph) {
    const layer = from.includes("/") ? from.slice(0, from.indexOf("/")) : from;
    const banned = LAYERS[layer] ?? [];
    for (const target of to) {
      if (banned.includes(target.slice(0, target.indexOf("/")))) wrong.push(`${from} -> ${target}`);
    }
  }
  assert.deepEqual(wrong, []);
});
