/**
 * Checks the rules of the house on the real tree (`deno task check` runs it): reads every product
 * file of the workspace's members (what `deno publish` ships: each member's files minus its
 * `publish.exclude`), the import graph among them from `deno info --json`, and runs the rules of
 * `house_rules.ts` (no import circle, imports one way between packages and through package names,
 * core's layers, at most 600 lines per product file, also for `scripts/` and `extension/`, and
 * every test file taking `test` from `tests/helpers/test.ts`, which gives each test a time limit); then
 * `deno doc --lint` on every entry point of every member, so that the API pages JSR and editors
 * generate link every type a user meets.
 *
 * Prints each violation and exits 1 when there is any; prints one line per rule and exits 0
 * otherwise.
 *
 * @module
 */

import { readdir, readFile, writeFile } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  cleanupsSkippedByFilter,
  coreLayerViolations,
  globMatcher,
  importCircles,
  type ImportEdge,
  oversizedFiles,
  packageViolations,
  platformNamesInScripts,
  testsWithoutTimeLimit,
} from "./house_rules.ts";
import { PLATFORM_SECTION_KEYS } from "../core/device/platform_sections.ts";
import { deadExports } from "./dead_exports.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface MemberConfig {
  name: string;
  exports: Record<string, string>;
  publish?: { exclude?: string[] };
}

/** Files under `dir` (relative to the repository) whose names end with one of `extensions`. */
async function filesUnder(dir: string, extensions: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") found.push(...await filesUnder(path, extensions));
    } else if (extensions.some((ext) => entry.name.endsWith(ext))) found.push(path);
  }
  return found;
}

/** The workspace's members: folder -> deno.json. */
async function members(): Promise<Map<string, MemberConfig>> {
  const root = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8")) as {
    workspace: string[];
  };
  const found = new Map<string, MemberConfig>();
  for (const member of root.workspace) {
    const dir = member.replace(/^\.\//, "").replace(/\/$/, "");
    found.set(dir, JSON.parse(await readFile(join(ROOT, dir, "deno.json"), "utf8")));
  }
  return found;
}

/** The product TypeScript files of the members: what each one publishes. */
async function productFiles(all: Map<string, MemberConfig>): Promise<string[]> {
  const files: string[] = [];
  for (const [dir, config] of all) {
    const excluded = (config.publish?.exclude ?? []).map(globMatcher);
    for (const file of await filesUnder(dir, [".ts"])) {
      const inMember = file.slice(dir.length + 1);
      if (!excluded.some((matches) => matches(inMember))) files.push(file);
    }
  }
  return files.sort();
}

interface DenoInfoModule {
  specifier: string;
  dependencies?: {
    specifier: string;
    code?: { specifier?: string };
    type?: { specifier?: string };
  }[];
}

/** The import graph among `files`, read by one `deno info --json` over an entry importing them all. */
async function importGraph(files: readonly string[]): Promise<Map<string, ImportEdge[]>> {
  const dir = await mkdtemp(join(tmpdir(), "sdk-house-"));
  try {
    const entry = join(dir, "all.ts");
    await writeFile(
      entry,
      files.map((f) => `import ${JSON.stringify(pathToFileURL(join(ROOT, f)).href)};\n`).join(""),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) {
      throw new Error(`deno info failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    const { modules } = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: DenoInfoModule[];
    };
    const inRepo = (specifier: string | undefined) => {
      if (!specifier?.startsWith("file://")) return undefined;
      const path = relative(ROOT, fileURLToPath(specifier)).split("\\").join("/");
      return path.startsWith("..") ? undefined : path;
    };
    const product = new Set(files);
    const graph = new Map<string, ImportEdge[]>();
    for (const m of modules) {
      const from = inRepo(m.specifier);
      if (from === undefined || !product.has(from)) continue;
      const edges: ImportEdge[] = [];
      for (const d of m.dependencies ?? []) {
        for (const target of new Set([d.code?.specifier, d.type?.specifier])) {
          const to = inRepo(target);
          if (to !== undefined) edges.push({ to, specifier: d.specifier });
        }
      }
      graph.set(from, edges);
    }
    return graph;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `deno doc --lint` over every entry point of every member: its output, empty when clean. */
async function docLint(all: Map<string, MemberConfig>): Promise<string> {
  const entries = [...all].flatMap(([dir, config]) =>
    Object.values(config.exports).map((target) => join(dir, target))
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...entries],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (out.code === 0) return "";
  // Deno warns of types the drivers' declarations reference and do not ship (electron, node):
  // not ours, and not what failed.
  const lines = new TextDecoder().decode(out.stderr).split("\n");
  return lines.filter((line, i) =>
    !line.startsWith("Warning Failed resolving types") &&
    !(lines[i - 1]?.startsWith("Warning Failed resolving types") && /^\s+at /.test(line))
  ).join("\n").trim();
}

const all = await members();
const product = await productFiles(all);
const graph = await importGraph(product);
const texts = new Map<string, string>();
for (const file of [...product, ...await filesUnder("scripts", [".ts"])]) {
  if (!file.endsWith("_test.ts")) texts.set(file, await readFile(join(ROOT, file), "utf8"));
}
for (const file of await filesUnder("extension", [".js"])) {
  texts.set(file, await readFile(join(ROOT, file), "utf8"));
}

// Every file that may declare tests: the members' and the scripts' test files, and tests/.
const testTexts = new Map<string, string>();
for (const dir of [...all.keys(), "scripts", "tests"]) {
  for (const file of await filesUnder(dir, [".ts"])) {
    if (dir === "tests" || file.endsWith("_test.ts") || file.includes("/_")) {
      testTexts.set(file, await readFile(join(ROOT, file), "utf8"));
    }
  }
}

const results: [string, string[]][] = [
  [`no import circle (${graph.size} product files)`, importCircles(graph)],
  ["imports between packages run one way, through package names", packageViolations(graph)],
  ["core's lower layers import no upper one", coreLayerViolations(graph)],
  [`product files of at most 600 lines (${texts.size} files)`, oversizedFiles(texts)],
  [
    "core/script names no platform: the platforms hand in their sections and verbs",
    platformNamesInScripts(texts, PLATFORM_SECTION_KEYS),
  ],
  [
    "every export of a product file is used outside it (by a product file or a test)",
    deadExports(
      graph,
      texts,
      new Set(
        [...all].flatMap(([dir, config]) =>
          Object.values(config.exports).map((t) => `${dir}/${t.replace(/^\.\//, "")}`)
        ),
      ),
      testTexts,
    ),
  ],
  [
    `every test has a time limit (${testTexts.size} test files checked)`,
    testsWithoutTimeLimit(testTexts),
  ],
  [
    `every test file's cleanup runs under --filter (${testTexts.size} files checked)`,
    cleanupsSkippedByFilter(testTexts),
  ],
];
const lint = await docLint(all);
let failed = false;
for (const [rule, wrong] of results) {
  if (wrong.length === 0) console.log(`ok: ${rule}`);
  else {
    failed = true;
    console.error(`FAILED: ${rule}:\n${wrong.map((w) => `  ${w}`).join("\n")}`);
  }
}
if (lint) {
  failed = true;
  console.error(`FAILED: deno doc --lint on the entry points:\n${lint}`);
} else console.log("ok: deno doc --lint on every entry point");
process.exitCode = failed ? 1 : 0;
