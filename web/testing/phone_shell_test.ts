import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { runShell, type ShellCommandIo, tokenize } from "./phone_shell.ts";
import { TOYBOX_COMMANDS } from "./toybox.ts";
import type { VirtualPhone } from "./virtual_phone.ts";

test("tokenize: quotes, backslashes, operators and fd redirections as sh reads them", () => {
  assert.deepEqual(tokenize(`input text 'a b'"c\\"d" e\\ f`), [
    { word: "input" },
    { word: "text" },
    { word: 'a bc"d' },
    { word: "e f" },
  ]);
  assert.deepEqual(tokenize("a&&b||c;d|e 2>/dev/null 2>&1"), [
    { word: "a" },
    { op: "&&" },
    { word: "b" },
    { op: "||" },
    { word: "c" },
    { op: ";" },
    { word: "d" },
    { op: "|" },
    { word: "e" },
    { op: "2>" },
    { word: "/dev/null" },
    { op: "2>&" },
    { word: "1" },
  ]);
  assert.throws(() => tokenize("echo 'open"), SyntaxError);
});

test("while and until loop until their condition ends them, or until the host kills the shell", async () => {
  let count = 0;
  const device = {
    phone: {} as VirtualPhone,
    files: new Map<string, Uint8Array>(),
    commands: {
      ...TOYBOX_COMMANDS,
      // Succeeds twice, then fails.
      next: (_args: string[], io: ShellCommandIo) => {
        io.stdout(`${++count}\n`);
        return Promise.resolve(count <= 2 ? 0 : 1);
      },
    },
  };
  let out = "";
  const write = (data: Uint8Array | string) =>
    out += typeof data === "string" ? data : new TextDecoder().decode(data);
  const run = (line: string, killed?: Promise<void>) =>
    runShell(line, device, { stdout: write, stderr: write, killed });
  assert.equal(await run("echo a; while next; do echo body; done && echo after"), 0);
  assert.equal(out, "a\n1\nbody\n2\nbody\n3\nafter\n");
  out = "";
  assert.equal(await run("until true; do echo never; done; until false; do exit 5; done"), 5);
  assert.equal(out, "");
  // adbkit's waitBootComplete: a loop that only ends when the host closes the stream.
  let kill!: () => void;
  const killed = new Promise<void>((resolve) => kill = resolve);
  const looping = run("while true; do echo 1; sleep 1; done", killed);
  while (out === "") await new Promise((resolve) => setTimeout(resolve, 5));
  kill();
  assert.equal(await looping, 0);
  assert.equal(out, "1\n");
  out = "";
  assert.equal(await run("while true; do echo x"), 2);
  assert.match(out, /syntax error: 'while' without do \.\.\. done/);
});
