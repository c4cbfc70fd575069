/**
 * Fixture of children_test.ts: adopts a `sleep` child, prints its pid, then ends as told by its
 * first argument: `end` (returns), `hold` (waits, through holdOpen, for a second child that exits
 * after 300 ms, then prints "held"), `deno-exit`, `process-exit`, `throw`, `reject`, `wait` (until
 * a signal), `wait-listening` (a SIGTERM listener of its own that exits with 7 after 100 ms).
 */

import process from "node:process";
import { spawn } from "node:child_process";
import { adoptChild, holdOpen } from "../children.ts";

const mode = Deno.args[0];
const child = spawn("sleep", ["300"], { stdio: ["ignore", "pipe", "pipe"] });
adoptChild(child);
console.log(`pid ${child.pid}`);

if (mode === "hold") {
  const short = spawn("sleep", ["0.3"], { stdio: "ignore" });
  adoptChild(short);
  await holdOpen(new Promise((resolve) => short.once("exit", resolve)));
  console.log("held");
} else if (mode === "deno-exit") {
  setTimeout(() => Deno.exit(3), 50);
} else if (mode === "process-exit") {
  setTimeout(() => process.exit(4), 50);
} else if (mode === "throw") {
  setTimeout(() => {
    throw new Error("boom");
  }, 50);
} else if (mode === "reject") {
  setTimeout(() => Promise.reject(new Error("rejected")), 50);
} else if (mode === "wait" || mode === "wait-listening") {
  if (mode === "wait-listening") {
    process.on("SIGTERM", () => setTimeout(() => process.exit(7), 100));
  }
  setInterval(() => {}, 1000);
  console.log("waiting");
}
