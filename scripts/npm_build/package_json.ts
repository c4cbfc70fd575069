/**
 * The package.json and README of a built member: its dependency fields from the bare imports its
 * output holds, its `engines.node` (the strictest of its own and its dependencies'), its
 * description, and the check that npm's exports equal deno.json's.
 *
 * @module
 */

import { existsSync } from "node:fs";
import * as path from "node:path";
import { type DeclaredNodeEngine, NodeEngineError, strictestNodeEngine } from "../node_engines.ts";
import {
  BuildError,
  type BuiltPackage,
  type Member,
  MEMBER_OPTIONAL_PEERS,
  type NpmPackageJson,
  OPTIONAL_DEPENDENCIES,
  OPTIONAL_PEER_DEPENDENCIES,
  OWN_NODE_ENGINE,
} from "./config.ts";
import { packageNameOf, parseNpmSpecifier, readJson } from "./workspace.ts";

export interface Dependencies {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

/** Turns the bare specifiers found in the output into package.json dependency fields. */
export function classifyDependencies(
  member: Member,
  specifiers: Map<string, string>,
  imports: Record<string, string>,
  built: ReadonlyMap<string, BuiltPackage>,
): Dependencies {
  const optionalPeer = (name: string) =>
    OPTIONAL_PEER_DEPENDENCIES.has(name) ||
    (MEMBER_OPTIONAL_PEERS[member.name]?.has(name) ?? false);
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
      if (optionalPeer(name)) result.peerDependencies[name] = sibling.version;
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
    if (optionalPeer(name)) result.peerDependencies[name] = version;
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
export async function nodeEngineOf(
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
export function nodeVersionText(engine: string): string {
  const version = engine.replace(/^>=/, "");
  return version.replace(/\.0\.0$/, "");
}

/** `"\`@sdk/web\`: drive a page. More."` -> `"Drive a page."`: the first sentence, no name. */
export function descriptionOf(name: string, summary: string): string {
  const sentence = summary.split(/(?<=\.)\s/)[0].replace(`\`${name}\`: `, "");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

export function nonEmpty(record: Record<string, string>): Record<string, string> | undefined {
  return Object.keys(record).length > 0 ? record : undefined;
}

/** Fails unless the npm exports keys equal the deno.json ones and every target was emitted. */
export function checkExports(member: Member, pkg: NpmPackageJson, outDir: string): void {
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

export function readmeFor(member: Member, summary: string, pkg: NpmPackageJson): string {
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
