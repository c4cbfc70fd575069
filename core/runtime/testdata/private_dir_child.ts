/**
 * Fixture of private_dir_test.ts: makes a private folder (no child process is adopted), prints
 * `dir <path>`, then ends as told by its first argument: `end` (returns), `throw` (an uncaught
 * error), `wait` (until a signal; prints "waiting").
 */

import { privateTempDir } from "../private_dir.ts";

const dir = await privateTempDir("sdk-private-dir-test-");
console.log(`dir ${dir.path}`);
const mode = Deno.args[0];
if (mode === "throw") {
  setTimeout(() => {
    throw new Error("boom");
  }, 50);
} else if (mode === "wait") {
  setInterval(() => {}, 1000);
  console.log("waiting");
}
