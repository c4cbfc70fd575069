import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { Agent } from "../agent/agent.ts";
import type { AbstractInterface } from "../device/types.ts";
import { SDK_VERSION } from "../version.ts";
import { cacheFileName, resolveCacheSettings } from "../session/cache_options.ts";
import { TaskCache } from "../session/cache_store.ts";

const device: AbstractInterface = {
  interfaceType: "test",
  screenshotBase64: () => Promise.resolve(""),
  size: () => Promise.resolve({ width: 1, height: 1, dpr: 1 }),
  actionSpace: () => [],
};

/** Runs `fn` collecting console.warn messages. */
async function warnings(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void seen.push(args.join(" "));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return seen;
}

test("cache options: defaults, the legacy cacheId and the earlier name dir", () => {
  assert.deepEqual(resolveCacheSettings({ cache: { id: "a" } }), {
    id: "a",
    strategy: "read-write",
    cacheDir: undefined,
  });
  assert.deepEqual(resolveCacheSettings({ cacheId: "legacy" }), {
    id: "legacy",
    strategy: "read-write",
    cacheDir: undefined,
  });
  assert.equal(resolveCacheSettings({}), undefined);
  assert.equal(resolveCacheSettings({ cache: false, cacheId: "legacy" }), undefined);
  assert.equal(resolveCacheSettings({ cache: { id: "a", dir: "d" } })?.cacheDir, "d");
  assert.equal(
    resolveCacheSettings({ cache: { id: "a", dir: "d", cacheDir: "c" } })?.cacheDir,
    "c",
  );
});

test("the agent rejects cache options naming the wrong field and the fix", () => {
  const bad: [unknown, RegExp, ErrorConstructor][] = [
    [{ cache: {} }, /'cache\.id' must be a non-empty string.*undefined/, TypeError],
    [{ cache: { id: " " } }, /'cache\.id' must be a non-empty string/, TypeError],
    [{ cache: { id: 3 } }, /'cache\.id'.*3/, TypeError],
    [{ cache: true }, /'cache' must be false or an object \{ id/, TypeError],
    [
      { cache: { id: "a", strategy: "read" } },
      /'cache\.strategy' must be 'read-only'.*"read"/,
      RangeError,
    ],
    [
      { cache: { id: "a", cacheDir: 5 } },
      /'cache\.cacheDir' must be a non-empty directory/,
      TypeError,
    ],
    [{ cache: { id: "a", dir: "" } }, /'cache\.dir' must be a non-empty directory/, TypeError],
    [{ cacheId: "" }, /'cacheId' must be a non-empty string/, TypeError],
  ];
  for (const [options, message, type] of bad) {
    assert.throws(() => new Agent(device, options as never), (e: unknown) => {
      assert.ok(e instanceof type, `${JSON.stringify(options)}: ${e}`);
      assert.match((e as Error).message, message);
      return true;
    });
  }
});

test("a cache id becomes a file name directly in the cache directory", async () => {
  assert.equal(cacheFileName("login"), "login.cache.yaml");
  assert.equal(cacheFileName("../../etc/passwd"), "..-..-etc-passwd.cache.yaml");
  assert.equal(cacheFileName('a\\b:c*d?e"f<g>h|i\nj'), "a-b-c-d-e-f-g-h-i-j.cache.yaml");
  const dir = await Deno.makeTempDir();
  const cache = await TaskCache.open({ id: "../x/y", strategy: "read-write", cacheDir: dir });
  assert.equal(cache.file, `${dir}/..-x-y.cache.yaml`);
  cache.putLocate("p", ["//*[@id='p']"]);
  await cache.flush();
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["..-x-y.cache.yaml"]);
});

test("the cache directory defaults to <SDK_RUN_DIR>/cache; a relative cacheDir is from the cwd", async () => {
  const runDir = await Deno.makeTempDir();
  const previous = Deno.env.get("SDK_RUN_DIR");
  Deno.env.set("SDK_RUN_DIR", runDir);
  try {
    const byDefault = await TaskCache.open({
      id: "d",
      strategy: "read-write",
      cacheDir: undefined,
    });
    assert.equal(byDefault.file, `${runDir}/cache/d.cache.yaml`);
    const relative = await TaskCache.open({ id: "d", strategy: "read-write", cacheDir: "rel" });
    assert.equal(relative.file, `${Deno.cwd()}/rel/d.cache.yaml`);
  } finally {
    if (previous === undefined) Deno.env.delete("SDK_RUN_DIR");
    else Deno.env.set("SDK_RUN_DIR", previous);
  }
});

test("records round-trip through the YAML file, replaced by prompt", async () => {
  const dir = await Deno.makeTempDir();
  const settings = { id: "trip", strategy: "read-write" as const, cacheDir: dir };
  const first = await TaskCache.open(settings);
  first.putLocate("the Save button", ['//*[@id="save"]']);
  first.putPlan({
    type: "plan",
    prompt: "save: twice",
    actions: [{ type: "Tap", param: { locate: "the Save button" } }, {
      type: "Input",
      param: { locate: "the name field", value: "a: b # c" },
    }],
    output: "saved",
  });
  first.putLocate("the Save button", ["/html/body/button[1]"]);
  await first.flush();
  const text = await Deno.readTextFile(first.file);
  assert.match(text, new RegExp(`sdkVersion: ${SDK_VERSION.replaceAll(".", "\\.")}`));
  assert.match(text, /cacheId: trip/);
  const second = await TaskCache.open(settings);
  assert.deepEqual(second.findLocate("the Save button")?.xpaths, ["/html/body/button[1]"]);
  assert.deepEqual(second.findPlan("save: twice")?.actions[1].param, {
    locate: "the name field",
    value: "a: b # c",
  });
  assert.equal(second.findPlan("save: twice")?.output, "saved");
  assert.equal(second.findLocate("save: twice"), undefined);
  // Nothing changed: no write (the file keeps its modification time).
  const before = (await Deno.stat(first.file)).mtime;
  second.putLocate("the Save button", ["/html/body/button[1]"]);
  await second.flush();
  assert.deepEqual((await Deno.stat(first.file)).mtime, before);
});

test("a corrupt cache file gives a warning and is treated as empty", async () => {
  const dir = await Deno.makeTempDir();
  const settings = { id: "bad", strategy: "read-write" as const, cacheDir: dir };
  const file = `${dir}/bad.cache.yaml`;
  for (const content of ["caches: [unclosed", "just a string", "caches:\n  - type: locate\n"]) {
    await Deno.writeTextFile(file, content);
    let cache: TaskCache | undefined;
    const seen = await warnings(async () => {
      cache = await TaskCache.open(settings);
    });
    assert.equal(seen.length, 1, `${JSON.stringify(content)}: ${seen}`);
    assert.match(seen[0], /cache: .*bad\.cache\.yaml/);
    assert.equal(cache!.findLocate(""), undefined);
  }
  // A valid record survives next to an invalid one.
  await Deno.writeTextFile(
    file,
    "caches:\n  - {type: locate, prompt: ok, xpaths: ['//a']}\n  - {type: plan, prompt: x}\n",
  );
  let cache: TaskCache | undefined;
  const seen = await warnings(async () => {
    cache = await TaskCache.open(settings);
  });
  assert.match(seen.join(), /dropped 1 record/);
  assert.deepEqual(cache!.findLocate("ok")?.xpaths, ["//a"]);
});

test("read-only never writes; write-only never reads but keeps other records", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/s.cache.yaml`;
  const seed = await TaskCache.open({ id: "s", strategy: "read-write", cacheDir: dir });
  seed.putLocate("kept", ["//kept"]);
  seed.putLocate("old", ["//old"]);
  await seed.flush();
  const original = await Deno.readTextFile(file);

  const readOnly = await TaskCache.open({ id: "s", strategy: "read-only", cacheDir: dir });
  assert.equal(readOnly.canRead, true);
  assert.equal(readOnly.canWrite, false);
  readOnly.putLocate("old", ["//new"]);
  readOnly.putPlan({ type: "plan", prompt: "p", actions: [] });
  await readOnly.flush();
  assert.equal(await Deno.readTextFile(file), original);
  assert.deepEqual(readOnly.findLocate("old")?.xpaths, ["//old"]);

  const writeOnly = await TaskCache.open({ id: "s", strategy: "write-only", cacheDir: dir });
  assert.equal(writeOnly.canRead, false);
  assert.equal(writeOnly.canWrite, true);
  writeOnly.putLocate("old", ["//new"]);
  await writeOnly.flush();
  const after = await TaskCache.open({ id: "s", strategy: "read-write", cacheDir: dir });
  assert.deepEqual(after.findLocate("old")?.xpaths, ["//new"]);
  assert.deepEqual(after.findLocate("kept")?.xpaths, ["//kept"]);
});
