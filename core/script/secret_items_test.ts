import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { runYamlScript } from "./run_yaml.ts";
import type { YamlAgent } from "./yaml_agent.ts";

/** A fake agent recording each aiInput's options. */
function recorder() {
  const inputs: Record<string, unknown>[] = [];
  const agent = new Proxy({} as Record<string, unknown>, {
    get: (_t, name) =>
      name === "then" ? undefined : (_locate: unknown, options: Record<string, unknown>) => {
        if (name === "aiInput") inputs.push(options);
        return Promise.resolve(undefined);
      },
  }) as unknown as YamlAgent;
  return { agent, inputs };
}

const env = (name: string) =>
  ({ LOGIN_PASSWORD: "pw-1", API_TOKEN: "tok-2", LOGIN_USER: "alice", PIN_KEY: "k3" })[name];

test("YAML: an aiInput value read from a variable named like a secret, or marked secret: true, is typed as a secret; others are not", async () => {
  const { agent, inputs } = recorder();
  await runYamlScript(
    agent,
    `tasks:
  - name: sign in
    flow:
      - aiInput: the password field
        value: \${LOGIN_PASSWORD}
      - aiInput: the token field
        value: "Bearer \${API_TOKEN}"
      - aiInput: the user field
        value: \${LOGIN_USER}
      - aiInput: the PIN field
        value: "1234"
        secret: true
      - aiInput: \${PIN_KEY}
        locate: the old-form field
      - aiInput: the note field
        value: "$\${LOGIN_PASSWORD} is a literal"
`,
    { env },
  );
  assert.deepEqual(
    inputs.map((o) => [o.value, o.secret]),
    [
      ["pw-1", true],
      ["Bearer tok-2", true],
      ["alice", undefined],
      ["1234", true],
      ["k3", true],
      ["${LOGIN_PASSWORD} is a literal", undefined],
    ],
  );
});

test("YAML: an aiAct instruction that reads a variable named like a secret passes its value as a secret; others pass none", async () => {
  const acts: Record<string, unknown>[] = [];
  const agent = new Proxy({} as Record<string, unknown>, {
    get: (_t, name) =>
      name === "then" ? undefined : (_prompt: unknown, options: Record<string, unknown>) => {
        if (name === "aiAct") acts.push(options);
        return Promise.resolve(undefined);
      },
  }) as unknown as YamlAgent;
  await runYamlScript(
    agent,
    `tasks:
  - name: t
    flow:
      - aiAct: sign in as \${LOGIN_USER} with \${LOGIN_PASSWORD} and token \${API_TOKEN}
      - ai:
          prompt: use \${LOGIN_PASSWORD} again
      - aiAct: just \${LOGIN_USER}
`,
    { env },
  );
  assert.deepEqual(acts.map((o) => o.secrets), [["pw-1", "tok-2"], ["pw-1"], undefined]);
});

test("YAML: secret must be true or false", async () => {
  const { agent } = recorder();
  await assert.rejects(
    runYamlScript(
      agent,
      "tasks:\n  - name: t\n    flow:\n      - aiInput: a\n        value: b\n        secret: maybe\n",
    ),
    /script\.yaml:6:17: 'secret' of the aiInput item must be/,
  );
});
