/**
 * The `hdc` executable of the hdc front (private to `@sdk/mobilec/testing`): a `#!/bin/sh` script
 * that runs the current runtime (Deno or Node) on a small client, which sends its arguments to
 * the front over 127.0.0.1 and prints what the front answers, with its exit code.
 *
 * @module
 */

import process from "node:process";

/** The client's source: plain ES module JavaScript that runs on Deno and Node alike. */
export function hdcClientSource(port: number, token: string): string {
  return `// The simulator's hdc: forwards its arguments to the hdc front (@sdk/mobilec/testing).
import process from "node:process";
import { Buffer } from "node:buffer";
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

const argv = process.argv.slice(2);
const cwd = process.cwd();
const print = (stream, text) => new Promise((done) => text ? stream.write(text, done) : done());
let send;
// file send: the local file travels with the request (the front has no access to the caller's cwd).
const at = argv.indexOf("file");
if (at >= 0 && argv[at + 1] === "send" && argv.length >= at + 4) {
  try {
    send = Buffer.from(await readFile(resolve(cwd, argv[argv.length - 2]))).toString("base64");
  } catch (error) {
    await print(process.stdout, "[Fail]Error opening file: " + error.message + "\\n");
    process.exit(1);
  }
}
let answer;
try {
  const response = await fetch("http://127.0.0.1:${port}/hdc", {
    method: "POST",
    headers: { "content-type": "application/json", "x-hdc-token": ${JSON.stringify(token)} },
    body: JSON.stringify({ argv, send }),
  });
  answer = await response.json();
} catch (error) {
  await print(process.stdout, "[Fail]Connect server failed: the simulator's hdc front at 127.0.0.1:${port} does not answer (" + error.message + ")\\n");
  process.exit(1);
}
if (answer.write) {
  try {
    await writeFile(resolve(cwd, answer.write.path), Buffer.from(answer.write.data, "base64"));
  } catch (error) {
    await print(process.stdout, "[Fail]Error opening file: " + error.message + ", path:" + answer.write.path + "\\n");
    process.exit(1);
  }
}
await print(process.stdout, answer.stdout);
await print(process.stderr, answer.stderr);
process.exit(answer.code);
`;
}

/**
 * The `hdc` script: `exec`s the running runtime on the client, passing every argument on.
 * Under Deno the client runs with `--allow-all --no-config` (it needs the network and files).
 */
export function hdcScript(clientPath: string): string {
  const runtime = process.execPath;
  const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const runner = isDeno
    ? `${quote(runtime)} run --allow-all --no-config --no-lock --quiet`
    : quote(runtime);
  return `#!/bin/sh\nexec ${runner} ${quote(clientPath)} "$@"\n`;
}
