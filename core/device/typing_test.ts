import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { typeCodePoints } from "./typing.ts";

test("typeCodePoints sends one code point per call, an emoji whole", async () => {
  const sent: string[] = [];
  await typeCodePoints("aé😀b", 0, undefined, (cp) => Promise.resolve(sent.push(cp)));
  assert.deepEqual(sent, ["a", "é", "😀", "b"]);
  await typeCodePoints("", 50, undefined, (cp) => Promise.resolve(sent.push(cp)));
  assert.equal(sent.length, 4);
});

test("typeCodePoints pauses between sends, not before the first", async () => {
  const at: number[] = [];
  const start = performance.now();
  await typeCodePoints("abc", 30, undefined, () => Promise.resolve(at.push(performance.now())));
  assert.ok(at[0] - start < 25, `first send after ${at[0] - start} ms`);
  assert.ok(at[1] - at[0] >= 25 && at[2] - at[1] >= 25, `gaps ${at[1] - at[0]}, ${at[2] - at[1]}`);
});

test("typeCodePoints stops at the next code point once aborted, without a delay too", async () => {
  const controller = new AbortController();
  const sent: string[] = [];
  await assert.rejects(
    typeCodePoints("abc", 0, controller.signal, (cp) => {
      sent.push(cp);
      if (cp === "a") controller.abort(new Error("stopped"));
      return Promise.resolve();
    }),
    /stopped/,
  );
  assert.deepEqual(sent, ["a"]);
});

test("typeCodePoints ends a pause early when aborted", async () => {
  const controller = new AbortController();
  const sent: string[] = [];
  const start = performance.now();
  const typing = typeCodePoints("ab", 5_000, controller.signal, (cp) => {
    sent.push(cp);
    return Promise.resolve();
  });
  setTimeout(() => controller.abort(new Error("stopped")), 20);
  await assert.rejects(typing, /stopped/);
  assert.deepEqual(sent, ["a"]);
  assert.ok(performance.now() - start < 2_000);
});
