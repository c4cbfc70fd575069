/**
 * Bundles `@sdk/core` for a browser page: `core/browser/mod.ts` (everything `core/mod.ts` exports,
 * plus the in-page device and `reportToHtml`) to `dist/browser/sdk-core.js`, one ES module, with
 * esbuild (`platform: "browser"`). See docs/in-browser.md.
 *
 * Core reaches Node built-ins only through `process.getBuiltinModule` (core/runtime/runtime.ts),
 * which no bundler follows, and the Node-only image packages (`sharp`, `pngjs`, `jpeg-js`) only by
 * dynamic `import()` in core/image/backend.ts, behind the runtime check; here those three become
 * modules that throw when loaded (a page uses the OffscreenCanvas backend instead). The build
 * fails, naming the module and the chain of imports that reaches it, when:
 *
 * - any Node built-in (`node:fs`, or a bare `fs`, `zlib`, ...) is imported by a bundled module;
 * - a Node-only package is imported anywhere else, or statically;
 * - the output still holds a `node:` import or a `require(` call.
 *
 * Run it with `deno task build:browser`; it prints the bundle's size. Exit code 1 on failure.
 *
 * @module
 */

import * as esbuild from "esbuild";
import { builtinModules } from "node:module";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The entry point bundled. */
export const BROWSER_ENTRY: string = path.join(ROOT, "core/browser/mod.ts");
/** Where the bundle is written. */
export const BROWSER_BUNDLE: string = path.join(ROOT, "dist/browser/sdk-core.js");

/**
 * Packages that only run in Deno or Node (native code or Node streams), with the one core file
 * allowed to import them, by dynamic `import()` behind the runtime check.
 */
export const NODE_ONLY_PACKAGES: Readonly<Record<string, string>> = {
  sharp: "core/image/backend.ts",
  pngjs: "core/image/backend.ts",
  "jpeg-js": "core/image/backend.ts",
  // Not Node-only, but of no use in a page (a page's device has the DOM), and large: OpenCV.js
  // (template matching of visual fingerprints) is 10 MB, the xpath engine the phones' trees use.
  "@techstark/opencv-js": "core/image/template_match.ts",
  xpath: "core/device/tree_xpath.ts",
  "@xmldom/xmldom": "core/device/tree_xpath.ts",
};

/** What the build produced. */
export interface BundleResult {
  /** Absolute path of the bundle. */
  file: string;
  /** Its size in bytes. */
  bytes: number;
}

/** A build that would pull a Node built-in or a Node-only package into the bundle. */
export class BrowserBundleError extends Error {
  /** One line per offending import. */
  readonly problems: readonly string[];
  /** Creates the error from its problems. */
  constructor(problems: readonly string[]) {
    super(
      `The browser bundle of @sdk/core would pull in Node-only code:\n` +
        problems.map((p) => `  - ${p}`).join("\n") +
        `\nReach Node built-ins through core/runtime/runtime.ts (nodeBuiltin), and Node-only ` +
        `packages by a lazy import() behind the runtime check (docs/in-browser.md).`,
    );
    this.name = "BrowserBundleError";
    this.problems = problems;
  }
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BUILTINS.has(specifier) ||
    BUILTINS.has(specifier.split("/")[0]);
}

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for a path. */
function packageOf(specifier: string): string | undefined {
  if (/^(\.|\/|[a-z]+:)/i.test(specifier)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function rel(file: string): string {
  const abs = path.isAbsolute(file) ? file : path.join(ROOT, file);
  return path.relative(ROOT, abs).split(path.sep).join("/");
}

/** Shortens `node_modules/.deno/pngjs@7.0.0/node_modules/pngjs/lib/png.js` to `pngjs/lib/png.js`. */
function short(file: string): string {
  const i = file.lastIndexOf("node_modules/");
  return i >= 0 ? file.slice(i + "node_modules/".length) : file;
}

/**
 * Bundles core for the browser and checks the result.
 *
 * @param options `outfile` (default {@link BROWSER_BUNDLE}), `entry` (default
 *   {@link BROWSER_ENTRY}) and `minify` (default true).
 * @returns the written bundle and its size.
 * @throws {BrowserBundleError} naming each Node built-in or Node-only package the bundle would
 *   pull in, and who imports it.
 */
export async function bundleCore(
  options: { outfile?: string; entry?: string; minify?: boolean } = {},
): Promise<BundleResult> {
  const outfile = options.outfile ?? BROWSER_BUNDLE;
  const entry = options.entry ?? BROWSER_ENTRY;
  const problems: string[] = [];
  /** Who imported what, for the chain in messages: importer -> imported (paths from the root). */
  const importers = new Map<string, string>();

  const guard: esbuild.Plugin = {
    name: "browser-guard",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const from = rel(args.importer);
        if (isBuiltin(args.path)) {
          problems.push(
            `${args.path} (a Node built-in) is imported by ${short(from)} (${args.kind})` +
              chain(from),
          );
          return { path: args.path, external: true };
        }
        const pkg = packageOf(args.path);
        if (pkg && pkg in NODE_ONLY_PACKAGES) {
          const allowed = NODE_ONLY_PACKAGES[pkg];
          if (from !== allowed || args.kind !== "dynamic-import") {
            problems.push(
              `${args.path} (a Node-only package) is imported by ${short(from)} (${args.kind}); ` +
                `only ${allowed} may load it, by a lazy import()` + chain(from),
            );
          }
          return { path: pkg, namespace: "node-only" };
        }
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: "node-only" }, (args) => ({
        contents: `throw new Error(${
          JSON.stringify(`${args.path} is not part of the browser build of @sdk/core`)
        });\nexport default undefined;\n`,
        loader: "js",
      }));
    },
  };

  function chain(from: string): string {
    const seen = new Set<string>();
    const hops: string[] = [];
    let at: string | undefined = from;
    while (at && !seen.has(at) && hops.length < 12) {
      seen.add(at);
      hops.unshift(short(at));
      at = importers.get(at);
    }
    return hops.length > 1 ? `, reached by ${hops.join(" -> ")}` : "";
  }

  // Remembers the first importer of every file, to print how a problem is reached.
  const tracker: esbuild.Plugin = {
    name: "import-tracker",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === "entry-point" || args.pluginData?.tracked) return undefined;
        if (isBuiltin(args.path)) return undefined;
        const pkg = packageOf(args.path);
        if (pkg && pkg in NODE_ONLY_PACKAGES) return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { tracked: true },
        });
        if (result.errors.length === 0 && result.path) {
          const to = rel(result.path);
          if (!importers.has(to)) importers.set(to, rel(args.importer));
        }
        return result.errors.length ? undefined : result;
      });
    },
  };

  let result: esbuild.BuildResult<{ metafile: true; write: false }>;
  try {
    result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: options.minify ?? true,
      legalComments: "none",
      metafile: true,
      write: false,
      logLevel: "silent",
      plugins: [guard, tracker],
    });
  } catch (error) {
    const failure = error as { errors?: esbuild.Message[] };
    if (problems.length) throw new BrowserBundleError(problems);
    if (failure.errors?.length) {
      throw new Error(
        "esbuild could not bundle core for the browser:\n" +
          failure.errors.map((m) =>
            `  - ${m.text}${m.location ? ` (${short(m.location.file)}:${m.location.line})` : ""}`
          ).join("\n"),
      );
    }
    throw error;
  } finally {
    await esbuild.stop();
  }
  if (problems.length) throw new BrowserBundleError(problems);

  const output = result.outputFiles[0];
  const leftovers = await importsLeftIn(output.text);
  if (leftovers.length) throw new BrowserBundleError(leftovers);

  await fs.mkdir(path.dirname(outfile), { recursive: true });
  await fs.writeFile(outfile, output.contents);
  return { file: outfile, bytes: output.contents.byteLength };
}

/**
 * Every import the bundle text still makes, read by esbuild's own parser (so a `node:` inside a
 * string or a comment does not count): `import`, `import()`, `export ... from` and `require()`
 * with a literal name; and any call of a free `require`. A self-contained bundle has none.
 *
 * @param text JavaScript (ESM) text.
 * @returns one line per import found; empty when there is none.
 */
export async function importsLeftIn(text: string): Promise<string[]> {
  const found: string[] = [];
  try {
    await esbuild.build({
      stdin: { contents: text, loader: "js", resolveDir: ROOT, sourcefile: "sdk-core.js" },
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      logLevel: "silent",
      plugins: [{
        name: "list-imports",
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === "entry-point") return undefined;
            found.push(
              args.path.startsWith("node:") || isBuiltin(args.path)
                ? `the output imports ${args.path} (${args.kind})`
                : args.kind === "require-call"
                ? `the output calls require("${args.path}")`
                : `the output imports ${args.path} (${args.kind}); the bundle must be self-contained`,
            );
            return { path: args.path, external: true };
          });
        },
      }],
    });
  } finally {
    await esbuild.stop();
  }
  // `require(x)` with a computed name is not an import record: find the call itself.
  for (const m of text.matchAll(/(?<![\w$."'`])require\s*\((?!\s*["'`])/g)) {
    found.push(
      `the output calls require( at offset ${m.index}: ${text.slice(m.index, m.index + 60)}`,
    );
  }
  return found;
}

if (import.meta.main) {
  try {
    const { file, bytes } = await bundleCore();
    console.log(
      `${rel(file)}: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB), no Node built-in`,
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
