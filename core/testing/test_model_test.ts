import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { createTestPng, startTestModel } from "./mod.ts";
import type { TestModel, TestModelFamily, TestModelOptions } from "./mod.ts";

const SYSTEM = {
  plan:
    "You are a UI automation planner.\nActions:\n- Tap: taps an element\n  - locate (locate, required): the element",
  locate: "You are a UI element locator.\nAnswer with a bbox.",
  extract: "You are a UI data extractor.\nAnswer with data.",
  assert: "You are a UI assertion checker.\nAnswer with pass.",
};

/** Images are made once per size; the server only reads their header. */
const images = new Map<string, Promise<string>>();
function png(width: number, height: number): Promise<string> {
  const key = `${width}x${height}`;
  if (!images.has(key)) images.set(key, createTestPng(width, height));
  return images.get(key)!;
}

async function userMessage(
  text: string,
  size: [number, number] | null,
): Promise<OpenAI.Chat.ChatCompletionUserMessageParam> {
  if (!size) return { role: "user", content: [{ type: "text", text }] };
  return {
    role: "user",
    content: [
      { type: "image_url", image_url: { url: await png(size[0], size[1]) } },
      { type: "text", text: `${text}\nThe screenshot is ${size[0]} x ${size[1]} pixels.` },
    ],
  };
}

function clientFor(model: TestModel, apiKey = model.apiKey): OpenAI {
  return new OpenAI({ baseURL: model.baseURL, apiKey, maxRetries: 2 });
}

async function ask(
  model: TestModel,
  system: string,
  text: string,
  size: [number, number] | null,
): Promise<string> {
  const completion = await clientFor(model).chat.completions.create({
    model: model.modelName,
    temperature: 0,
    messages: [{ role: "system", content: system }, await userMessage(text, size)],
  });
  return completion.choices[0].message.content ?? "";
}

async function withModel(
  options: TestModelOptions,
  run: (model: TestModel) => void | Promise<void>,
): Promise<void> {
  const model = await startTestModel(options);
  try {
    await run(model);
  } finally {
    await model.close();
  }
}

// A 1000 x 500 screenshot of a 1000 x 500 page (scale 1); the box is x 100-300, y 50-150 px.
// Normalized: x1 = round(100 * 1000 / 999) = 100, x2 = round(300 * 1000 / 999) = round(300.3) = 300,
//             y1 = round(50 * 1000 / 499) = round(100.2) = 100, y2 = round(150 * 1000 / 499) = round(300.6) = 301.
// qwen2.5-vl is sent the image padded to multiples of 28: 1008 x 504, and answers in pixels.
const SMALL_BOX = { left: 100, top: 50, width: 200, height: 100 };
const SMALL_CASES: Array<[TestModelFamily, [number, number], number[]]> = [
  ["default", [1000, 500], [100, 100, 300, 301]],
  ["qwen3-vl", [1000, 500], [100, 100, 300, 301]],
  ["gemini", [1000, 500], [100, 100, 301, 300]],
  ["qwen2.5-vl", [1008, 504], [100, 50, 300, 150]],
];

// A 1280 x 800 screenshot of a 640 x 400 page (device pixel ratio 2); the box at CSS 320,200 of
// 64 x 32 is 640-768 x 400-464 in image pixels.
// Normalized: x1 = round(640000 / 1279) = round(500.39) = 500, x2 = round(768000 / 1279) = round(600.47) = 600,
//             y1 = round(400000 / 799) = round(500.63) = 501, y2 = round(464000 / 799) = round(580.73) = 581.
// qwen2.5-vl: 1280 x 800 padded to 1288 x 812, scale given as imagePixelsPerCssPixel 2.
const LARGE_BOX = { left: 320, top: 200, width: 64, height: 32 };
const LARGE_CASES: Array<[TestModelFamily, [number, number], number[]]> = [
  ["default", [1280, 800], [500, 501, 600, 581]],
  ["qwen3-vl", [1280, 800], [500, 501, 600, 581]],
  ["gemini", [1280, 800], [501, 500, 581, 600]],
  ["qwen2.5-vl", [1288, 812], [640, 400, 768, 464]],
];

for (const [family, size, expected] of SMALL_CASES) {
  test(`startTestModel() answers a locate call in the ${family} format (1000 x 500, scale 1)`, async () => {
    await withModel({
      family,
      viewport: { width: 1000, height: 500 },
      script: { locate: () => SMALL_BOX },
    }, async (model) => {
      const answer = JSON.parse(
        await ask(model, SYSTEM.locate, "<target>\nthe box\n</target>", size),
      );
      assert.deepEqual(answer.bbox, expected);
      assert.equal(typeof answer.thought, "string");
      assert.equal(model.calls[0].kind, "locate");
      assert.equal(model.calls[0].call?.kind === "locate" && model.calls[0].call.target, "the box");
      const image = model.calls[0].call?.image;
      assert.deepEqual(
        image && { width: image.width, height: image.height, format: image.format },
        { width: size[0], height: size[1], format: "png" },
      );
      assert.ok(image!.bytes > 0);
    });
  });
}

for (const [family, size, expected] of LARGE_CASES) {
  test(`startTestModel() answers a locate call in the ${family} format (1280 x 800, dpr 2)`, async () => {
    const options: TestModelOptions = family === "qwen2.5-vl"
      ? { family, imagePixelsPerCssPixel: 2, script: { locate: () => LARGE_BOX } }
      : {
        family,
        viewport: () => ({ width: 640, height: 400 }),
        script: { locate: () => LARGE_BOX },
      };
    await withModel(options, async (model) => {
      const answer = JSON.parse(
        await ask(model, SYSTEM.locate, "<target>\nthe box\n</target>", size),
      );
      assert.deepEqual(answer.bbox, expected);
    });
  });
}

for (const [family, size, expected] of LARGE_CASES) {
  test(`startTestModel() rewrites a planned locate box to the ${family} bbox and keeps other params`, async () => {
    await withModel({
      family,
      imagePixelsPerCssPixel: 2,
      script: {
        plan: (call) => ({
          log: `step ${call.history.length + 1}`,
          action: {
            type: "Input",
            param: {
              locate: { prompt: "the field", box: LARGE_BOX },
              value: "alice",
              mode: "replace",
            },
          },
        }),
      },
    }, async (model) => {
      const text =
        "<instruction>\ntype alice\n</instruction>\n<history>\n1. Tap the field\n2. Clear it\n</history>";
      const answer = JSON.parse(await ask(model, SYSTEM.plan, text, size));
      assert.deepEqual(answer, {
        thought: "Scripted step: step 3",
        log: "step 3",
        action: {
          type: "Input",
          param: {
            locate: { prompt: "the field", bbox: expected },
            value: "alice",
            mode: "replace",
          },
        },
        finished: false,
      });
    });
  });
}

test("startTestModel() hands the plan script the instruction, history and context", async () => {
  await withModel({
    script: {
      plan: () => ({
        thought: "done",
        log: "Nothing to do",
        action: null,
        finished: true,
        output: "ok",
      }),
    },
  }, async (model) => {
    const first =
      "<instruction>\nsign in\nas alice\n</instruction>\n<context>\nUse the test account.\n</context>\n<history>\n(none)\n</history>";
    const answer = JSON.parse(await ask(model, SYSTEM.plan, first, [1000, 500]));
    assert.deepEqual(answer, {
      thought: "done",
      log: "Nothing to do",
      action: null,
      finished: true,
      output: "ok",
    });
    await ask(
      model,
      SYSTEM.plan,
      "<instruction>\nsign in\n</instruction>\n<history>\n1. Tap the Sign in button\n2. Wait\n</history>",
      [1000, 500],
    );
    const [a, b] = model.calls.map((c) => c.call);
    assert.ok(a?.kind === "plan" && b?.kind === "plan");
    assert.equal(a.instruction, "sign in\nas alice");
    assert.deepEqual(a.history, []);
    assert.equal(a.context, "Use the test account.");
    assert.deepEqual(b.history, ["Tap the Sign in button", "Wait"]);
    assert.equal(b.context, undefined);
    assert.equal(a.systemPrompt, SYSTEM.plan);
  });
});

test("startTestModel() answers an extract call with the script's data", async () => {
  await withModel({
    script: {
      extract: (call) =>
        call.returnType === "number" ? 3 : { items: ["milk", "eggs"], demand: call.demand },
    },
  }, async (model) => {
    const number = JSON.parse(
      await ask(
        model,
        SYSTEM.extract,
        "<demand>\nthe item count\n</demand>\n<return-type>\nnumber\n</return-type>",
        [1280, 800],
      ),
    );
    assert.equal(number.data, 3);
    const any = JSON.parse(
      await ask(
        model,
        SYSTEM.extract,
        "<demand>\nthe items, {items: string[]}\n</demand>\n<return-type>\nany\n</return-type>\n<context>\nctx\n</context>",
        null,
      ),
    );
    assert.deepEqual(any.data, { items: ["milk", "eggs"], demand: "the items, {items: string[]}" });
    const call = model.calls[1].call;
    assert.ok(call?.kind === "extract");
    assert.equal(call.returnType, "any");
    assert.equal(call.context, "ctx");
    assert.equal(call.image, null);
  });
});

test("startTestModel() answers an assert call with pass and thought", async () => {
  await withModel({
    script: {
      assert: (call) => ({ pass: call.assertion.includes("3 items"), thought: "I count 3 items." }),
    },
  }, async (model) => {
    const yes = JSON.parse(
      await ask(model, SYSTEM.assert, "<assertion>\nthe list shows 3 items\n</assertion>", [
        1000,
        500,
      ]),
    );
    assert.deepEqual(yes, { thought: "I count 3 items.", pass: true });
    const no = JSON.parse(
      await ask(model, SYSTEM.assert, "<assertion>\nthe list is empty\n</assertion>", [1000, 500]),
    );
    assert.equal(no.pass, false);
  });
});

test("startTestModel() answers a locate call with bbox null and an error when the script gives null", async () => {
  await withModel({ script: { locate: () => null } }, async (model) => {
    const answer = JSON.parse(
      await ask(model, SYSTEM.locate, "<target>\nthe ghost\n</target>", [1000, 500]),
    );
    assert.equal(answer.bbox, null);
    assert.match(answer.error, /the ghost/);
  });
});

test("startTestModel() wraps answers in a json fence or in prose", async () => {
  const script = { assert: () => ({ pass: true, thought: "yes" }) };
  await withModel({ wrap: "fence", script }, async (model) => {
    const text = await ask(model, SYSTEM.assert, "<assertion>\nx\n</assertion>", [1000, 500]);
    assert.match(text, /^```json\n\{[\s\S]*\}\n```$/);
    assert.deepEqual(JSON.parse(text.slice(8, -4)), { thought: "yes", pass: true });
  });
  await withModel({ wrap: "prose", script }, async (model) => {
    const text = await ask(model, SYSTEM.assert, "<assertion>\nx\n</assertion>", [1000, 500]);
    const start = text.indexOf("{");
    const end = text.lastIndexOf("}");
    assert.ok(start > 0 && end < text.length - 1, "prose before and after the JSON");
    assert.deepEqual(JSON.parse(text.slice(start, end + 1)), { thought: "yes", pass: true });
  });
});

test("startTestModel() sends answerOverride text verbatim and falls back to the script on undefined", async () => {
  await withModel({
    answerOverride: (call) => call.kind === "locate" ? "{bbox: [1, 2, oops" : undefined,
    script: { assert: () => ({ pass: true }) },
  }, async (model) => {
    assert.equal(
      await ask(model, SYSTEM.locate, "<target>\nx\n</target>", [1000, 500]),
      "{bbox: [1, 2, oops",
    );
    const answer = JSON.parse(
      await ask(model, SYSTEM.assert, "<assertion>\nit works\n</assertion>", [1000, 500]),
    );
    assert.deepEqual(answer, { thought: 'The statement "it works" is true.', pass: true });
  });
});

test("startTestModel() answers HTTP 500 naming a missing, throwing or empty handler, without retries", async () => {
  await withModel({
    script: {
      plan: () => {
        throw new Error("boom");
      },
      extract: () => undefined,
    },
  }, async (model) => {
    const cases: Array<[string, string, RegExp]> = [
      [SYSTEM.locate, "<target>\nx\n</target>", /test model has no `locate` handler/],
      [
        SYSTEM.plan,
        "<instruction>\nx\n</instruction>\n<history>\n(none)\n</history>",
        /`plan` handler threw: boom/,
      ],
      [
        SYSTEM.extract,
        "<demand>\nx\n</demand>\n<return-type>\nany\n</return-type>",
        /`extract` handler returned nothing/,
      ],
    ];
    for (const [system, text, message] of cases) {
      await assert.rejects(ask(model, system, text, [1000, 500]), (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError);
        assert.equal(error.status, 500);
        assert.match(error.message, message);
        return true;
      });
    }
    // One request per call: `x-should-retry: false` stops the client's retries.
    assert.equal(model.calls.length, 3);
    assert.deepEqual(model.calls.map((c) => c.status), [500, 500, 500]);
    assert.match(model.calls[0].error ?? "", /no `locate` handler/);
  });
});

test("startTestModel() answers HTTP 400 for an unknown system prompt or a wrongly stated image size", async () => {
  await withModel({ script: { locate: () => SMALL_BOX } }, async (model) => {
    await assert.rejects(
      ask(model, "You are a helpful assistant.", "<target>\nx\n</target>", [1000, 500]),
      (
        error: unknown,
      ) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.match(error.message, /cannot tell the call kind.*You are a helpful assistant/);
        return true;
      },
    );
    const completion = clientFor(model).chat.completions.create({
      model: model.modelName,
      messages: [
        { role: "system", content: SYSTEM.locate },
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: await png(1000, 500) } },
            { type: "text", text: "<target>\nx\n</target>\nThe screenshot is 1280 x 800 pixels." },
          ],
        },
      ],
    });
    await assert.rejects(completion, /states 1280 x 800 pixels but the image is 1000 x 500/);
    await assert.rejects(
      ask(model, SYSTEM.locate, "no target block", [1000, 500]),
      /without a <target> block/,
    );
    assert.deepEqual(model.calls.map((c) => c.status), [400, 400, 400]);
  });
});

test("startTestModel() asks for imagePixelsPerCssPixel when a padded qwen2.5-vl image hides the scale", async () => {
  await withModel({
    family: "qwen2.5-vl",
    viewport: { width: 640, height: 400 },
    script: { locate: () => LARGE_BOX },
  }, async (model) => {
    await assert.rejects(
      ask(model, SYSTEM.locate, "<target>\nx\n</target>", [1288, 812]),
      /set imagePixelsPerCssPixel/,
    );
  });
});

test("startTestModel() never records the Authorization value and rejects a wrong key with 401", async () => {
  const apiKey = "sk-very-secret-value-123";
  await withModel({ apiKey, script: { assert: () => ({ pass: true }) } }, async (model) => {
    await ask(model, SYSTEM.assert, "<assertion>\nx\n</assertion>", [1000, 500]);
    await assert.rejects(
      clientFor(model, "sk-wrong-key-456").chat.completions.create({
        model: model.modelName,
        messages: [
          { role: "system", content: SYSTEM.assert },
          await userMessage("<assertion>\nx\n</assertion>", [1000, 500]),
        ],
      }),
      (error: unknown) => error instanceof OpenAI.AuthenticationError,
    );
    assert.deepEqual(model.calls.map((c) => c.authorization), ["expected", "other"]);
    const recorded = JSON.stringify(model.calls);
    assert.ok(!recorded.includes(apiKey), "the key never appears in calls");
    assert.ok(!recorded.includes("sk-wrong-key-456"));
    assert.ok(!recorded.includes("Bearer"));
    assert.equal(model.modelConfig().SDK_MODEL_API_KEY, apiKey);
  });
});

test("startTestModel() records the request without image data", async () => {
  await withModel({ script: { assert: () => ({ pass: true }) } }, async (model) => {
    await ask(model, SYSTEM.assert, "<assertion>\nx\n</assertion>", [1280, 800]);
    const request = model.calls[0].request as {
      model: string;
      temperature: number;
      messages: unknown[];
    };
    assert.equal(request.model, model.modelName);
    assert.equal(request.temperature, 0);
    const text = JSON.stringify(request);
    assert.ok(!text.includes((await png(1280, 800)).slice(30, 80)), "no image data");
    assert.match(text, /data:image\/png;base64,<\d+ characters left out>/);
    assert.equal(model.calls[0].path, "/v1/chat/completions");
  });
});

test("startTestModel() records each request body's size in bytes as received, images included", async () => {
  await withModel({ script: { assert: () => ({ pass: true }) } }, async (model) => {
    const body = JSON.stringify({
      model: model.modelName,
      messages: [
        { role: "system", content: SYSTEM.assert },
        await userMessage("<assertion>\nthe café is open\n</assertion>", [1280, 800]),
      ],
    });
    const response = await fetch(`${model.baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${model.apiKey}`, "content-type": "application/json" },
      body,
    });
    assert.equal(response.status, 200, await response.text());
    // "é" is two bytes: the size is the body's bytes, not its characters.
    assert.equal(model.calls[0].requestBytes, new TextEncoder().encode(body).length);
    assert.equal(model.calls[0].requestBytes, body.length + 1);
  });
});

test("startTestModel() returns an OpenAI response with usage and counts a repeated system prompt as cached", async () => {
  await withModel({ script: { assert: () => ({ pass: true }) } }, async (model) => {
    const client = clientFor(model);
    const body = {
      model: model.modelName,
      messages: [
        { role: "system" as const, content: SYSTEM.assert },
        await userMessage("<assertion>\nx\n</assertion>", [1000, 500]),
      ],
    };
    const first = await client.chat.completions.create(body);
    const second = await client.chat.completions.create(body);
    assert.equal(first.object, "chat.completion");
    assert.equal(first.model, model.modelName);
    assert.match(first.id, /^chatcmpl-/);
    assert.equal(typeof first.created, "number");
    assert.equal(first.choices[0].finish_reason, "stop");
    assert.equal(first.choices[0].message.role, "assistant");
    const usage = first.usage!;
    assert.ok(usage.prompt_tokens > 1000, "1000 per image plus the text");
    assert.equal(usage.completion_tokens, Math.ceil(first.choices[0].message.content!.length / 4));
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    assert.equal(usage.prompt_tokens_details?.cached_tokens, 0);
    assert.equal(
      second.usage?.prompt_tokens_details?.cached_tokens,
      Math.ceil(SYSTEM.assert.length / 4),
    );
    assert.deepEqual(model.calls[1].usage, {
      promptTokens: second.usage!.prompt_tokens,
      completionTokens: second.usage!.completion_tokens,
      cachedTokens: second.usage!.prompt_tokens_details!.cached_tokens,
    });
  });
});

test("startTestModel() passes the SDK's feedback on a retried answer to the script", async () => {
  let seen: string | undefined;
  await withModel({
    script: {
      locate: (call) => {
        seen = call.feedback;
        return SMALL_BOX;
      },
    },
  }, async (model) => {
    await clientFor(model).chat.completions.create({
      model: model.modelName,
      messages: [
        { role: "system", content: SYSTEM.locate },
        await userMessage("<target>\nx\n</target>", [1000, 500]),
        { role: "assistant", content: "not json" },
        { role: "user", content: "Your answer was not JSON. Answer with one JSON object." },
      ],
    });
    assert.equal(seen, "Your answer was not JSON. Answer with one JSON object.");
  });
});

test("startTestModel() serves /v1/models and /chat/completions without the /v1 prefix", async () => {
  await withModel(
    { modelName: "my-model", script: { assert: () => ({ pass: true }) } },
    async (model) => {
      const client = clientFor(model);
      const models = await client.models.list();
      assert.deepEqual(models.data.map((m) => m.id), ["my-model"]);
      const bare = new OpenAI({
        baseURL: model.baseURL.replace(/\/v1$/, ""),
        apiKey: model.apiKey,
      });
      const completion = await bare.chat.completions.create({
        model: "my-model",
        messages: [
          { role: "system", content: SYSTEM.assert },
          await userMessage("<assertion>\nx\n</assertion>", [1000, 500]),
        ],
      });
      assert.equal(JSON.parse(completion.choices[0].message.content!).pass, true);
      assert.equal(model.calls[0].path, "/chat/completions");
    },
  );
});

test("TestModel.modelConfig() points at the server and names a non-default family", async () => {
  await withModel({ script: {} }, (model) => {
    assert.deepEqual(model.modelConfig(), {
      SDK_MODEL_BASE_URL: model.baseURL,
      SDK_MODEL_API_KEY: "sdk-test-model-key",
      SDK_MODEL_NAME: "sdk-test-model",
    });
    assert.match(model.baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });
  await withModel({ family: "gemini", script: {} }, (model) => {
    assert.equal(model.modelConfig().SDK_MODEL_FAMILY, "gemini");
  });
});

test("startTestModel() validates its options", async () => {
  await assert.rejects(
    startTestModel({ family: "gpt-4o" as TestModelFamily, script: {} }),
    (error: unknown) =>
      error instanceof RangeError && /'family' must be one of/.test(error.message),
  );
  await assert.rejects(
    startTestModel({ imagePixelsPerCssPixel: 0, script: {} }),
    /'imagePixelsPerCssPixel' must be > 0: current value is 0/,
  );
  await assert.rejects(
    startTestModel(undefined as unknown as TestModelOptions),
    (error: unknown) => error instanceof TypeError,
  );
});

test("TestModel.close() can be called twice and works with await using", async () => {
  let url: string;
  {
    await using model = await startTestModel({ script: {} });
    url = model.baseURL;
  }
  await assert.rejects(fetch(`${url}/models`));
  const model = await startTestModel({ script: {} });
  await model.close();
  await model.close();
});

test("startTestModel() with cors answers a preflight and marks every answer for the page's origin", async () => {
  await using model = await startTestModel({ cors: true, script: {} });
  const preflight = await fetch(`${model.baseURL}/chat/completions`, {
    method: "OPTIONS",
    headers: {
      origin: "http://127.0.0.1:9",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization,content-type,x-stainless-os",
    },
  });
  await preflight.body?.cancel();
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
  assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
  assert.equal(
    preflight.headers.get("access-control-allow-headers"),
    "authorization,content-type,x-stainless-os",
  );
  const models = await fetch(`${model.baseURL}/models`);
  await models.body?.cancel();
  assert.equal(models.headers.get("access-control-allow-origin"), "*");
  const error = await fetch(`${model.baseURL}/chat/completions`, { method: "POST", body: "{" });
  await error.body?.cancel();
  assert.equal(error.status, 400, "the body is not JSON");
  assert.equal(error.headers.get("access-control-allow-origin"), "*", "errors too");
});

test("startTestModel() without cors sends no CORS header and no preflight answer; one origin when given", async () => {
  await using plain = await startTestModel({ script: {} });
  const preflight = await fetch(`${plain.baseURL}/chat/completions`, {
    method: "OPTIONS",
    headers: { origin: "http://127.0.0.1:9", "access-control-request-method": "POST" },
  });
  await preflight.body?.cancel();
  assert.equal(preflight.status, 404);
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);
  await using one = await startTestModel({ cors: "http://127.0.0.1:9", script: {} });
  const models = await fetch(`${one.baseURL}/models`);
  await models.body?.cancel();
  assert.equal(models.headers.get("access-control-allow-origin"), "http://127.0.0.1:9");
  await assert.rejects(
    startTestModel({ cors: "*" as unknown as string, script: {} }),
    (e: unknown) =>
      e instanceof TypeError && /'cors' must be a boolean or an origin/.test(e.message),
  );
});
