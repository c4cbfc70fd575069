/**
 * The TypeScript compiler of the npm build: installed into `npm/.tools` at the pinned version and
 * loaded at run time (so `deno check` needs neither the package nor its declarations), through
 * the small subset of its API typed here; and the module specifiers of an emitted file, read from
 * its syntax tree.
 *
 * @module
 */

import * as fs from "node:fs/promises";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { BuildError, TYPES_NODE_RANGE, TYPESCRIPT_VERSION } from "./config.ts";
import { readJson, rel, run } from "./workspace.ts";

// The subset of TypeScript's compiler API this script uses. TypeScript is loaded at run time from
// npm/.tools, so `deno check` needs neither the package nor its 10 MB of declarations.
export interface TsDiagnostic {
  category: number;
  code: number;
  messageText: string | { messageText: string };
}

export interface TsSourceFile {
  fileName: string;
  isDeclarationFile: boolean;
}

export interface TsNode {
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

export interface TsCompilerHost {
  getCurrentDirectory(): string;
  getCanonicalFileName(fileName: string): string;
  getNewLine(): string;
}

export interface TsProgram {
  getSourceFiles(): readonly TsSourceFile[];
  emit(
    target?: undefined,
    writeFile?: (fileName: string, text: string) => void,
  ): { diagnostics: readonly TsDiagnostic[]; emitSkipped: boolean };
}

export interface TsApi {
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
export interface SpecifierRef {
  fileName: string;
  pos: number;
  end: number;
}

export const DIAGNOSTIC_ERROR = 1;

/**
 * "Could not find a declaration file for module": an npm package without types. Deno types such
 * an import as `any` without a word, and core's lazily loaded codecs rely on that, so the build
 * does the same.
 */
export const UNTYPED_MODULE = 7016;

/**
 * Installs TypeScript and `@types/node` into `npm/.tools` unless the right TypeScript is there.
 * The folder gets its own package.json first: without one npm would pick the nearest folder with
 * a `node_modules` (the workspace root) and write a package.json there, which Deno would read.
 */
export async function loadTypeScript(root: string, log: (line: string) => void): Promise<TsApi> {
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

/**
 * Every module specifier of a file: static imports and exports, `import()` calls and `import("x")`
 * types. Read from the syntax tree, since a plain scan is misled by regular expressions holding
 * backticks.
 */
export function findSpecifiers(ts: TsApi, fileName: string, text: string): SpecifierRef[] {
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
