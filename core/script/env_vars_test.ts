import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { interpolateEnvVars } from "./env_vars.ts";

const env = (vars: Record<string, string>) => (name: string) =>
  Object.hasOwn(vars, name) ? vars[name] : undefined;

test("interpolateEnvVars() replaces ${NAME} and lists the names read", () => {
  const r = interpolateEnvVars(
    "as ${USER_1} at ${HOST}/${USER_1}",
    env({ USER_1: "al", HOST: "h" }),
  );
  assert.deepEqual(r, { value: "as al at h/al", used: ["USER_1", "HOST"], missing: [] });
});

test("interpolateEnvVars() keeps $${NAME} as the literal ${NAME} without reading it", () => {
  const r = interpolateEnvVars("`$${a}-${B}`", env({ B: "b" }));
  assert.deepEqual(r, { value: "`${a}-b`", used: ["B"], missing: [] });
});

test("interpolateEnvVars() leaves other uses of $ alone", () => {
  const text = "${a + 1} $HOME ${} ${1X} price $5";
  assert.deepEqual(interpolateEnvVars(text, env({})), { value: text, used: [], missing: [] });
});

test("interpolateEnvVars() lists variables that are not set; an empty one is set", () => {
  const r = interpolateEnvVars("${A}${EMPTY}${B}${A}", env({ EMPTY: "" }));
  assert.deepEqual(r, { value: "", used: ["A", "EMPTY", "B"], missing: ["A", "B"] });
});
