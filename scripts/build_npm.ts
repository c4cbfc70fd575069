/**
 * Builds the npm packages of the workspace, one per member: `npm/core` (`@sdk/core`), `npm/web`
 * (`@sdk/web`), `npm/mobilea` (`@sdk/mobilea`, which depends on `@yume-chan/adb`), `npm/mobileb`
 * (`@sdk/mobileb`, which needs nothing beyond `@sdk/core`: it talks to WebDriverAgent with
 * `fetch`), `npm/mobilec`, `npm/computer` and `npm/cli` (`@sdk/cli`, the `sdk` executable).
 *
 * For each workspace member, in workspace order (`@sdk/web` before the device platforms, whose
 * `testing` entries import `@sdk/web/testing`; the platforms before `@sdk/cli`, whose command line
 * loads them), TypeScript's compiler (5.9, from the npm registry, installed once
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

import { existsSync } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  BINS,
  BuildError,
  type BuildNpmOptions,
  type BuiltPackage,
  type DenoConfig,
  type Member,
  type NpmExportConditions,
  type NpmPackageJson,
  RUNTIME_PEER_DEPENDENCIES,
} from "./npm_build/config.ts";
import {
  checkExports,
  classifyDependencies,
  descriptionOf,
  nodeEngineOf,
  nonEmpty,
  readmeFor,
} from "./npm_build/package_json.ts";
import {
  DIAGNOSTIC_ERROR,
  findSpecifiers,
  loadTypeScript,
  type TsApi,
  UNTYPED_MODULE,
} from "./npm_build/typescript.ts";
import {
  ensureNodeModules,
  isBuiltin,
  isRelative,
  moduleSummary,
  outDirOf,
  readJson,
  readMembers,
  rel,
  withoutTsExtension,
} from "./npm_build/workspace.ts";

export {
  BuildError,
  type BuildNpmOptions,
  type BuiltPackage,
  type NpmExportConditions,
  type NpmPackageJson,
  TYPESCRIPT_VERSION,
} from "./npm_build/config.ts";

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
    lib: [
      "lib.es2022.d.ts",
      // findLast and findLastIndex (the phones' element trees), in every Node the packages declare.
      "lib.es2023.array.d.ts",
      "lib.esnext.disposable.d.ts",
      "lib.dom.d.ts",
      "lib.dom.iterable.d.ts",
    ],
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
  const built = new Map<string, BuiltPackage>();
  for (const member of members) {
    built.set(member.name, await buildMember(ts, root, member, imports, built, log));
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
