/**
 * The `sdk` executable: runs the command line with the process's arguments and exits with its
 * code. The npm package's `bin` and `deno task sdk` point here.
 *
 * @module
 */

import process from "node:process";
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
