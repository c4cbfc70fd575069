import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CliUsageError } from "./args.ts";
import { loadDotenv } from "./dotenv.ts";

function fakeEnv(initial: Record<string, string>) {
  const vars = new Map(Object.entries(initial));
  return {
    vars,
    get: (n: string) => vars.get(n),
    set: (n: string, v: string) => void vars.set(n, v),
  };
}

test("loadDotenv() sets the file's variables the environment lacks, keeping existing ones", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sdk-dotenv-"));
  try {
    const file = join(dir, ".env");
    await writeFile(file, 'SDK_MODEL_NAME=qwen3-vl\n# a comment\nKEEP=from-file\nQUOTED="a b"\n');
    const env = fakeEnv({ KEEP: "from-env" });
    assert.deepEqual(await loadDotenv(file, true, env), ["SDK_MODEL_NAME", "QUOTED"]);
    assert.deepEqual(Object.fromEntries(env.vars), {
      KEEP: "from-env",
      SDK_MODEL_NAME: "qwen3-vl",
      QUOTED: "a b",
    });
  } finally {
    await rm(dir, { recursive: true });
  }
});

test("a missing default .env is skipped; a missing --dotenv file is a usage error naming it", async () => {
  const env = fakeEnv({});
  assert.deepEqual(await loadDotenv("/nonexistent/.env", false, env), []);
  await assert.rejects(
    loadDotenv("/nonexistent/ci.env", true, env),
    (e: unknown) =>
      e instanceof CliUsageError &&
      /cannot read the dotenv file \/nonexistent\/ci\.env/.test(e.message),
  );
});
