/**
 * The npm build works for a Node user: `scripts/build_npm.ts` emits the packages, `npm pack`
 * packs them, and a scratch Node project installs the tarballs (real copies, not symlinks, so
 * package resolution is the one users get) plus `playwright-core`, then runs `consumer.mjs`,
 * which drives real Chromium through `DriverBPageAgent` and the scripted test model.
 *
 * @module
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { findChromium } from "../helpers/browser.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What consumer.mjs prints as its last line. */
interface ConsumerResult {
  counter: number;
  aiNumber: number;
  reportFile: string | null | undefined;
  reportExists: boolean;
  calls: string[];
}

/**
 * Runs a command and returns its stdout.
 *
 * @throws {Error} naming the command, its exit code and the tail of its output when it fails.
 */
function run(
  command: string,
  args: string[],
  cwd: string,
  options: { env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, {
      cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 32 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const tail = (text: string) => text.split("\n").slice(-40).join("\n");
      reject(
        new Error(
          `'${command} ${args.join(" ")}' in ${cwd} failed (${
            error.killed ? "killed after timeout" : `exit code ${error.code}`
          })\n--- stdout ---\n${tail(stdout)}\n--- stderr ---\n${tail(stderr)}`,
        ),
      );
    });
  });
}

/** `playwright-core@^1.65.1`, from the root import map, so the consumer gets the tested range. */
async function playwrightSpec(): Promise<string> {
  const config = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8")) as {
    imports: Record<string, string>;
  };
  return config.imports["playwright-core"].replace(/^npm:/, "");
}

test("npm packages: a Node consumer installed from the tarballs taps twice and reads the counter", async () => {
  const chromiumPath = await findChromium();
  const work = await mkdtemp(join(tmpdir(), "sdk-npm-consumer-"));
  try {
    // process.execPath is the deno binary running this test.
    await run(process.execPath, ["run", "--allow-all", "scripts/build_npm.ts"], ROOT);

    const tarballs: string[] = [];
    for (const dir of ["core", "web"]) {
      const packed = await run(
        "npm",
        ["pack", "--json", "--pack-destination", work],
        join(ROOT, "npm", dir),
      );
      const [{ filename }] = JSON.parse(packed) as { filename: string }[];
      tarballs.push(join(work, filename));
    }

    const app = join(work, "app");
    await mkdir(app);
    // The project's own package.json keeps npm from installing into a parent folder.
    await writeFile(
      join(app, "package.json"),
      JSON.stringify({ name: "sdk-npm-consumer", private: true, type: "module" }, null, 2),
    );
    await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      ...tarballs,
      await playwrightSpec(),
    ], app);
    await copyFile(new URL("./consumer.mjs", import.meta.url), join(app, "consumer.mjs"));

    // The consumer must not pick up a real model from the developer's environment.
    const env: Record<string, string | undefined> = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith("SDK_")),
    );
    env.SDK_CHROMIUM_PATH = chromiumPath;
    const stdout = await run("node", ["consumer.mjs"], app, { env, timeoutMs: 90_000 });
    const line = stdout.trim().split("\n").findLast((l) => l.startsWith("{"));
    assert.ok(line, `consumer.mjs printed no JSON line:\n${stdout}`);
    const result = JSON.parse(line) as ConsumerResult;

    assert.equal(result.counter, 2);
    assert.equal(result.aiNumber, 2);
    assert.ok(result.reportFile?.startsWith(app), `report file ${result.reportFile} in ${app}`);
    assert.equal(result.reportExists, true);
    assert.deepEqual(result.calls, ["locate:200", "locate:200", "extract:200"]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
