/**
 * `--dotenv`: environment variables from a file, read before a run (the `dotenv` package parses
 * it). Variables already set in the environment win, as with `dotenv` itself.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { CliUsageError } from "./args.ts";

/**
 * Reads `file` and sets each of its variables that the environment does not have yet.
 *
 * @param required whether a missing file is an error (`--dotenv` given) or skipped (the default
 *   `.env`).
 * @returns the names of the variables set.
 * @throws {CliUsageError} when a required file cannot be read.
 */
export async function loadDotenv(
  file: string,
  required: boolean,
  env: { get(name: string): string | undefined; set(name: string, value: string): void },
): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if (!required && (e as { code?: string }).code === "ENOENT") return [];
    throw new CliUsageError(`cannot read the dotenv file ${file}: ${(e as Error).message}`);
  }
  const { parse } = await import("dotenv");
  const set: string[] = [];
  for (const [name, value] of Object.entries(parse(text))) {
    if (env.get(name) === undefined) {
      env.set(name, value);
      set.push(name);
    }
  }
  return set;
}
