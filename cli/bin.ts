/**
 * The `sdk` executable: checks the runtime, then runs the command line with the process's
 * arguments and exits with its code. The npm package's `bin` and `deno task sdk` point here.
 *
 * The command line is imported only after the check: a static import would load its modules
 * first, and on Node 20 one of them fails to link (`fs.promises.glob` does not exist there)
 * before any check could run. On a runtime too old, `sdk` prints why and exits with code 2.
 *
 * @module
 */

import process from "node:process";
import { runtimeProblem } from "./runtime_check.ts";

const problem = runtimeProblem();
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 2;
} else {
  const { main } = await import("./main.ts");
  process.exitCode = await main(process.argv.slice(2));
}
