import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { resolveCacheSettings } from "./cache_options.ts";
import { TaskCache } from "./cache_store.ts";
import type { CacheRecord, CacheStore } from "./cache_file.ts";

const WRITERS = fileURLToPath(new URL("./testdata/cache_writers.ts", import.meta.url));
const OLD_FILE = fileURLToPath(new URL("./testdata/old_format.cache.yaml", import.meta.url));

interface CacheFile {
  cacheId: string;
  caches: { type: string; prompt: string; xpaths?: string[] }[];
}

function writers(dir: string, tag: string, agents: number, records: number) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", WRITERS, dir, "shared", tag, `${agents}`, `${records}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
}

test("8 agents in two processes share one cache file: every location each writes is kept, and the file parses at every moment", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/shared.cache.yaml`;
  const records = 12;
  let reads = 0;
  let writing = true;
  // A reader all along: it never meets half a file.
  const reader = (async () => {
    while (writing) {
      const text = await Deno.readTextFile(file).catch(() => undefined);
      if (text !== undefined) {
        const doc = parse(text) as CacheFile;
        assert.ok(Array.isArray(doc.caches), `a whole cache file at every moment:\n${text}`);
        reads++;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const runs = await Promise.all([writers(dir, "A", 4, records), writers(dir, "B", 4, records)]);
  writing = false;
  await reader;
  for (const run of runs) {
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    assert.equal(new TextDecoder().decode(run.stderr), "", "no writer warned");
  }
  const doc = parse(await Deno.readTextFile(file)) as CacheFile;
  const prompts = new Set(doc.caches.map((r) => r.prompt));
  const missing: string[] = [];
  for (const tag of ["A", "B"]) {
    for (let a = 0; a < 4; a++) {
      for (let i = 0; i < records; i++) {
        if (!prompts.has(`${tag} agent ${a} element ${i}`)) missing.push(`${tag}${a}.${i}`);
      }
    }
  }
  assert.deepEqual(missing, [], `${missing.length} of ${8 * records} records lost`);
  assert.equal(doc.caches.length, 8 * records);
  assert.ok(reads > 0);
  // Nothing left behind: no lock, no temporary file.
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["shared.cache.yaml"]);
});

test("a cache file written by an earlier version (records without a target) is read, and a write keeps its records", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(OLD_FILE, `${dir}/checkout.cache.yaml`);
  const settings = { id: "checkout", strategy: "read-write" as const, cacheDir: dir };
  const cache = await TaskCache.open(settings);
  assert.deepEqual(cache.findLocate("the Click me button"), {
    type: "locate",
    prompt: "the Click me button",
    xpaths: ['//*[@id="click-button"]'],
  });
  assert.equal(cache.findLocate("the key input")?.xpaths.length, 2);
  assert.deepEqual(
    cache.findPlan("click the button, then type hello into the key input")?.output,
    "clicked and typed",
  );
  cache.putLocate("the Save button", ['//*[@id="save"]'], {
    kind: "button",
    id: "save",
    name: "Save",
    box: { left: 1, top: 2, width: 30, height: 20 },
  });
  await cache.flush();
  const again = await TaskCache.open(settings);
  assert.deepEqual(again.findLocate("the Click me button")?.xpaths, ['//*[@id="click-button"]']);
  assert.equal(again.findLocate("the Save button")?.target?.name, "Save");
  assert.equal(
    again.findPlan("click the button, then type hello into the key input")?.actions.length,
    2,
  );
});

test("cache.store replaces the file: the agent's cache reads it once and writes only the records it changed", async () => {
  const kept: CacheRecord[] = [{ type: "locate", prompt: "old", xpaths: ["//old"] }];
  const calls: string[] = [];
  const store: CacheStore = {
    read(id) {
      calls.push(`read ${id}`);
      return Promise.resolve(structuredClone(kept));
    },
    write(id, records) {
      calls.push(`write ${id} ${records.map((r) => r.prompt).join(",")}`);
      return Promise.resolve();
    },
  };
  const settings = resolveCacheSettings({ cache: { id: "team", store } })!;
  assert.equal(settings.store, store);
  const cache = await TaskCache.open(settings);
  assert.equal(cache.file, "");
  assert.deepEqual(cache.findLocate("old")?.xpaths, ["//old"]);
  cache.putLocate("new", ["//new"]);
  cache.putLocate("old", ["//old"]); // unchanged: not written
  await cache.flush();
  await cache.flush(); // nothing changed since
  assert.deepEqual(calls, ["read team", "write team new"]);
});

test("cache.store must have read and write, and takes no cacheDir", () => {
  assert.throws(
    () => resolveCacheSettings({ cache: { id: "a", store: { read: () => [] } } }),
    /'cache\.store' must be an object with read\(id\) and write\(id, records\)/,
  );
  assert.throws(
    () =>
      resolveCacheSettings({
        cache: {
          id: "a",
          cacheDir: "d",
          store: { read: () => Promise.resolve([]), write: () => Promise.resolve() },
        },
      }),
    /'cache\.store' and 'cache\.cacheDir' are both given/,
  );
});

test("a record this version cannot read (a newer version's, in a shared folder) is kept by its writes", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/mixed.cache.yaml`;
  await Deno.writeTextFile(
    file,
    "sdkVersion: 9.0.0\ncacheId: mixed\ncaches:\n" +
      "  - {type: fingerprint, prompt: the logo, crop: abc}\n" +
      "  - {type: locate, prompt: ok, xpaths: ['//a']}\n",
  );
  const settings = { id: "mixed", strategy: "read-write" as const, cacheDir: dir };
  const original = console.warn;
  console.warn = () => {};
  let cache: TaskCache;
  try {
    cache = await TaskCache.open(settings);
  } finally {
    console.warn = original;
  }
  cache.putLocate("new", ["//new"]);
  await cache.flush();
  const doc = parse(await Deno.readTextFile(file)) as CacheFile;
  assert.deepEqual(doc.caches.map((r) => `${r.type} ${r.prompt}`), [
    "fingerprint the logo",
    "locate ok",
    "locate new",
  ]);
});
