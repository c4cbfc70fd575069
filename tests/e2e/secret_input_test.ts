/**
 * Secrets typed on screen (docs/security.md): a password typed into an `input[type=password]`,
 * by `aiInput` and by a plan of `aiAct`, and a value typed with `secret: true`, reach the page as
 * given and are `***` in the report, the run log, the plan cache and the history the model reads.
 */

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { runLog } from "@sdk/core";
import type { PlanCall, TestModelScript } from "@sdk/core/testing";
import { driverTest, type E2ePage } from "./_drivers.ts";

const runDir = await Deno.makeTempDir({ prefix: "sdk_secret_e2e_" });
Deno.env.set("SDK_RUN_DIR", runDir);

const PASSWORD = "Hunter2-correct-horse";
const SHORT = "pw9";
const TOKEN = "tok-0123-ABCD";

/** Sign in on login.html: the user name, then the password, then done. */
function script(page: E2ePage, password: string): TestModelScript {
  return {
    locate: ({ target }) =>
      /password/i.test(target)
        ? page.measure("#password")
        : /user/i.test(target)
        ? page.measure("#username")
        : Promise.resolve(null),
    plan: async ({ history }: PlanCall) =>
      history.length === 0
        ? {
          log: "Type the user name",
          action: {
            type: "Input",
            param: {
              locate: { prompt: "the username field", box: await page.measure("#username") },
              value: "alice",
            },
          },
        }
        : history.length === 1
        ? {
          log: `Type ${password} into the password field`,
          action: {
            type: "Input",
            param: {
              locate: { prompt: "the password field", box: await page.measure("#password") },
              value: password,
            },
          },
        }
        : { log: "done", finished: true, output: "signed in" },
  };
}

/** Every place a typed secret could be written, as text. */
async function written(agentReport: string | null | undefined, cacheFile: string) {
  await runLog().ready;
  runLog().flush();
  return {
    report: agentReport ? await readFile(agentReport, "utf8") : "",
    cache: await readFile(cacheFile, "utf8").catch(() => ""),
    log: await readFile(runLog().file!, "utf8"),
  };
}

driverTest(
  "a password typed into a password field (aiInput, and a plan of aiAct) is typed as given and *** in the report, the run log, the cache and the model's history",
  async (e2e) => {
    const cacheDir = await Deno.makeTempDir();
    const page = await e2e.open("login.html");
    const { agent } = await e2e.agent(page, script(page, PASSWORD), {
      cache: { id: `secret-${e2e.driver}`, cacheDir },
      generateReport: true,
    });
    await agent.aiInput("the password field", { value: PASSWORD });
    assert.equal(await page.inputValue("#password"), PASSWORD, "typed as given");
    // An exported script reads it from a variable it names, never holds it.
    const exported = await agent.exportScript(`${cacheDir}/exported.yaml`);
    assert.ok(!exported.text.includes(PASSWORD), exported.text);
    assert.match(exported.text, /value: \$\{TYPED_SECRET_1\}/);
    assert.match(exported.text, /TYPED_SECRET_1/);
    await agent.destroy();
    const first = await written(agent.reportFile, "/nonexistent");
    assert.ok(first.report.includes("***"), "the report shows ***");
    for (const [where, text] of Object.entries(first)) {
      assert.ok(!text.includes(PASSWORD), `aiInput: the password is in the ${where}`);
    }

    // A fresh agent learns the password only when its plan types it into the field: the model's
    // answer that holds it was logged before, and is cut too.
    const other = `${PASSWORD}-2`;
    const page2 = await e2e.open("login.html");
    const second = await e2e.agent(page2, script(page2, other), {
      cache: { id: `secret-${e2e.driver}`, cacheDir },
      generateReport: true,
    });
    assert.equal(await second.agent.aiAct("sign in as alice"), "signed in");
    assert.equal(await page2.inputValue("#password"), other);
    assert.equal(await page2.inputValue("#username"), "alice");
    // The model's history after the password step holds no password.
    const plans = second.model.calls.filter((c) => c.kind === "plan");
    assert.equal(plans.length, 3);
    const third = (plans[2].call as PlanCall).history.join("\n");
    assert.match(third, /Type \*\*\* into the password field/, third);
    assert.ok(!JSON.stringify(plans[2].request).includes(other), "history sent to the model");
    assert.ok(!JSON.stringify(second.agent._unstableLogContent()).includes(other));
    await second.agent.destroy();
    const out = await written(
      second.agent.reportFile,
      `${cacheDir}/secret-${e2e.driver}.cache.yaml`,
    );
    assert.ok(out.report.length > 0, "a report was written");
    for (const [where, text] of Object.entries(out)) {
      assert.ok(!text.includes(other), `aiAct: the password is in the ${where}`);
    }
    // The plan that typed the password is not cached (written as ***, it could not replay); the
    // locations are.
    assert.ok(!out.cache.includes("sign in as alice"), out.cache);
    assert.match(out.cache, /the password field/);
  },
);

driverTest(
  "secret: true makes any typed value a secret, a short one included; a plain field's plain value stays",
  async (e2e) => {
    const page = await e2e.open("login.html");
    const { agent } = await e2e.agent(page, script(page, PASSWORD), { generateReport: true });
    await agent.aiInput("the username field", { value: TOKEN, secret: true });
    assert.equal(await page.inputValue("#username"), TOKEN);
    await agent.aiInput("the password field", { value: SHORT });
    assert.equal(await page.inputValue("#password"), SHORT);
    await agent.aiInput("the username field", { value: "bob-plain-name" });
    const records = agent._unstableLogContent().executions.map((e) =>
      (e.steps.find((s) => s.kind === "Action")?.param as { value?: string } | undefined)?.value
    );
    assert.deepEqual(records, ["***", "***", "bob-plain-name"]);
    await agent.destroy();
    const out = await written(agent.reportFile, "/nonexistent");
    assert.ok(!out.report.includes(TOKEN) && !out.log.includes(TOKEN));
    assert.ok(out.report.includes("bob-plain-name"));
    await assert.rejects(
      // @ts-expect-error: a wrong type on purpose
      agent.aiInput("the username field", { value: "x", secret: "yes" }),
      /'secret' must be a boolean/,
    );
  },
);

driverTest(
  "aiAct { secrets }: a secret of the instruction is *** from the start of the call, in the run log's first line, the report, the history and the cache, wherever it is typed",
  async (e2e) => {
    const cacheDir = await Deno.makeTempDir();
    const secret = "instr-Secret-9876";
    const page = await e2e.open("login.html");
    // The plan types it into the plain user field: the instruction said it is a secret.
    const base = script(page, "unused");
    const { agent, model } = await e2e.agent(page, {
      ...base,
      plan: async ({ history }: PlanCall) =>
        history.length === 0
          ? {
            log: `Type ${secret} as the user name`,
            action: {
              type: "Input",
              param: {
                locate: { prompt: "the username field", box: await page.measure("#username") },
                value: secret,
              },
            },
          }
          : { log: "done", finished: true, output: "typed" },
    }, { cache: { id: `instr-${e2e.driver}`, cacheDir }, generateReport: true });
    const instruction = `type ${secret} into the user name`;
    assert.equal(await agent.aiAct(instruction, { secrets: [secret] }), "typed");
    assert.equal(await page.inputValue("#username"), secret);
    const plans = model.calls.filter((c) => c.kind === "plan");
    assert.ok(!(plans[1].call as PlanCall).history.join("\n").includes(secret));
    await agent.destroy();
    const out = await written(agent.reportFile, `${cacheDir}/instr-${e2e.driver}.cache.yaml`);
    for (const [where, text] of Object.entries(out)) {
      assert.ok(!text.includes(secret), `the secret is in the ${where}`);
    }
    await assert.rejects(
      // @ts-expect-error: a wrong type on purpose
      e2e.pageAgent(page).aiAct("x", { secrets: "no" }),
      /'secrets' must be an array of strings/,
    );
  },
);
