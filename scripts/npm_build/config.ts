/**
 * What the npm build knows beforehand: the TypeScript it compiles with, how each kind of
 * dependency is declared (optional, optional peer, run-time peer), the executables, the error it
 * stops with, and the shapes of what it reads (a member's deno.json) and writes (package.json).
 *
 * @module
 */

/** Version of TypeScript that compiles the packages (5.9 line; not TypeScript 7). */
export const TYPESCRIPT_VERSION = "5.9.3";

/**
 * Major version of `@types/node`, for the `node:` imports: the lowest Node the packages declare
 * (22: `fs.promises.glob` of the command line is typed from it on).
 */
export const TYPES_NODE_RANGE = "22";

/**
 * The Node versions the emitted code itself needs (ES2022 and `Symbol.asyncDispose`). A package
 * declares the strictest of this and its dependencies' `engines.node`.
 */
export const OWN_NODE_ENGINE = ">=20";

/**
 * Packages that stay optional for users: native code that may fail to install on some platforms,
 * loaded lazily by core, which falls back to pure-JavaScript code without it.
 */
export const OPTIONAL_DEPENDENCIES: ReadonlySet<string> = new Set(["sharp"]);

/**
 * Packages the user brings, each an optional peer: the browser drivers (the one they drive), the
 * device platforms whose scripts `sdk run` of `@sdk/cli` runs when they are installed,
 * Playwright Test for `@sdk/web/playwright-test`, and OpenCV (13 MB) for finding cached looks
 * again on desktops and canvases (without it such a lookup is a cache miss).
 */
export const OPTIONAL_PEER_DEPENDENCIES: ReadonlySet<string> = new Set([
  "@techstark/opencv-js",
  "playwright-core",
  "puppeteer-core",
  "@sdk/mobilea",
  "@sdk/mobileb",
  "@sdk/mobilec",
  "@sdk/computer",
  "@playwright/test",
]);

/**
 * Optional peers of one package only: member name -> packages. The phone platforms' `testing`
 * entries (the simulator's fronts) run on the virtual phone of `@sdk/web/testing`, which their
 * main entries never load; `@sdk/cli` depends on `@sdk/web` outright.
 */
export const MEMBER_OPTIONAL_PEERS: Readonly<Record<string, ReadonlySet<string>>> = {
  "@sdk/mobilea": new Set(["@sdk/web"]),
  "@sdk/mobileb": new Set(["@sdk/web"]),
  "@sdk/mobilec": new Set(["@sdk/web"]),
};

/**
 * Optional peers a package loads at run time by a name no import shows (so that neither Deno nor
 * a bundler resolves them): member name -> package -> version range. `@sdk/computer` loads nut-js
 * in its input host process.
 */
export const RUNTIME_PEER_DEPENDENCIES: Readonly<Record<string, Readonly<Record<string, string>>>> =
  {
    "@sdk/computer": { "@nut-tree-fork/nut-js": "^4.2.6" },
  };

/**
 * Executables of a package: member name -> bin name -> source file relative to the member. Each
 * is compiled as an extra entry, gets a `#!/usr/bin/env node` line and a `bin` entry.
 */
export const BINS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "@sdk/cli": { sdk: "bin.ts" },
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

export interface DenoConfig {
  name?: string;
  version?: string;
  exports?: string | Record<string, string>;
  workspace?: string[];
  imports?: Record<string, string>;
}

export interface Member {
  dir: string;
  name: string;
  version: string;
  /** Export key -> path relative to the member, e.g. `"./report"` -> `"./report/mod.ts"`. */
  exports: Record<string, string>;
}
