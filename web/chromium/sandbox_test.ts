import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { CHROMIUM_ARGS, chromiumSandbox, NO_SANDBOX_ENV } from "./launch.ts";

const user = { uid: 1000, env: {} };
const root = { uid: 0, env: {} };

test("a user who is not root keeps the sandbox, without a word", () => {
  assert.deepEqual(chromiumSandbox({}, user), { sandbox: true, warning: undefined });
  assert.deepEqual(chromiumSandbox({ sandbox: true }, user), { sandbox: true, warning: undefined });
  // No uid (Windows): the sandbox stays.
  assert.deepEqual(chromiumSandbox({}, { env: {} }), { sandbox: true, warning: undefined });
});

test("root cannot sandbox: off, with a warning that says why and how to say so on purpose", () => {
  const { sandbox, warning } = chromiumSandbox({}, root);
  assert.equal(sandbox, false);
  assert.match(warning ?? "", /root/);
  assert.match(warning ?? "", /sandbox/);
  assert.match(warning ?? "", new RegExp(NO_SANDBOX_ENV));
});

test("the opt-outs: sandbox: false or SDK_CHROMIUM_NO_SANDBOX=1, for anyone, without a warning", () => {
  for (const facts of [user, root]) {
    assert.deepEqual(chromiumSandbox({ sandbox: false }, facts), {
      sandbox: false,
      warning: undefined,
    });
    assert.deepEqual(
      chromiumSandbox({}, { ...facts, env: { [NO_SANDBOX_ENV]: "1" } }),
      { sandbox: false, warning: undefined },
    );
  }
  // Only "1" opts out; the option wins over the variable.
  assert.equal(chromiumSandbox({}, { ...user, env: { [NO_SANDBOX_ENV]: "0" } }).sandbox, true);
  assert.equal(
    chromiumSandbox({ sandbox: true }, { ...user, env: { [NO_SANDBOX_ENV]: "1" } }).sandbox,
    true,
  );
});

test("the flags every launch gets leave the sandbox alone", () => {
  assert.ok(!CHROMIUM_ARGS.includes("--no-sandbox"));
});
