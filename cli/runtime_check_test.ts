import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { MIN_NODE_MAJOR, runtimeProblem } from "./runtime_check.ts";

test("runtimeProblem: Node 20 is refused in one line naming both versions; 22 and newer pass", {
  timeout: 5_000,
}, () => {
  assert.equal(MIN_NODE_MAJOR, 22);
  const problem = runtimeProblem({ node: "20.20.2" });
  assert.ok(problem, "Node 20 is refused");
  assert.match(problem, /^sdk needs Node 22 or newer; this is 20\.20\.2\./);
  assert.doesNotMatch(problem, /\n/);
  assert.match(runtimeProblem({ node: "v18.19.0" }) ?? "", /this is v18\.19\.0/);
  for (const node of ["22.0.0", "22.12.1", "24.3.0", "30.0.0"]) {
    assert.equal(runtimeProblem({ node }), undefined, node);
  }
});

test("runtimeProblem: Deno and Bun, which report an older Node version, are not refused", {
  timeout: 5_000,
}, () => {
  assert.equal(runtimeProblem({ node: "20.11.1", deno: "2.9.6" }), undefined);
  assert.equal(runtimeProblem({ node: "20.11.1", bun: "1.2.0" }), undefined);
  assert.equal(runtimeProblem(undefined), undefined);
  // This process: Deno.
  assert.equal(runtimeProblem(), undefined);
});
