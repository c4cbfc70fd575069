import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { ContextStore } from "./context.ts";

test("per-call context outranks the API context, which outranks the default", () => {
  const s = new ContextStore({ aiContexts: { default: "D", aiTap: "T" } });
  assert.equal(s.resolve("aiTap", "C"), "C");
  assert.equal(s.resolve("aiTap"), "T");
  assert.equal(s.resolve("aiQuery"), "D");
});

test("an empty string is a defined value that clears lower layers", () => {
  const s = new ContextStore({ aiContexts: { default: "D", aiQuery: "" } });
  assert.equal(s.resolve("aiQuery"), "");
  assert.equal(s.resolve("aiTap", ""), "");
  assert.equal(s.resolve("aiTap", undefined), "D");
});

test("aiContexts.aiAct outranks aiActContext, which outranks aiActionContext", () => {
  assert.equal(
    new ContextStore({ aiContexts: { aiAct: "new" }, aiActContext: "mid", aiActionContext: "old" })
      .resolve("aiAct"),
    "new",
  );
  assert.equal(
    new ContextStore({ aiActContext: "mid", aiActionContext: "old" }).resolve("aiAct"),
    "mid",
  );
  assert.equal(new ContextStore({ aiActionContext: "old" }).resolve("aiAct"), "old");
  assert.equal(new ContextStore({ aiActContext: "", aiActionContext: "old" }).resolve("aiAct"), "");
});

test("set: '' blocks the default for an API, undefined removes the override", () => {
  const s = new ContextStore({ aiContexts: { default: "D" } });
  s.set("aiTap", "");
  assert.equal(s.resolve("aiTap"), "");
  s.set("aiTap", undefined);
  assert.equal(s.resolve("aiTap"), "D");
  s.set("default", undefined);
  assert.equal(s.resolve("aiTap"), undefined);
});

test("the aiAct context never reaches instant actions", () => {
  const s = new ContextStore({ aiActContext: "act only" });
  s.set("aiAct", "replaced");
  assert.equal(s.resolve("aiAct"), "replaced");
  assert.equal(s.resolve("aiTap"), undefined);
});
