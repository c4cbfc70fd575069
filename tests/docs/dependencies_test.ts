/**
 * What a user's first command installs: `deno task demo` (any command of the workspace) sets up
 * `node_modules` from the workspace's `deno.lock`, whose packages come from the root import map.
 * Test-only packages stay out of both: the third-party clients of the conformance tests have their
 * own import map and lockfile in tests/clients/ (tests/helpers/clients.ts runs them). A fresh copy
 * of the workspace installs without npm's "Ignored build scripts" warning.
 *
 * @module
 */

import { test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Folders that are not the workspace's own sources. */
const SKIPPED = new Set(["node_modules", ".git", "sdk_run", "npm", "dist", "tests", ".ci"]);

/** The source files outside tests/: the members, the demo, scripts, benchmarks, the extension. */
async function nonTestSources(dir = ROOT): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) || dir !== ROOT) files.push(...await nonTestSources(path));
    } else if (/\.(ts|js|mjs)$/.test(entry.name) && !/_test\.ts$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}

test("every package of the root import map is used outside the tests; the test-only clients are in tests/clients/ only", async () => {
  const { imports } = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8")) as {
    imports: Record<string, string>;
  };
  const sources = await Promise.all(
    (await nonTestSources()).map(async (f) => ({ f, text: await readFile(f, "utf8") })),
  );
  const unused = Object.keys(imports).filter((name) => {
    // A types package (`@types/ws`) is used where the package it types is (`@types/node`: the
    // node: built-ins).
    const bare = name.replace(/\/$/, "").replace(/^@types\//, "");
    return !sources.some(({ text }) =>
      text.includes(`"${bare}"`) || text.includes(`"${bare}/`) || text.includes(`'${bare}'`) ||
      (bare === "node" && text.includes(`"node:`))
    );
  });
  assert.deepEqual(unused, [], "import map entries only tests use (move them to tests/clients/)");
  const clients = JSON.parse(
    await readFile(join(ROOT, "tests/clients/import_map.json"), "utf8"),
  ) as { imports: Record<string, string> };
  const lock = await readFile(join(ROOT, "deno.lock"), "utf8");
  for (const [name, specifier] of Object.entries(clients.imports)) {
    assert.equal(imports[name], undefined, `${name} is not in the root import map`);
    assert.ok(!lock.includes(`"${specifier}"`), `${specifier} is not in deno.lock`);
  }
  assert.ok(sources.length > 100, relative(ROOT, sources[0].f));
});

test(
  "a fresh copy of the workspace installs its node_modules without an 'Ignored build scripts' warning",
  {
    timeout: 180_000,
  },
  async () => {
    const copy = await mkdtemp(join(tmpdir(), "sdk-fresh-"));
    try {
      await cp(ROOT, copy, {
        recursive: true,
        filter: (src) => {
          const top = relative(ROOT, src).split(/[\\/]/)[0];
          return !["node_modules", ".git", "sdk_run", "npm", "dist"].includes(top);
        },
      });
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          Deno.execPath(),
          ["install", "--frozen"],
          { cwd: copy, env: { ...Deno.env.toObject(), NO_COLOR: "1" }, timeout: 150_000 },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout + stderr),
        );
      });
      assert.doesNotMatch(output, /Ignored build scripts/, output);
      const installed = await readdir(join(copy, "node_modules", ".deno"));
      const testOnly = installed.filter((p) =>
        /^(webdriver|edgedriver|geckodriver)@|adbkit/.test(p)
      );
      assert.deepEqual(testOnly, [], "no test-only package in a user's node_modules");
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  },
);
