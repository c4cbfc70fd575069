/**
 * The npm build's view of the workspace: reading JSON and the members' deno.json files, running
 * commands, telling specifiers apart (npm:, bare, relative, built-in), output paths, and the
 * summary of an entry module's documentation.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as fs from "node:fs/promises";
import { builtinModules } from "node:module";
import * as path from "node:path";
import process from "node:process";
import { BuildError, type DenoConfig, type Member } from "./config.ts";

export async function readJson<T>(file: string): Promise<T> {
  try {
    return JSON.parse(await fs.readFile(file, "utf8")) as T;
  } catch (error) {
    throw new BuildError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

export function rel(root: string, file: string): string {
  return path.relative(root, file) || ".";
}

/** Runs a command to completion; its output goes to this process's stderr. */
export function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] });
  if (result.error) {
    throw new BuildError(`Cannot run ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new BuildError(`${command} ${args.join(" ")} exited with ${result.status} in ${cwd}`);
  }
}

/** Parses `npm:name@range/subpath`; `undefined` for other specifiers. */
export function parseNpmSpecifier(specifier: string): { name: string; range: string } | undefined {
  const match = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)(?:@([^/]+))?/.exec(specifier);
  if (!match) return undefined;
  return { name: match[1], range: match[2] ?? "" };
}

/** The package name of a bare specifier: `openai/x` -> `openai`, `@sdk/core/testing` -> `@sdk/core`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

export function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]);
}

export function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/");
}

/** `./report/mod.ts` -> `./report/mod` (the output path without extension). */
export function withoutTsExtension(target: string, member: Member): string {
  if (!/\.tsx?$/.test(target) || target.endsWith(".d.ts")) {
    throw new BuildError(
      `Cannot build ${member.name}: export target "${target}" is not a .ts file`,
    );
  }
  return target.replace(/\.tsx?$/, "");
}

/** `npm/<member dir name>`, e.g. `npm/core`. */
export function outDirOf(root: string, member: Member): string {
  return path.join(root, "npm", path.basename(member.dir));
}

export async function readMembers(root: string, config: DenoConfig): Promise<Member[]> {
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
export function ensureNodeModules(root: string, imports: Record<string, string>): void {
  const missing = Object.values(imports)
    .map(parseNpmSpecifier)
    .filter((npm) => npm && !existsSync(path.join(root, "node_modules", npm.name, "package.json")));
  if (missing.length > 0) run(process.execPath, ["install", "--quiet"], root);
}

/** The first paragraph of the entry module's `@module` documentation, as plain text. */
export async function moduleSummary(entry: string): Promise<string> {
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
