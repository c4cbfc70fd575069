import { before } from "node:test";
import { after, test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CliUsageError } from "./args.ts";
import { discoverScriptFiles, discoverScripts } from "./discover.ts";

let dir = "";
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "sdk-discover-"));
  for (const f of ["a.yaml", "b.yml", "c.feature", "notes.md", "sub/d.yaml", "sub/e.txt"]) {
    await mkdir(join(dir, f, ".."), { recursive: true });
    await writeFile(join(dir, f), "x");
  }
  await mkdir(join(dir, "node_modules/pkg"), { recursive: true });
  await writeFile(join(dir, "node_modules/pkg/f.yaml"), "x");
});
after(() => rm(dir, { recursive: true, force: true }));

const rel = (files: string[]) => files.map((f) => f.slice(dir.length + 1));

test("a folder gives its scripts recursively, sorted, skipping node_modules", async () => {
  assert.deepEqual(rel(await discoverScripts(["."], dir)), [
    "a.yaml",
    "b.yml",
    "c.feature",
    "sub/d.yaml",
  ]);
});

test("files, globs and folders combine in the order given, each file once", async () => {
  assert.deepEqual(rel(await discoverScripts(["c.feature", "*.y*ml", "sub", "a.yaml"], dir)), [
    "c.feature",
    "a.yaml",
    "b.yml",
    "sub/d.yaml",
  ]);
});

test("a missing path, a non-script file and an empty match are usage errors naming them", async () => {
  const cases: [string, RegExp][] = [
    ["missing.yaml", /no such file or folder: missing\.yaml/],
    ["notes.md", /"notes\.md" is not a script/],
    ["*.json", /the pattern "\*\.json" matches no/],
  ];
  for (const [path, pattern] of cases) {
    await assert.rejects(
      discoverScripts([path], dir),
      (e: unknown) => e instanceof CliUsageError && pattern.test(e.message),
    );
  }
  await mkdir(join(dir, "empty"));
  await assert.rejects(discoverScripts(["empty"], dir), /the folder "empty" holds no/);
});

test("each file is shown as the user typed it: a file as given, a folder's and a pattern's under what was typed", async () => {
  const found = await discoverScriptFiles(
    ["./c.feature", "sub/", "*.yml", join(dir, "a.yaml")],
    dir,
  );
  assert.deepEqual(found.map((f) => f.shown), [
    "./c.feature",
    join("sub", "d.yaml"),
    "b.yml",
    join(dir, "a.yaml"),
  ]);
  assert.deepEqual(found.map((f) => f.path), [
    join(dir, "c.feature"),
    join(dir, "sub/d.yaml"),
    join(dir, "b.yml"),
    join(dir, "a.yaml"),
  ]);
});
