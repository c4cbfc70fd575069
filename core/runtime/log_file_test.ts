import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RotatingLogFile } from "./log_file.ts";

async function tempDir(): Promise<string> {
  return await mkdtemp(join(tmpdir(), "sdk-log-test-"));
}

/** Names and sizes of the files of `dir`, by name. */
async function listing(dir: string): Promise<{ name: string; size: number }[]> {
  const names = (await readdir(dir)).sort();
  return await Promise.all(
    names.map(async (name) => ({ name, size: (await stat(join(dir, name))).size })),
  );
}

test("lines wait in memory until flush, then land in order in one file", async () => {
  const dir = await tempDir();
  try {
    const log = new RotatingLogFile({
      dir: join(dir, "log"),
      maxFileBytes: 1 << 20,
      maxTotalBytes: 4 << 20,
      stem: "sdk-test",
    });
    await log.ready;
    log.append("one\n");
    log.append("two\n");
    assert.equal(log.file, undefined, "nothing written before flush");
    log.flush();
    assert.equal(log.file, join(dir, "log", "sdk-test.log"));
    log.append("three\n");
    log.flush();
    assert.equal(await readFile(log.file!, "utf8"), "one\ntwo\nthree\n");
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("lines appended before the directory is known are written once it is", async () => {
  const dir = await tempDir();
  try {
    let resolveDir!: (d: string) => void;
    const log = new RotatingLogFile({
      dir: new Promise<string>((r) => resolveDir = r),
      maxFileBytes: 1 << 20,
      maxTotalBytes: 4 << 20,
      stem: "sdk-late",
    });
    log.append("early\n");
    log.flush();
    resolveDir(dir);
    await log.ready;
    assert.equal(await readFile(join(dir, "sdk-late.log"), "utf8"), "early\n");
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("64 KB of waiting lines are written without a flush", async () => {
  const dir = await tempDir();
  try {
    const log = new RotatingLogFile({
      dir,
      maxFileBytes: 1 << 20,
      maxTotalBytes: 4 << 20,
      stem: "sdk-auto",
    });
    await log.ready;
    const line = "x".repeat(1023) + "\n";
    for (let i = 0; i < 64; i++) log.append(line);
    assert.equal((await stat(join(dir, "sdk-auto.log"))).size, 64 * 1024);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("files rotate at the file cap and the oldest go beyond the total cap", async () => {
  const dir = await tempDir();
  try {
    // Another process's older log, and a file that is not a run log (never touched).
    await writeFile(join(dir, "sdk-older.log"), "o".repeat(3000));
    await writeFile(join(dir, "notes.txt"), "keep me");
    const maxFileBytes = 10 * 1024;
    const maxTotalBytes = 35 * 1024;
    const log = new RotatingLogFile({ dir, maxFileBytes, maxTotalBytes, stem: "sdk-run" });
    await log.ready;
    const line = "y".repeat(999) + "\n";
    // 200 KB written, 20 times the total cap; flushed now and then like an agent does.
    for (let i = 0; i < 200; i++) {
      log.append(line);
      if (i % 7 === 0) log.flush();
    }
    log.flush();
    const files = await listing(dir);
    const logs = files.filter((f) => f.name.endsWith(".log"));
    const total = logs.reduce((sum, f) => sum + f.size, 0);
    assert.ok(total <= maxTotalBytes, `total ${total} <= ${maxTotalBytes}`);
    assert.ok(logs.every((f) => f.size <= maxFileBytes), JSON.stringify(logs));
    // 10 lines per 10 KB part: 20 parts written, the newest 3 kept (3 full + 1 new fit 35 KB).
    assert.deepEqual(logs.map((f) => f.name).sort(), [
      "sdk-run.18.log",
      "sdk-run.19.log",
      "sdk-run.20.log",
    ]);
    assert.equal(log.file, join(dir, "sdk-run.20.log"));
    assert.ok(files.some((f) => f.name === "notes.txt"), "other files are left alone");
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("a log directory deleted while the process runs is created again", async () => {
  const dir = await tempDir();
  try {
    const logDir = join(dir, "run", "log");
    const log = new RotatingLogFile({
      dir: logDir,
      maxFileBytes: 1 << 20,
      maxTotalBytes: 4 << 20,
      stem: "sdk-again",
    });
    await log.ready;
    log.append("before\n");
    log.flush();
    await rm(join(dir, "run"), { recursive: true });
    log.append("after\n");
    log.flush();
    assert.equal(await readFile(join(logDir, "sdk-again.log"), "utf8"), "after\n");
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("a directory that cannot be written turns the file off with one error", async () => {
  const dir = await tempDir();
  try {
    // A file where the log directory should be: mkdir fails.
    const blocked = join(dir, "log");
    await writeFile(blocked, "");
    const errors: unknown[] = [];
    const log = new RotatingLogFile({
      dir: join(blocked, "sub"),
      maxFileBytes: 1 << 20,
      maxTotalBytes: 4 << 20,
      onError: (e) => errors.push(e),
    });
    await log.ready;
    log.append("a\n");
    log.flush();
    log.append("b\n");
    log.flush();
    assert.equal(errors.length, 1);
    assert.equal(log.file, undefined);
  } finally {
    await rm(dir, { recursive: true });
  }
});
