import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { tokenize } from "./phone_shell.ts";

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
