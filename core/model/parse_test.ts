import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { parseJsonAnswer } from "./parse.ts";
import { ModelResponseError } from "../errors.ts";

test("parseJsonAnswer reads plain, fenced and prose-wrapped objects", async () => {
  assert.deepEqual(await parseJsonAnswer('{"a":1}'), { a: 1 });
  assert.deepEqual(await parseJsonAnswer('Sure:\n```json\n{"a": "}"}\n```\nDone.'), { a: "}" });
  assert.deepEqual(await parseJsonAnswer('<thought>{"no": 1}</thought>{"a": [1, 2]}'), {
    a: [1, 2],
  });
});

test("parseJsonAnswer repairs near-JSON", async () => {
  assert.deepEqual(await parseJsonAnswer("{a: 'x', b: [1, 2,],}"), { a: "x", b: [1, 2] });
});

test("parseJsonAnswer quotes the raw answer when nothing can be read", async () => {
  await assert.rejects(parseJsonAnswer("I cannot help"), (e: unknown) => {
    assert.ok(e instanceof ModelResponseError);
    assert.equal(e.rawResponse, "I cannot help");
    assert.match(e.message, /I cannot help/);
    return true;
  });
});
