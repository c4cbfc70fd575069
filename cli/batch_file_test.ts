import { after, test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { parseCliArgs, type RunCommand } from "./args.ts";
import { mergeBatchSections, readBatchFile, runFiles } from "./batch_file.ts";
import { prepareScriptFile } from "./prepare.ts";

const work = await mkdtemp(join(tmpdir(), "sdk-batch-unit-"));
after(() => rm(work, { recursive: true, force: true }));
const trusted = { untrusted: false, allowEnv: [], workDir: work };
const untrusted = { ...trusted, untrusted: true };

test("a batch's section is merged into the file's same section key by key, the batch's value winning; a file without a target takes the batch's only one", async () => {
  const file = "web:\n  url: a.html\n  viewportWidth: 800\n  waitForNetworkIdle:\n" +
    "    timeout: 100\ntasks: []\n";
  const merged = parse(
    await mergeBatchSections(file, {
      web: {
        viewportWidth: 1280,
        serve: "site",
        waitForNetworkIdle: { continueOnNetworkIdleError: true },
      },
    }),
  );
  assert.deepEqual(merged.web, {
    url: "a.html",
    viewportWidth: 1280,
    waitForNetworkIdle: { timeout: 100, continueOnNetworkIdleError: true },
    serve: "site",
  });
  assert.deepEqual(
    parse(await mergeBatchSections("tasks: []\n", { mobilea: { deviceId: "d1" } })).mobilea,
    { deviceId: "d1" },
  );
  const phone = "mobilea:\n  deviceId: d2\ntasks: []\n";
  assert.equal(await mergeBatchSections(phone, { web: { viewportWidth: 1 } }), phone);
});

test("a batch's switches fill what the flags leave unset; --config with paths runs the paths its way", async () => {
  const dir = join(work, "switches");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "a.yaml"), "web:\n  url: https://example.com\ntasks: []\n");
  await writeFile(join(dir, "b.yaml"), "web:\n  url: https://example.com\ntasks: []\n");
  await writeFile(
    join(dir, "batch.yaml"),
    "files: ['*.yaml']\nconcurrent: 3\nretry: 2\nheaded: true\nsummary: s.json\n",
  );
  const run = parseCliArgs([
    "run",
    "--config",
    "switches/batch.yaml",
    "--retry",
    "0",
  ]) as RunCommand;
  const { files } = await runFiles(run, work, trusted);
  assert.deepEqual(files.map((f) => f.shown), ["switches/a.yaml", "switches/b.yaml"]);
  assert.deepEqual([run.concurrent, run.retry, run.headed, run.summary], [
    3,
    0,
    true,
    join(dir, "s.json"),
  ]);
  const only = parseCliArgs(["run", "--config", "switches/batch.yaml", "switches/a.yaml"]);
  assert.deepEqual(
    (await runFiles(only as RunCommand, work, trusted)).files.map((f) => f.shown),
    ["switches/a.yaml"],
  );
});

test("an --untrusted batch is refused what an untrusted script is: its section's path outside the working folder, files and a summary outside it", async () => {
  const dir = join(work, "untrusted");
  await mkdir(dir, { recursive: true });
  const script = join(dir, "a.yaml");
  await writeFile(script, "web:\n  url: https://example.com\ntasks: []\n");
  const refused = await prepareScriptFile(script, "a.yaml", {}, untrusted, {
    web: { cookie: "/etc/passwd" },
  });
  assert.equal(refused.ok, false);
  assert.match(String((refused as { error: unknown }).error), /cookie.*outside the working folder/);
  const trustedRun = await prepareScriptFile(script, "a.yaml", {}, trusted, {
    web: { cookie: "/etc/passwd" },
  });
  assert.equal(trustedRun.ok, true);

  await writeFile(join(dir, "out.yaml"), "files: ['/etc/*.yaml']\n");
  await writeFile(join(dir, "b.yaml"), "files: ['a.yaml']\nsummary: /tmp/elsewhere.json\n");
  const runOf = (config: string) =>
    parseCliArgs(["run", "--untrusted", "--config", config]) as RunCommand;
  await assert.rejects(
    runFiles(runOf("untrusted/b.yaml"), work, untrusted),
    /summary .*outside the working folder/,
  );
  await writeFile(
    join(work, "..", "sdk-batch-outside.yaml"),
    "web:\n  url: https://x\ntasks: []\n",
  );
  await writeFile(join(dir, "c.yaml"), "files: ['../../sdk-batch-outside.yaml']\n");
  await assert.rejects(
    runFiles(runOf("untrusted/c.yaml"), work, untrusted),
    /outside the working folder/,
  );
  await rm(join(work, "..", "sdk-batch-outside.yaml"));
});

test("a batch file's errors name the file, line and key", async () => {
  const path = join(work, "bad.yaml");
  await writeFile(path, "files: a.yaml\nconcurrent: 0\nweb: 3\n");
  await assert.rejects(readBatchFile(path, "bad.yaml", trusted), (e: Error) => {
    assert.match(e.message, /bad\.yaml:1:\d+: .*files/);
    return true;
  });
});
