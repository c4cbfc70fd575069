/**
 * Builds the npm packages of the workspace: `npm/core` (`@sdk/core`), `npm/web` (`@sdk/web`),
 * `npm/mobilea` (`@sdk/mobilea`, which depends on `@yume-chan/adb`) and `npm/mobileb`
 * (`@sdk/mobileb`, which needs nothing beyond `@sdk/core`: it talks to WebDriverAgent with
 * `fetch`).
 *
 * For each workspace member, in workspace order (`@sdk/web` before the device platforms, whose
 * `testing` entries import `@sdk/web/testing`), TypeScript's compiler (5.9, from the npm registry, installed once
 * into `npm/.tools`) type-checks the files reachable from the member's `deno.json` exports and
 * emits ES2022 ESM JavaScript plus `.d.ts` files.
 * `rewriteRelativeImportExtensions` turns `./x.ts` imports into `./x.js` in the JavaScript; the
 * same rewrite is applied to the declarations, so TypeScript versions before 5.7 read them too.
 * Bare specifiers stay bare: `@sdk/core` inside `@sdk/web` resolves, while type-checking, to the
 * `@sdk/core` package built just before, and in the output becomes a dependency. The
 * `package.json` of each package is derived from the member's `deno.json` (name, version,
 * exports) and from the bare imports the emitted files actually contain, with versions from the
 * root import map. Its `engines.node` is the strictest of what the output needs and what its
 * dependencies declare (see `node_engines.ts`), so npm never warns EBADENGINE on a declared Node.
 *
 * Run it with `deno task build:npm`. It fails (exit code 1) on any type error, on an import that
 * leaves its package by a relative path, on a bare import missing from the import map, on a
 * dependency `engines.node` range other than `>=X.Y.Z`, and when the npm `exports` keys differ from
 * the `deno.json` ones.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as fs from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { type DeclaredNodeEngine, NodeEngineError, strictestNodeEngine } from "./node_engines.ts";

/** Version of TypeScript that compiles the packages (5.9 line; not TypeScript 7). */
export const TYPESCRIPT_VERSION = "5.9.3";
/**
 * Major version of `@types/node`, for the `node:` imports: the lowest Node the packages declare
 * (22: `fs.promises.glob` of the command line is typed from it on).
 */
const TYPES_NODE_RANGE = "22";
/**
 * The Node versions the emitted code itself needs (ES2022 and `Symbol.asyncDispose`). A package
 * declares the strictest of this and its dependencies' `engines.node`.
 */
const OWN_NODE_ENGINE = ">=20";

/**
 * Packages that stay optional for users: native code that may fail to install on some platforms,
 * loaded lazily by core, which falls back to pure-JavaScript code without it.
 */
const OPTIONAL_DEPENDENCIES: ReadonlySet<string> = new Set(["sharp"]);
/**
 * Packages the user brings, each an optional peer: the browser drivers (the one they drive),
 * `@sdk/computer`, Playwright Test for `@sdk/web/playwright-test`, and `@sdk/web` for the device
 * platforms' `testing` entries (the simulator's fronts run on its virtual phone).
 */
const OPTIONAL_PEER_DEPENDENCIES: ReadonlySet<string> = new Set([
  "playwright-core",
  "puppeteer-core",
  "@sdk/computer",
  "@playwright/test",
  "@sdk/web",
]);

/**
 * Optional peers a package loads at run time by a name no import shows (so that neither Deno nor
 * a bundler resolves them): member name -> package -> version range. `@sdk/computer` loads nut-js
 * in its input host process.
 */
const RUNTIME_PEER_DEPENDENCIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "@sdk/computer": { "@nut-tree-fork/nut-js": "^4.2.6" },
};

/**
 * Sibling packages a package loads at run time by a name no import shows, each an optional peer
 * at its version in the workspace: member name -> sibling names. `sdk run` of `@sdk/web` runs the
 * device platforms' scripts when they are installed, and loads them so because their `testing`
 * entries import `@sdk/web/testing` (Deno's publish refuses packages that import each other).
 */
const RUNTIME_PEER_SIBLINGS: Readonly<Record<string, readonly string[]>> = {
  "@sdk/web": ["@sdk/mobilea", "@sdk/mobileb", "@sdk/mobilec"],
};

/**
 * Executables of a package: member name -> bin name -> source file relative to the member. Each
 * is compiled as an extra entry, gets a `#!/usr/bin/env node` line and a `bin` entry.
 */
const BINS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "@sdk/web": { sdk: "cli/bin.ts" },
};

/** Raised for every condition that must stop the build; the message says what to fix. */
export class BuildError extends Error {
  /** @param message what failed and how to fix it. */
  constructor(message: string) {
    super(message);
    this.name = "BuildError";
  }
}

/** The `exports` of a package.json entry point: types first, as TypeScript requires. */
export interface NpmExportConditions {
  /** The `.d.ts` file. */
  types: string;
  /** The ESM file for `import`. */
  import: string;
  /** The same ESM file for every other condition. */
  default: string;
}

/** The package.json the build writes. */
export interface NpmPackageJson {
  /** Package name, from the member's `deno.json`. */
  name: string;
  /** Version, from the member's `deno.json`. */
  version: string;
  /** First sentence of the entry module's documentation. */
  description: string;
  /** Always `"MIT"`. */
  license: string;
  /** Always `"module"`: the output is ESM only. */
  type: "module";
  /** The main entry's JavaScript, for tools that ignore `exports`. */
  main: string;
  /** The main entry's declarations, for tools that ignore `exports`. */
  types: string;
  /** One entry per `deno.json` export, same keys. */
  exports: Record<string, NpmExportConditions>;
  /**
   * The strictest of the Node versions the output itself needs and the `engines.node` of the
   * dependencies and optional dependencies (the versions of `deno.lock`). Optional peers are
   * left out: the user picks one, and npm checks its engines on its own.
   */
  engines: { node: string };
  /** Packages imported by the emitted files. */
  dependencies?: Record<string, string>;
  /** Packages loaded lazily that may fail to install ({@link OPTIONAL_DEPENDENCIES}). */
  optionalDependencies?: Record<string, string>;
  /** Packages the user brings ({@link OPTIONAL_PEER_DEPENDENCIES}). */
  peerDependencies?: Record<string, string>;
  /** Marks every peer as optional. */
  peerDependenciesMeta?: Record<string, { optional: boolean }>;
  /** Executables ({@link BINS}): bin name -> emitted JavaScript file. */
  bin?: Record<string, string>;
}

/** What one member's build produced. */
export interface BuiltPackage {
  /** Package name, e.g. `"@sdk/core"`. */
  name: string;
  /** Package version. */
  version: string;
  /** The member's directory, e.g. `/repo/core`. */
  memberDir: string;
  /** The package's output directory, e.g. `/repo/npm/core`. */
  outDir: string;
  /** The package.json written. */
  packageJson: NpmPackageJson;
  /** Number of `.js` files emitted. */
  jsFiles: number;
  /** Number of `.d.ts` files emitted. */
  dtsFiles: number;
}

/** Options of {@link buildNpm}. */
export interface BuildNpmOptions {
  /** Repository root (where the workspace `deno.json` is). Default: the parent of `scripts/`. */
  root?: string;
  /** Called with each line of progress. Default: `console.log`. */
  log?: (line: string) => void;
}

interface DenoConfig {
  name?: string;
  version?: string;
  exports?: string | Record<string, string>;
  workspace?: string[];
  imports?: Record<string, string>;
}

interface Member {
  dir: string;
  name: string;
  version: string;
  /** Export key -> path relative to the member, e.g. `"./report"` -> `"./report/mod.ts"`. */
  exports: Record<string, string>;
}

// The subset of TypeScript's compiler API this script uses. TypeScript is loaded at run time from
// npm/.tools, so `deno check` needs neither the package nor its 10 MB of declarations.
interface TsDiagnostic {
  category: number;
  code: number;
  messageText: string | { messageText: string };
}
interface TsSourceFile {
  fileName: string;
  isDeclarationFile: boolean;
}
interface TsNode {
  kind: number;
  end: number;
  text?: string;
  moduleSpecifier?: TsNode;
  expression?: TsNode;
  arguments?: readonly TsNode[];
  argument?: TsNode;
  literal?: TsNode;
  getStart(file: TsNode): number;
}
interface TsCompilerHost {
  getCurrentDirectory(): string;
  getCanonicalFileName(fileName: string): string;
  getNewLine(): string;
}
interface TsProgram {
  getSourceFiles(): readonly TsSourceFile[];
  emit(
    target?: undefined,
    writeFile?: (fileName: string, text: string) => void,
  ): { diagnostics: readonly TsDiagnostic[]; emitSkipped: boolean };
}
interface TsApi {
  version: string;
  ScriptTarget: { ES2022: number };
  ModuleKind: { ESNext: number };
  ModuleResolutionKind: { Bundler: number };
  createCompilerHost(options: Record<string, unknown>): TsCompilerHost;
  createProgram(
    rootNames: readonly string[],
    options: Record<string, unknown>,
    host: TsCompilerHost,
  ): TsProgram;
  getPreEmitDiagnostics(program: TsProgram): readonly TsDiagnostic[];
  formatDiagnosticsWithColorAndContext(
    diagnostics: readonly TsDiagnostic[],
    host: TsCompilerHost,
  ): string;
  SyntaxKind: Record<
    | "StringLiteral"
    | "ImportDeclaration"
    | "ExportDeclaration"
    | "CallExpression"
    | "ImportKeyword"
    | "ImportType"
    | "LiteralType"
    | "ExternalModuleReference",
    number
  >;
  createSourceFile(fileName: string, text: string, target: number, setParents: boolean): TsNode;
  forEachChild(node: TsNode, visit: (child: TsNode) => void): void;
}

/** A module specifier found in a file: its text and where it sits, quotes excluded. */
interface SpecifierRef {
  fileName: string;
  pos: number;
  end: number;
}

const DIAGNOSTIC_ERROR = 1;
/**
 * "Could not find a declaration file for module": an npm package without types. Deno types such
 * an import as `any` without a word, and core's lazily loaded codecs rely on that, so the build
 * does the same.
 */
const UNTYPED_MODULE = 7016;

async function readJson<T>(file: string): Promise<T> {
  try {
    return JSON.parse(await fs.readFile(file, "utf8")) as T;
  } catch (error) {
    throw new BuildError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

function rel(root: string, file: string): string {
  return path.relative(root, file) || ".";
}

/** Runs a command to completion; its output goes to this process's stderr. */
function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] });
  if (result.error) {
    throw new BuildError(`Cannot run ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new BuildError(`${command} ${args.join(" ")} exited with ${result.status} in ${cwd}`);
  }
}

/**
 * Installs TypeScript and `@types/node` into `npm/.tools` unless the right TypeScript is there.
 * The folder gets its own package.json first: without one npm would pick the nearest folder with
 * a `node_modules` (the workspace root) and write a package.json there, which Deno would read.
 */
async function loadTypeScript(root: string, log: (line: string) => void): Promise<TsApi> {
  const tools = path.join(root, "npm", ".tools");
  const tsPackage = path.join(tools, "node_modules", "typescript", "package.json");
  const versionOf = async (file: string) =>
    existsSync(file) ? (await readJson<{ version: string }>(file)).version : undefined;
  const installed = await versionOf(tsPackage);
  const typesNode = await versionOf(path.join(tools, "node_modules/@types/node/package.json"));
  if (installed !== TYPESCRIPT_VERSION || !typesNode?.startsWith(`${TYPES_NODE_RANGE}.`)) {
    log(`installing typescript@${TYPESCRIPT_VERSION} into ${rel(root, tools)}`);
    await fs.mkdir(tools, { recursive: true });
    await fs.writeFile(
      path.join(tools, "package.json"),
      JSON.stringify({ name: "sdk-build-tools", private: true }, null, 2) + "\n",
    );
    run("npm", [
      "install",
      "--prefix",
      tools,
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--save-exact",
      `typescript@${TYPESCRIPT_VERSION}`,
      `@types/node@${TYPES_NODE_RANGE}`,
    ], tools);
  }
  const require = createRequire(import.meta.url);
  const ts = require(path.join(tools, "node_modules", "typescript")) as TsApi;
  if (ts.version !== TYPESCRIPT_VERSION) {
    throw new BuildError(
      `Cannot build with TypeScript ${ts.version}: ${TYPESCRIPT_VERSION} is required`,
    );
  }
  return ts;
}

/** Parses `npm:name@range/subpath`; `undefined` for other specifiers. */
function parseNpmSpecifier(specifier: string): { name: string; range: string } | undefined {
  const match = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)(?:@([^/]+))?/.exec(specifier);
  if (!match) return undefined;
  return { name: match[1], range: match[2] ?? "" };
}

/** The package name of a bare specifier: `openai/x` -> `openai`, `@sdk/core/testing` -> `@sdk/core`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]);
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/");
}

/**
 * Every module specifier of a file: static imports and exports, `import()` calls and `import("x")`
 * types. Read from the syntax tree, since a plain scan is misled by regular expressions holding
 * backticks.
 */
function findSpecifiers(ts: TsApi, fileName: string, text: string): SpecifierRef[] {
  const k = ts.SyntaxKind;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const refs: SpecifierRef[] = [];
  const add = (literal: TsNode | undefined) => {
    if (literal?.kind === k.StringLiteral && literal.text !== undefined) {
      refs.push({ fileName: literal.text, pos: literal.getStart(file) + 1, end: literal.end - 1 });
    }
  };
  const visit = (node: TsNode): void => {
    if (node.kind === k.ImportDeclaration || node.kind === k.ExportDeclaration) {
      add(node.moduleSpecifier);
    } else if (node.kind === k.CallExpression && node.expression?.kind === k.ImportKeyword) {
      add(node.arguments?.[0]);
    } else if (node.kind === k.ImportType && node.argument?.kind === k.LiteralType) {
      add(node.argument.literal);
    } else if (node.kind === k.ExternalModuleReference) {
      add(node.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return refs;
}

/** `./report/mod.ts` -> `./report/mod` (the output path without extension). */
function withoutTsExtension(target: string, member: Member): string {
  if (!/\.tsx?$/.test(target) || target.endsWith(".d.ts")) {
    throw new BuildError(
      `Cannot build ${member.name}: export target "${target}" is not a .ts file`,
    );
  }
  return target.replace(/\.tsx?$/, "");
}

/** `npm/<member dir name>`, e.g. `npm/core`. */
function outDirOf(root: string, member: Member): string {
  return path.join(root, "npm", path.basename(member.dir));
}

async function readMembers(root: string, config: DenoConfig): Promise<Member[]> {
  const members: Member[] = [];
  for (const entry of config.workspace ?? []) {
    const dir = path.resolve(root, entry);
    const file = path.join(dir, "deno.json");
    const member = await readJson<DenoConfig>(file);
    if (!member.name || !member.version || !member.exports) {
      throw new BuildError(
        `Cannot build ${rel(root, file)}: it needs "name", "version" and "exports"`,
      );
    }
    const exports = typeof member.exports === "string" ? { ".": member.exports } : member.exports;
    members.push({ dir, name: member.name, version: member.version, exports });
  }
  if (members.length === 0) throw new BuildError("Cannot build: the workspace lists no members");
  return members;
}

/**
 * Makes sure the npm packages of the import map are in the root `node_modules`, where TypeScript
 * looks for their types. `deno install` creates them (the workspace uses `nodeModulesDir: auto`).
 */
function ensureNodeModules(root: string, imports: Record<string, string>): void {
  const missing = Object.values(imports)
    .map(parseNpmSpecifier)
    .filter((npm) => npm && !existsSync(path.join(root, "node_modules", npm.name, "package.json")));
  if (missing.length > 0) run(process.execPath, ["install", "--quiet"], root);
}

/** The first paragraph of the entry module's `@module` documentation, as plain text. */
async function moduleSummary(entry: string): Promise<string> {
  const text = await fs.readFile(entry, "utf8");
  const doc = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? "";
  const lines = doc.split("\n").map((line) => line.replace(/^\s*\* ?/, ""));
  const paragraph: string[] = [];
  for (const line of lines) {
    if (line.trim() === "" || line.startsWith("@")) {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  return paragraph.join(" ").replace(/\{@link\s+([^}\s]+)[^}]*\}/g, "`$1`");
}

interface Dependencies {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

/** Turns the bare specifiers found in the output into package.json dependency fields. */
function classifyDependencies(
  member: Member,
  specifiers: Map<string, string>,
  imports: Record<string, string>,
  built: ReadonlyMap<string, BuiltPackage>,
): Dependencies {
  const result: Dependencies = {
    dependencies: {},
    optionalDependencies: {},
    peerDependencies: {},
  };
  const problems: string[] = [];
  for (const [specifier, file] of [...specifiers].sort(([a], [b]) => a.localeCompare(b))) {
    const name = packageNameOf(specifier);
    if (name === member.name) {
      problems.push(`${file} imports its own package "${specifier}": use a relative import`);
      continue;
    }
    const sibling = built.get(name);
    if (sibling) {
      const key = "." + specifier.slice(name.length);
      if (!(key in sibling.packageJson.exports)) {
        problems.push(`${file} imports "${specifier}", which ${name} does not export`);
      }
      if (OPTIONAL_PEER_DEPENDENCIES.has(name)) result.peerDependencies[name] = sibling.version;
      else result.dependencies[name] = sibling.version;
      continue;
    }
    const mapped = imports[name] ?? imports[`${name}/`];
    const npm = mapped ? parseNpmSpecifier(mapped) : undefined;
    if (!npm || !npm.range) {
      problems.push(
        `${file} imports "${specifier}": the root import map needs "${name}": "npm:${name}@<range>"`,
      );
      continue;
    }
    // An import-map alias ("x": "npm:y@1") stays an alias in npm's syntax.
    const version = npm.name === name ? npm.range : `npm:${npm.name}@${npm.range}`;
    if (OPTIONAL_PEER_DEPENDENCIES.has(name)) result.peerDependencies[name] = version;
    else if (OPTIONAL_DEPENDENCIES.has(name)) result.optionalDependencies[name] = version;
    else result.dependencies[name] = version;
  }
  if (problems.length > 0) {
    throw new BuildError(`Cannot build ${member.name}:\n  ${problems.join("\n  ")}`);
  }
  return result;
}

/**
 * The `engines.node` of a member: the strictest of {@link OWN_NODE_ENGINE} and the engines of its
 * dependencies and optional dependencies. A sibling's come from its built package.json; an npm
 * package's from its package.json in the root `node_modules`, the version `deno.lock` pins and the
 * build type-checks against.
 */
async function nodeEngineOf(
  root: string,
  member: Member,
  deps: Dependencies,
  imports: Record<string, string>,
  built: ReadonlyMap<string, BuiltPackage>,
): Promise<string> {
  const declared: DeclaredNodeEngine[] = [];
  for (const name of Object.keys({ ...deps.dependencies, ...deps.optionalDependencies })) {
    const sibling = built.get(name);
    if (sibling) {
      declared.push({ name: sibling.name, range: sibling.packageJson.engines.node });
      continue;
    }
    const mapped = imports[name] ?? imports[`${name}/`];
    const npmName = (mapped && parseNpmSpecifier(mapped)?.name) ?? name;
    const pkg = await readJson<{ version?: string; engines?: { node?: string } }>(
      path.join(root, "node_modules", npmName, "package.json"),
    );
    declared.push({ name: `${npmName}@${pkg.version}`, range: pkg.engines?.node });
  }
  try {
    return strictestNodeEngine(OWN_NODE_ENGINE, declared);
  } catch (error) {
    if (error instanceof NodeEngineError) {
      throw new BuildError(`Cannot build ${member.name}: ${error.message}`);
    }
    throw error;
  }
}

/** `">=22.0.0"` -> `"22"`, `">=22.12.0"` -> `"22.12.0"`: the floor as a reader would say it. */
function nodeVersionText(engine: string): string {
  const version = engine.replace(/^>=/, "");
  return version.replace(/\.0\.0$/, "");
}

/** `"\`@sdk/web\`: drive a page. More."` -> `"Drive a page."`: the first sentence, no name. */
function descriptionOf(name: string, summary: string): string {
  const sentence = summary.split(/(?<=\.)\s/)[0].replace(`\`${name}\`: `, "");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function nonEmpty(record: Record<string, string>): Record<string, string> | undefined {
  return Object.keys(record).length > 0 ? record : undefined;
}

/** Fails unless the npm exports keys equal the deno.json ones and every target was emitted. */
function checkExports(member: Member, pkg: NpmPackageJson, outDir: string): void {
  const denoKeys = Object.keys(member.exports).sort();
  const npmKeys = Object.keys(pkg.exports).sort();
  if (JSON.stringify(denoKeys) !== JSON.stringify(npmKeys)) {
    throw new BuildError(
      `Cannot publish ${member.name}: npm exports ${JSON.stringify(npmKeys)} differ from ` +
        `deno.json exports ${JSON.stringify(denoKeys)}`,
    );
  }
  for (const [key, conditions] of Object.entries(pkg.exports)) {
    for (const target of new Set(Object.values(conditions))) {
      if (!existsSync(path.join(outDir, target))) {
        throw new BuildError(
          `Cannot publish ${member.name}: export "${key}" -> ${target} was not emitted`,
        );
      }
    }
  }
}

function readmeFor(member: Member, summary: string, pkg: NpmPackageJson): string {
  const entries = Object.keys(member.exports)
    .map((key) => `- \`${member.name}${key.slice(1)}\``)
    .join("\n");
  const peers = Object.keys(pkg.peerDependencies ?? {});
  const install = `npm install ${member.name}`;
  // Peers are of several kinds (browser drivers, platforms, @sdk/web for the phones' testing
  // entries), so the note names them without saying what each is for.
  const peerNote = peers.length > 0
    ? `\nOptional peer dependencies, to install beside it when you use what needs them: ${
      peers.map((p) => `\`${p}\``).join(", ")
    }.\n`
    : "";
  const nodeVersion = nodeVersionText(pkg.engines.node);
  return `# ${member.name}

${summary}

## Install

\`\`\`sh
${install}
\`\`\`
${peerNote}
ES modules (ES2022) with TypeScript declarations, for Node.js ${nodeVersion} or newer.

## Entry points

${entries}

This package is built from the SDK's Deno workspace by \`deno task build:npm\`.

## License

MIT
`;
}

/**
 * Compiles one member into `npm/<member dir name>`.
 *
 * @throws {BuildError} on type errors, relative imports that leave the member, test files reached
 * from an entry point, bare imports missing from the import map, or mismatching exports.
 */
async function buildMember(
  ts: TsApi,
  root: string,
  member: Member,
  imports: Record<string, string>,
  built: ReadonlyMap<string, BuiltPackage>,
  versions: ReadonlyMap<string, string>,
  log: (line: string) => void,
): Promise<BuiltPackage> {
  const outDir = outDirOf(root, member);
  const bins = BINS[member.name] ?? {};
  const entries = [...Object.values(member.exports), ...Object.values(bins)]
    .map((target) => path.join(member.dir, target));
  for (const entry of entries) {
    if (!existsSync(entry)) {
      throw new BuildError(
        `Cannot build ${member.name}: export target ${rel(root, entry)} does not exist`,
      );
    }
  }

  // Members built before resolve to their emitted declarations, the way an npm consumer sees them.
  const paths: Record<string, string[]> = {};
  for (const sibling of built.values()) {
    for (const [key, conditions] of Object.entries(sibling.packageJson.exports)) {
      paths[sibling.name + key.slice(1)] = [path.join(sibling.outDir, conditions.types)];
    }
  }
  const options: Record<string, unknown> = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.esnext.disposable.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    rewriteRelativeImportExtensions: true,
    declaration: true,
    strict: true,
    skipLibCheck: true,
    rootDir: member.dir,
    outDir,
    paths,
    types: ["node"],
    typeRoots: [path.join(root, "npm", ".tools", "node_modules", "@types")],
    newLine: 1, // LF
  };
  const host = ts.createCompilerHost(options);
  const program = ts.createProgram(entries, options, host);

  const sources = program.getSourceFiles().filter((file) => !file.isDeclarationFile);
  const strays: string[] = [];
  for (const file of sources) {
    const fileName = path.resolve(file.fileName);
    if (!fileName.startsWith(member.dir + path.sep)) {
      const where = `${rel(root, member.dir)}/`;
      strays.push(`${rel(root, fileName)} is outside ${where}: import other packages by name`);
    } else if (/_test\.tsx?$/.test(fileName)) {
      strays.push(`${rel(root, fileName)} is a test file reached from an entry point`);
    }
  }
  if (strays.length > 0) {
    throw new BuildError(`Cannot build ${member.name}:\n  ${strays.join("\n  ")}`);
  }

  const allDiagnostics = ts.getPreEmitDiagnostics(program);
  const untyped = new Set(
    allDiagnostics.filter((d) => d.code === UNTYPED_MODULE).map((d) => {
      const text = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
      return /module '([^']+)'/.exec(text)?.[1] ?? "?";
    }),
  );
  const diagnostics = allDiagnostics.filter((d) => d.code !== UNTYPED_MODULE);
  if (diagnostics.some((d) => d.category === DIAGNOSTIC_ERROR)) {
    throw new BuildError(
      `Cannot build ${member.name}: TypeScript reports errors\n` +
        ts.formatDiagnosticsWithColorAndContext(diagnostics, host),
    );
  }

  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });
  const emitted = new Map<string, string>();
  const result = program.emit(undefined, (fileName, text) => emitted.set(fileName, text));
  if (result.emitSkipped || result.diagnostics.some((d) => d.category === DIAGNOSTIC_ERROR)) {
    throw new BuildError(
      `Cannot build ${member.name}: emit failed\n` +
        ts.formatDiagnosticsWithColorAndContext(result.diagnostics, host),
    );
  }

  const binFiles = new Set(
    Object.values(bins).map((target) =>
      path.resolve(outDir, target.replace(/^\.\//, "").replace(/\.ts$/, ".js"))
    ),
  );
  const bare = new Map<string, string>(); // specifier -> first file that imports it
  let jsFiles = 0;
  let dtsFiles = 0;
  for (const [fileName, original] of emitted) {
    let text = original;
    const isDts = fileName.endsWith(".d.ts");
    const found = findSpecifiers(ts, fileName, text);
    // Declarations keep `./x.ts`; rewrite from the end so earlier positions stay valid.
    for (const ref of [...found].sort((a, b) => b.pos - a.pos)) {
      if (isDts && isRelative(ref.fileName) && /\.tsx?$/.test(ref.fileName)) {
        const js = ref.fileName.replace(/\.tsx?$/, ".js");
        text = text.slice(0, ref.pos) + js + text.slice(ref.end);
      }
    }
    for (const ref of found) {
      if (isRelative(ref.fileName) || isBuiltin(ref.fileName)) continue;
      if (/^[a-z]+:/.test(ref.fileName)) {
        throw new BuildError(
          `Cannot build ${member.name}: ${rel(outDir, fileName)} imports "${ref.fileName}"; ` +
            "use a bare name from the root import map",
        );
      }
      if (!bare.has(ref.fileName)) {
        bare.set(ref.fileName, rel(root, fileName.replace(outDir, member.dir)));
      }
    }
    if (isDts) dtsFiles++;
    else if (fileName.endsWith(".js")) jsFiles++;
    if (binFiles.has(path.resolve(fileName))) text = `#!/usr/bin/env node\n${text}`;
    await fs.mkdir(path.dirname(fileName), { recursive: true });
    await fs.writeFile(fileName, text);
  }

  const deps = classifyDependencies(member, bare, imports, built);
  Object.assign(deps.peerDependencies, RUNTIME_PEER_DEPENDENCIES[member.name] ?? {});
  for (const name of RUNTIME_PEER_SIBLINGS[member.name] ?? []) {
    const version = versions.get(name);
    if (version === undefined) {
      throw new BuildError(`Cannot build ${member.name}: it loads ${name}, not a workspace member`);
    }
    deps.peerDependencies[name] = version;
  }
  const exportsField: Record<string, NpmExportConditions> = {};
  for (const [key, target] of Object.entries(member.exports)) {
    const base = withoutTsExtension(target, member);
    exportsField[key] = { types: `${base}.d.ts`, import: `${base}.js`, default: `${base}.js` };
  }
  const main = exportsField["."];
  const summary = await moduleSummary(path.join(member.dir, member.exports["."] ?? entries[0]));
  const peers = nonEmpty(deps.peerDependencies);
  const packageJson: NpmPackageJson = {
    name: member.name,
    version: member.version,
    description: descriptionOf(member.name, summary),
    license: "MIT",
    type: "module",
    main: main?.import ?? Object.values(exportsField)[0].import,
    types: main?.types ?? Object.values(exportsField)[0].types,
    exports: exportsField,
    engines: { node: await nodeEngineOf(root, member, deps, imports, built) },
    dependencies: nonEmpty(deps.dependencies),
    optionalDependencies: nonEmpty(deps.optionalDependencies),
    peerDependencies: peers,
    peerDependenciesMeta: peers
      ? Object.fromEntries(Object.keys(peers).map((name) => [name, { optional: true }]))
      : undefined,
    bin: Object.keys(bins).length
      ? Object.fromEntries(
        Object.entries(bins).map(([name, target]) => [name, `./${target.replace(/\.ts$/, ".js")}`]),
      )
      : undefined,
  };
  await fs.writeFile(
    path.join(outDir, "package.json"),
    JSON.stringify(packageJson, null, 2) + "\n",
  );
  // Check what was written, not the object: this is what npm will publish.
  checkExports(member, await readJson<NpmPackageJson>(path.join(outDir, "package.json")), outDir);

  const license = path.join(root, "LICENSE");
  if (!existsSync(license)) throw new BuildError(`Cannot build: ${license} is missing`);
  await fs.copyFile(license, path.join(outDir, "LICENSE"));
  await fs.writeFile(path.join(outDir, "README.md"), readmeFor(member, summary, packageJson));

  const depList = (field: Record<string, string> | undefined) =>
    Object.entries(field ?? {}).map(([n, v]) => `${n}@${v}`).join(", ") || "-";
  log(
    `built ${member.name}@${member.version} -> ${rel(root, outDir)}/ ` +
      `(${jsFiles} .js, ${dtsFiles} .d.ts)\n` +
      `  type check: ${sources.length} files, 0 errors` +
      (untyped.size > 0 ? ` (untyped, read as any as Deno does: ${[...untyped].join(", ")})` : "") +
      `\n  exports: ${Object.keys(exportsField).join(", ")}\n` +
      `  engines: node ${packageJson.engines.node}\n` +
      `  dependencies: ${depList(packageJson.dependencies)}\n` +
      `  optionalDependencies: ${depList(packageJson.optionalDependencies)}\n` +
      `  peerDependencies (optional): ${depList(packageJson.peerDependencies)}`,
  );
  return {
    name: member.name,
    version: member.version,
    memberDir: member.dir,
    outDir,
    packageJson,
    jsFiles,
    dtsFiles,
  };
}

/**
 * Builds every workspace member into `npm/<member dir name>`.
 *
 * @param options where the repository is and where progress goes.
 * @returns the packages built, in workspace order.
 * @throws {BuildError} when a member cannot be built (see the module documentation).
 *
 * @example Build from another script
 * ```ts ignore
 * import { buildNpm } from "./build_npm.ts";
 * const packages = await buildNpm();
 * console.log(packages.map((p) => p.outDir));
 * ```
 */
export async function buildNpm(options: BuildNpmOptions = {}): Promise<BuiltPackage[]> {
  const root = options.root ?? path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const log = options.log ?? console.log;
  const config = await readJson<DenoConfig>(path.join(root, "deno.json"));
  const imports = config.imports ?? {};
  const members = await readMembers(root, config);
  const ts = await loadTypeScript(root, log);
  ensureNodeModules(root, imports);
  // A failed build must not leave an older package behind for `npm pack` to pick up.
  for (const member of members) {
    await fs.rm(outDirOf(root, member), { recursive: true, force: true });
  }
  log(`typescript ${ts.version}: building ${members.map((m) => m.name).join(", ")}`);
  const versions = new Map(members.map((m) => [m.name, m.version]));
  const built = new Map<string, BuiltPackage>();
  for (const member of members) {
    built.set(member.name, await buildMember(ts, root, member, imports, built, versions, log));
  }
  return [...built.values()];
}

if (import.meta.main) {
  const started = performance.now();
  try {
    const packages = await buildNpm();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`build:npm: ${packages.length} packages in ${seconds} s`);
  } catch (error) {
    console.error(
      `build:npm failed: ${error instanceof BuildError ? error.message : (error as Error).stack}`,
    );
    process.exit(1);
  }
}
