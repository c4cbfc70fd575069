/**
 * The rules of the house (docs/architecture.md, "Rules"), as pure functions over an import graph
 * and a list of files, so that a test can plant each violation and see it named:
 *
 * - no import circle: a file never imports itself back through other files;
 * - imports run one way between packages ({@link PACKAGE_IMPORTS}): core imports no other package,
 *   web imports core, each device platform imports core (its `testing/` folder also web's
 *   simulator kit), and the command line stands above them all;
 * - a package reaches another only through that package's name (`@sdk/web/testing`), never by a
 *   relative path into its folder;
 * - core's lower layers never import its upper ones ({@link CORE_LAYERS});
 * - a product file has at most {@link MAX_PRODUCT_FILE_LINES} lines;
 * - a test file takes `test` from `tests/helpers/test.ts`, which gives every test a time limit,
 *   never from `node:test` directly; and `after` from there too, whose cleanup runs also when
 *   `--filter` skips the file's tests.
 *
 * `scripts/check_architecture.ts` reads the real graph and runs these in `deno task check`.
 *
 * @module
 */

/** An import graph: file path (relative to the repository, `/`-separated) -> its imports. */
export type ImportGraph = ReadonlyMap<string, readonly ImportEdge[]>;

/** One import of a file. */
export interface ImportEdge {
  /** The imported file, relative to the repository. */
  readonly to: string;
  /** The specifier as written (`../core/mod.ts`, `@sdk/core`). */
  readonly specifier: string;
}

/** The most lines a product file may have (tests, fixtures and benches are exempt). */
export const MAX_PRODUCT_FILE_LINES = 600;

/**
 * Which packages each package's files may import (besides its own). A key `web` holds for every
 * file of `web/`; `mobilea/testing` for the files under it, before `mobilea`.
 */
export const PACKAGE_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  web: ["core"],
  "mobilea/testing": ["core", "web"],
  "mobileb/testing": ["core", "web"],
  "mobilec/testing": ["core", "web"],
  mobilea: ["core"],
  mobileb: ["core"],
  mobilec: ["core"],
  computer: ["core"],
  cli: ["core", "web", "mobilea", "mobileb", "mobilec", "computer"],
};

/** What the ground floor of core (runtime, image, device, the pool) must not import. */
const ABOVE_THE_GROUND_FLOOR: readonly string[] = [
  "agent",
  "session",
  "cache",
  "planning",
  "insight",
  "model",
  "observe",
  "script",
  "gherkin",
];

/**
 * Core's floors, bottom up: errors, runtime, image, device and pool; log and model; `session`
 * (the call plumbing every floor above uses: the call session, screens, perform, options,
 * contexts, prompt input, the cache store); insight; `cache` (the locate and plan caches); planning; observe and
 * script; `agent` (the public agent) at the top. Each lower layer (a folder of core, or
 * `errors.ts`) with the folders of core it must not import.
 */
export const CORE_LAYERS: Readonly<Record<string, readonly string[]>> = {
  "errors.ts": [...ABOVE_THE_GROUND_FLOOR, "report"],
  device: ABOVE_THE_GROUND_FLOOR,
  image: ABOVE_THE_GROUND_FLOOR,
  runtime: ABOVE_THE_GROUND_FLOOR,
  // The device pool: runtime and the report's marker files only, below everything that drives.
  pool: ABOVE_THE_GROUND_FLOOR,
  log: ["agent", "session", "cache", "planning", "insight", "observe", "script", "gherkin"],
  model: ["agent", "session", "cache", "planning", "insight", "observe", "script", "gherkin"],
  session: ["agent", "cache", "planning", "insight", "observe", "script", "gherkin"],
  insight: ["agent", "cache", "planning", "observe", "script", "gherkin"],
  cache: ["agent", "planning", "observe", "script", "gherkin"],
  planning: ["agent", "observe", "script", "gherkin"],
  observe: ["agent", "script", "gherkin"],
  script: ["agent", "cache", "planning", "insight", "observe", "gherkin"],
};

/** The package a file belongs to: the first matching key of {@link PACKAGE_IMPORTS}, or `undefined`. */
export function packageOf(file: string): string | undefined {
  return Object.keys(PACKAGE_IMPORTS).find((key) => file === key || file.startsWith(`${key}/`));
}

/** The member folder of a package key (`mobilea/testing` -> `mobilea`). */
function memberOf(pkg: string): string {
  return pkg.split("/")[0];
}

/**
 * Every import circle of the graph, each as the path that closes it (`a.ts -> b.ts -> a.ts`),
 * one per strongly connected component of more than one file (or a file importing itself).
 */
export function importCircles(graph: ImportGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfImport = (graph.get(v) ?? []).some((e) => e.to === v);
      if (component.length > 1 || selfImport) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => circlePath(graph, new Set(component)));
}

/** A path through a strongly connected component from its first file (sorted) back to it. */
function circlePath(graph: ImportGraph, component: ReadonlySet<string>): string {
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let w = v; w !== start; w = previous.get(w)!) path.splice(1, 0, w);
        return [...path, start].join(" -> ");
      }
      if (!previous.has(to)) {
        previous.set(to, v);
        queue.push(to);
      }
    }
  }
  return [...component].sort().join(" -> ");
}

/**
 * Imports that go against {@link PACKAGE_IMPORTS}, or that reach another package by a relative
 * path, each as `from -> to (specifier): why`.
 */
export function packageViolations(graph: ImportGraph): string[] {
  const wrong: string[] = [];
  for (const [from, edges] of graph) {
    const source = packageOf(from);
    if (source === undefined) continue;
    for (const { to, specifier } of edges) {
      const target = packageOf(to);
      if (target === undefined || memberOf(target) === memberOf(source)) continue;
      if (!PACKAGE_IMPORTS[source].includes(memberOf(target))) {
        wrong.push(
          `${from} -> ${to} (${specifier}): ${source} may import ${
            PACKAGE_IMPORTS[source].join(", ") || "no other package"
          }, not ${memberOf(target)}`,
        );
      } else if (specifier.startsWith(".")) {
        wrong.push(
          `${from} -> ${to} (${specifier}): reach ${
            memberOf(target)
          } through its package name (@sdk/${memberOf(target)}...), not a relative path`,
        );
      }
    }
  }
  return wrong.sort();
}

/** Imports of core's lower layers into its upper ones ({@link CORE_LAYERS}), as `from -> to`. */
export function coreLayerViolations(graph: ImportGraph): string[] {
  const folder = (file: string) => {
    const rest = file.slice("core/".length);
    return rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : rest;
  };
  const wrong: string[] = [];
  for (const [from, edges] of graph) {
    if (!from.startsWith("core/")) continue;
    const banned = CORE_LAYERS[folder(from)] ?? [];
    for (const { to } of edges) {
      if (to.startsWith("core/") && banned.includes(folder(to))) wrong.push(`${from} -> ${to}`);
    }
  }
  return wrong.sort();
}

/**
 * Product files longer than {@link MAX_PRODUCT_FILE_LINES}, as `path: N lines`.
 *
 * @param files product file path -> its text.
 */
export function oversizedFiles(files: ReadonlyMap<string, string>): string[] {
  const wrong: string[] = [];
  for (const [path, text] of files) {
    const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
    if (lines > MAX_PRODUCT_FILE_LINES) wrong.push(`${path}: ${lines} lines`);
  }
  return wrong.sort();
}

/** Where script verbs and sections are read, which names no platform: the platforms hand theirs in. */
export const PLATFORM_NEUTRAL_DIR = "core/script/";

/**
 * Product files of {@link PLATFORM_NEUTRAL_DIR} whose code (not their comments) names a platform's
 * section as a string (`"mobilea"`): a platform's verbs and section come from its own package
 * (`ScriptSectionSchema.items`, `ScriptPlatform`), so core's script reader never branches on one.
 *
 * @param files product file path -> its text.
 * @param sections the platforms' section keys (`PLATFORM_SECTION_KEYS` of core/device).
 */
export function platformNamesInScripts(
  files: ReadonlyMap<string, string>,
  sections: readonly string[],
): string[] {
  const wrong: string[] = [];
  const named = new RegExp(`"(${sections.join("|")})"`);
  for (const [path, text] of files) {
    if (!path.startsWith(PLATFORM_NEUTRAL_DIR)) continue;
    for (const [i, line] of text.split("\n").entries()) {
      if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
      const m = named.exec(line);
      if (m) {
        wrong.push(`${path}:${i + 1}: names the platform '${m[1]}'; let the platform hand it in`);
      }
    }
  }
  return wrong.sort();
}

/**
 * A glob of a `publish.exclude` list (`**\/*_test.ts`, `image/test_util.ts`, `runtime/testdata`)
 * as a test of a path relative to its member: it matches the path or a folder the path is in.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith("**/", i)) {
      source += "(?:.*/)?";
      i += 2;
    } else if (glob[i] === "*") source += "[^/]*";
    else source += glob[i].replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  const re = new RegExp(`^${source.replace(/\/$/, "")}$`);
  return (path) => {
    const parts = path.split("/");
    return parts.some((_, i) => re.test(parts.slice(0, i + 1).join("/")));
  };
}

/** The module that gives every test a time limit; the only one that may take node:test's `test`. */
export const TEST_HELPER = "tests/helpers/test.ts";

/**
 * Test files that take `test` (or `it`) from `node:test` instead of {@link TEST_HELPER}, so their
 * tests would run without a time limit.
 *
 * @param files test file path -> its text.
 */
export function testsWithoutTimeLimit(files: ReadonlyMap<string, string>): string[] {
  const wrong: string[] = [];
  const nodeTestImport = /^import\s*\{([^}]*)\}\s*from\s*["']node:test["']/gm;
  for (const [path, text] of files) {
    if (path === TEST_HELPER) continue;
    for (const m of text.matchAll(nodeTestImport)) {
      const names = m[1].split(",").map((n) =>
        n.trim().split(/\s+as\s+/)[0].replace(/^type\s+/, "")
      );
      if (names.includes("test") || names.includes("it")) {
        wrong.push(`${path}: takes test from node:test; import { test } from ${TEST_HELPER}`);
        break;
      }
    }
  }
  return wrong.sort();
}

/**
 * Files that take `after` from `node:test` instead of {@link TEST_HELPER}: under Deno, node:test's
 * `after` hooks do not run when `--filter` skips a test of the file, so what the file started (a
 * browser, a server, a child process) would outlive a filtered run.
 *
 * @param files test file path -> its text.
 */
export function cleanupsSkippedByFilter(files: ReadonlyMap<string, string>): string[] {
  const wrong: string[] = [];
  const nodeTestImport = /^import\s*\{([^}]*)\}\s*from\s*["']node:test["']/gm;
  for (const [path, text] of files) {
    if (path === TEST_HELPER) continue;
    for (const m of text.matchAll(nodeTestImport)) {
      const names = m[1].split(",").map((n) => n.trim().split(/\s+as\s+/)[0]);
      if (names.includes("after")) {
        wrong.push(
          `${path}: takes after from node:test, which a --filter skips; import { after } from ${TEST_HELPER}`,
        );
        break;
      }
    }
  }
  return wrong.sort();
}
