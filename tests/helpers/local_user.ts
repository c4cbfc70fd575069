/**
 * Another local user for the security tests: a program of someone else on the same machine (a
 * rogue server on the bridge's port), or the SDK run by a user who is not root (Chromium keeps
 * its sandbox). Creating a user needs root, as tests/helpers/desktop.ts does for xrdp.
 *
 * The Deno of the tests may sit under root's home, which other users cannot enter: the user runs
 * a link to the same executable in a folder everyone can read (a copy when a link cannot be made).
 *
 * @module
 */

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, copyFile, link, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** Whether this process may create users and run programs as them. */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command} ${args.join(" ")}: ${stderr || error.message}`))
          : resolve(
            stdout,
          ),
    )
  );
}

/** A local user the tests run programs as, and the Deno that user can run. */
export interface LocalUser {
  /** The user's name. */
  readonly name: string;
  /** The user's numeric id. */
  readonly uid: number;
  /** The user's home folder. */
  readonly home: string;
  /**
   * Starts `deno args` as this user in `cwd`, with `env` on top of `HOME`, `PATH` and `USER`
   * (nothing else of the test's environment).
   */
  deno(
    args: readonly string[],
    options: { cwd: string; env?: Record<string, string> },
  ): ChildProcess;
  /** Removes the Deno link (the user stays, as desktop.ts's do). */
  close(): Promise<void>;
}

/**
 * Makes sure the user `name` exists (`useradd -m`) and gives a way to run Deno as them.
 *
 * @throws {Error} when the process is not root or `useradd` fails.
 */
export async function localUser(name: string): Promise<LocalUser> {
  if (!isRoot()) throw new Error(`localUser(${name}): needs root to create users`);
  // Test files run in parallel: another may hold the lock of /etc/passwd (useradd exits 10), or
  // have just created the same user (9).
  for (let attempt = 1;; attempt++) {
    try {
      await run("id", ["-u", name]);
      break;
    } catch {
      try {
        await run("useradd", ["-m", "-s", "/bin/sh", name]);
        break;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  const uid = Number((await run("id", ["-u", name])).trim());
  const home = (await run("getent", ["passwd", name])).split(":")[5];
  const dir = await mkdtemp(join(tmpdir(), "sdk-user-deno-"));
  await chmod(dir, 0o755);
  const deno = join(dir, "deno");
  const source = await realpath(process.execPath);
  try {
    await link(source, deno);
  } catch {
    await copyFile(source, deno);
  }
  await chmod(deno, 0o755);
  return {
    name,
    uid,
    home,
    deno(args, options) {
      return spawn(
        "runuser",
        [
          "-u",
          name,
          "--",
          "env",
          "-i",
          `HOME=${home}`,
          `USER=${name}`,
          "PATH=/usr/local/bin:/usr/bin:/bin",
          ...Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
          deno,
          ...args,
        ],
        { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] },
      );
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
