/// <reference lib="dom" />
/**
 * Input strategies and typing delays (spec 4.2, rules for `aiInput` 2-5; spec 4.7), on both
 * drivers, read back from the input and keydown events the page recorded (input.html).
 */
import assert from "node:assert/strict";
import type { WebPageAgentOptions } from "@sdk/web";
import { driverTest } from "./_drivers.ts";
import type { E2e, E2ePage } from "./_drivers.ts";

interface InputEvent {
  inputType: string;
  data: string | null;
  value: string;
}

interface Keydown {
  key: string;
  t: number;
}

/** input.html with an agent whose model locates the message field. */
async function setUp(e2e: E2e, options: WebPageAgentOptions = {}) {
  const page = await e2e.open("input.html");
  const { agent, model } = await e2e.agent(page, {
    locate: () => page.measure("#message"),
  }, options);
  return { page, agent, model };
}

function inputs(page: E2ePage): Promise<InputEvent[]> {
  return page.state<InputEvent[]>("inputs");
}

async function keydownGaps(page: E2ePage): Promise<number[]> {
  const downs = await page.state<Keydown[]>("keydowns");
  return downs.slice(1).map((d, i) => d.t - downs[i].t);
}

driverTest(
  "bulk input replaces the value with exactly one insertText event and no key presses",
  async (e2e) => {
    const { page, agent } = await setUp(e2e);
    const text = "héllo wörld 😀";
    await agent.aiInput("the message field", { value: text, inputStrategy: "bulk" });
    assert.equal(await page.inputValue("#message"), text);
    assert.deepEqual(await inputs(page), [{ inputType: "insertText", data: text, value: text }]);
    assert.deepEqual(await page.state("keydowns"), []);

    // typeOnly inserts at the end, again as one event.
    await agent.aiInput("the message field", {
      value: " ok",
      mode: "typeOnly",
      inputStrategy: "bulk",
    });
    assert.equal(await page.inputValue("#message"), `${text} ok`);
    assert.equal((await inputs(page)).length, 2);
  },
);

driverTest(
  "sequential input enters 'a😀b' as three insertions in order, from the action or the agent default",
  async (e2e) => {
    const { page, agent } = await setUp(e2e);
    await agent.aiInput("the message field", { value: "a😀b", inputStrategy: "sequential" });
    assert.equal(await page.inputValue("#message"), "a😀b");
    const events = await inputs(page);
    assert.deepEqual(events.map((e) => e.data), ["a", "😀", "b"]);
    assert.ok(events.every((e) => e.inputType === "insertText"), JSON.stringify(events));
    // The first insertion replaced the old value (it was selected first).
    assert.equal(events[0].value, "a");

    const { page: page2, agent: agent2 } = await setUp(e2e, { inputStrategy: "sequential" });
    await agent2.aiInput("the message field", { value: "a😀b" });
    assert.deepEqual((await inputs(page2)).map((e) => e.data), ["a", "😀", "b"]);
  },
);

driverTest(
  "a per-action keyboardTypeDelay of 40 ms spaces key presses at least ~35 ms apart",
  async (e2e) => {
    for (const inputStrategy of ["legacy", "sequential"] as const) {
      const { page, agent } = await setUp(e2e);
      await agent.aiInput("the message field", {
        value: "abcd",
        keyboardTypeDelay: 40,
        inputStrategy,
      });
      assert.equal(await page.inputValue("#message"), "abcd");
      const gaps = await keydownGaps(page);
      assert.equal(gaps.length, 3, `${inputStrategy}: four key presses`);
      assert.ok(Math.min(...gaps) >= 35, `${inputStrategy}: keydown gaps ${gaps.join(", ")} ms`);
    }
  },
);

driverTest(
  "keyboardTypeDelay: 0 on the action allows bulk over a positive agent default, which bulk alone rejects before typing",
  async (e2e) => {
    const { page, agent } = await setUp(e2e, { keyboardTypeDelay: 40 });
    await assert.rejects(
      agent.aiInput("the message field", { value: "xyz", inputStrategy: "bulk" }),
      /inputStrategy 'bulk' as 'keyboardTypeDelay' must be 0 or unset: current value is 40 \(the delay is the device's default: give keyboardTypeDelay: 0 with the action\)/,
    );
    assert.equal(await page.inputValue("#message"), "old text");
    assert.deepEqual(await inputs(page), []);

    await agent.aiInput("the message field", {
      value: "xyz",
      inputStrategy: "bulk",
      keyboardTypeDelay: 0,
    });
    assert.equal(await page.inputValue("#message"), "xyz");
    assert.deepEqual((await inputs(page)).map((e) => e.inputType), ["insertText"]);
  },
);

driverTest(
  "bulk with a delay above 0 and invalid delays or strategies reject before any model call or typing",
  async (e2e) => {
    const { page, agent, model } = await setUp(e2e);
    await assert.rejects(
      agent.aiInput("the message field", {
        value: "xyz",
        inputStrategy: "bulk",
        keyboardTypeDelay: 10,
      }),
      /inputStrategy 'bulk' as 'keyboardTypeDelay' must be 0 or unset: current value is 10/,
    );
    for (const keyboardTypeDelay of [-1, NaN, Infinity]) {
      await assert.rejects(
        agent.aiInput("the message field", { value: "xyz", keyboardTypeDelay }),
        new RegExp(
          `'keyboardTypeDelay' must be a finite number >= 0: current value is ${
            String(keyboardTypeDelay)
          }`,
        ),
      );
    }
    await assert.rejects(
      agent.aiInput("the message field", {
        value: "xyz",
        inputStrategy: "fast" as "bulk",
      }),
      /'inputStrategy' must be 'legacy', 'sequential' or 'bulk': current value is "fast"/,
    );
    assert.equal(model.calls.length, 0);
    assert.equal(await page.inputValue("#message"), "old text");
    assert.deepEqual(await inputs(page), []);

    // The same rules hold for the agent's defaults, at construction.
    await assert.rejects(
      e2e.agent(page, {}, { inputStrategy: "bulk", keyboardTypeDelay: 5 }),
      /'keyboardTypeDelay' must be 0 or unset: current value is 5/,
    );
    await assert.rejects(
      e2e.agent(page, {}, { keyboardTypeDelay: -3 }),
      /'keyboardTypeDelay' must be a finite number >= 0: current value is -3/,
    );
  },
);
