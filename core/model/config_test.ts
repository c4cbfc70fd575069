import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { checkModelConfigKeys, resolveIntentConfig } from "./config.ts";
import { ModelConfigError } from "../errors.ts";
import process from "node:process";

const base = {
  SDK_MODEL_NAME: "m-default",
  SDK_MODEL_BASE_URL: "http://127.0.0.1:1/v1",
  SDK_MODEL_API_KEY: "k-default",
};

function withEnv(vars: Record<string, string | undefined>, fn: () => void) {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

test("resolveIntentConfig reads the default keys from modelConfig", () => {
  const c = resolveIntentConfig("default", base);
  assert.equal(c.modelName, "m-default");
  assert.equal(c.baseURL, "http://127.0.0.1:1/v1");
  assert.equal(c.apiKey, "k-default");
  assert.equal(c.family.name, "default");
});

test("an intent with its own NAME uses its keys and falls back to default ones for the rest", () => {
  const c = resolveIntentConfig("planning", {
    ...base,
    SDK_PLANNING_MODEL_NAME: "m-plan",
    SDK_PLANNING_MODEL_FAMILY: "gemini",
  });
  assert.equal(c.modelName, "m-plan");
  assert.equal(c.apiKey, "k-default");
  assert.equal(c.family.name, "gemini");
  // Without its own NAME, the intent's other keys are ignored.
  const d = resolveIntentConfig("insight", { ...base, SDK_INSIGHT_MODEL_API_KEY: "k-ins" });
  assert.equal(d.modelName, "m-default");
  assert.equal(d.apiKey, "k-default");
});

test("modelConfig wins wholly over environment variables", () => {
  withEnv({ SDK_MODEL_NAME: "env-model", SDK_MODEL_FAMILY: "gemini" }, () => {
    const c = resolveIntentConfig("default", base);
    assert.equal(c.modelName, "m-default");
    assert.equal(c.family.name, "default");
  });
});

test("the environment is read when no modelConfig is given", () => {
  withEnv({ ...base, SDK_MODEL_FAMILY: "qwen2.5-vl" }, () => {
    const c = resolveIntentConfig("default");
    assert.equal(c.modelName, "m-default");
    assert.equal(c.family.name, "qwen2.5-vl");
    assert.equal(c.family.padToMultipleOf, 28);
  });
});

test("a missing configuration names the variables to set", () => {
  withEnv({
    SDK_MODEL_NAME: undefined,
    SDK_MODEL_BASE_URL: undefined,
    SDK_MODEL_API_KEY: undefined,
  }, () => {
    assert.throws(() => resolveIntentConfig("default"), (e: unknown) => {
      assert.ok(e instanceof ModelConfigError);
      assert.match(e.message, /SDK_MODEL_NAME, SDK_MODEL_BASE_URL, SDK_MODEL_API_KEY are not set/);
      assert.match(e.message, /modelConfig/);
      return true;
    });
  });
  assert.throws(
    () => resolveIntentConfig("default", { ...base, SDK_MODEL_API_KEY: "" }),
    /SDK_MODEL_API_KEY is not set/,
  );
});

test("an invalid base URL or family is rejected with the key and the accepted values", () => {
  assert.throws(
    () => resolveIntentConfig("default", { ...base, SDK_MODEL_BASE_URL: "localhost:8000" }),
    /SDK_MODEL_BASE_URL must be an http\(s\) URL.*"localhost:8000"/,
  );
  assert.throws(
    () => resolveIntentConfig("default", { ...base, SDK_MODEL_FAMILY: "qwen9" }),
    /Unknown model family "qwen9" in SDK_MODEL_FAMILY\. Accepted values: qwen3-vl, qwen2\.5-vl, gemini/,
  );
});

test("checkModelConfigKeys names a misspelt modelConfig key with the closest known key", () => {
  assert.throws(
    () => checkModelConfigKeys({ SDK_MODEL_NAM: "m", SDK_MODEL_BASE_URL: "http://x/v1" }),
    (e: unknown) => {
      assert.ok(e instanceof ModelConfigError);
      assert.equal(e.code, "MODEL_CONFIG_INVALID");
      assert.match(e.message, /'SDK_MODEL_NAM' \(did you mean 'SDK_MODEL_NAME'\?\)/);
      return true;
    },
  );
  assert.throws(
    () => checkModelConfigKeys({ SDK_PLAYGROUND_HOST: "0.0.0.0" }),
    /'SDK_PLAYGROUND_HOST'.*runtime variables \(SDK_PLAYGROUND_HOST, SDK_RUN_DIR, DEBUG, \.\.\.\) are read from the environment only/,
  );
  assert.throws(() => checkModelConfigKeys("SDK_MODEL_NAME=x"), TypeError);
  checkModelConfigKeys({ SDK_MODEL_NAME: "m", SDK_INSIGHT_MODEL_FAMILY: "qwen3-vl" });
  checkModelConfigKeys(undefined);
});
