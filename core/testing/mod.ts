/**
 * Offline testing for code built on the SDK: a scripted, OpenAI-compatible **test model**.
 *
 * {@link startTestModel} starts a local HTTP server that reads the SDK's model calls like a
 * vision-language model would (see `docs/model-protocol.md`): it tells planning, locate, extract
 * and assertion calls apart, parses their prompts, reads the screenshot's size, and answers from
 * your script. Scripts give element positions as CSS-pixel boxes, as the browser measures them;
 * the server writes them as the `bbox` of the chosen model family (every `SDK_MODEL_FAMILY`
 * value; planning turns of the UI-TARS and AutoGLM families in their own dialects), so tests run
 * the SDK's real coordinate handling without a real model.
 * Every request is kept in {@link TestModel.calls} for assertions.
 *
 * This module is not part of `@sdk/core`'s main entry; it loads `node:http` when a server starts,
 * so it runs in Deno and Node.
 *
 * @example Point an agent at a scripted model
 * ```ts
 * import { startTestModel } from "@sdk/core/testing";
 *
 * const model = await startTestModel({
 *   viewport: { width: 1280, height: 800 },
 *   script: {
 *     plan: ({ history }) =>
 *       history.length === 0
 *         ? {
 *           log: "Tap the Sign in button",
 *           action: {
 *             type: "Tap",
 *             param: { locate: { prompt: "the Sign in button", box: { left: 560, top: 420, width: 160, height: 44 } } },
 *           },
 *         }
 *         : { log: "Signed in", finished: true },
 *     assert: ({ assertion }) => ({ pass: assertion.includes("Todo"), thought: "The Todo list is shown." }),
 *   },
 * });
 * // Hand model.modelConfig() to the agent, run it, then check what the model was asked:
 * // const agent = new PageAgent(page, { modelConfig: model.modelConfig() });
 * // await agent.aiAct("sign in");
 * // model.calls.map((c) => c.kind) is then ["plan", "plan"]
 * console.log(Object.keys(model.modelConfig())); // SDK_MODEL_BASE_URL, SDK_MODEL_API_KEY, SDK_MODEL_NAME
 * await model.close();
 * ```
 *
 * @example Check what a model of the gemini family would answer
 * ```ts
 * import OpenAI from "openai";
 * import { createTestPng, startTestModel } from "@sdk/core/testing";
 *
 * await using model = await startTestModel({
 *   family: "gemini",
 *   script: { locate: () => ({ left: 100, top: 50, width: 200, height: 100 }) },
 * });
 * const client = new OpenAI({ baseURL: model.baseURL, apiKey: model.apiKey, maxRetries: 0 });
 * const completion = await client.chat.completions.create({
 *   model: model.modelName,
 *   messages: [
 *     { role: "system", content: "You are a UI element locator." },
 *     {
 *       role: "user",
 *       content: [
 *         { type: "image_url", image_url: { url: await createTestPng(1000, 500) } },
 *         { type: "text", text: "<target>\nthe logo\n</target>\nThe screenshot is 1000 x 500 pixels." },
 *       ],
 *     },
 *   ],
 * });
 * const { bbox } = JSON.parse(completion.choices[0].message.content ?? "{}");
 * console.log(bbox); // [100, 100, 301, 300]: ymin, xmin, ymax, xmax on 0-1000
 * ```
 *
 * @module
 */

export { startTestModel } from "./test_model.ts";
export type {
  AssertCall,
  CallBase,
  CallKind,
  ExtractCall,
  ImageSize,
  LocateCall,
  PlanCall,
  ReceivedPromptImage,
  ReceivedScreenshot,
  TargetBox,
  TestModelCall,
  TestModelFamily,
} from "./test_model.ts";
export type {
  AnswerWrap,
  AssertReply,
  PlanReply,
  RecordedCall,
  ScriptedLocate,
  TestModel,
  TestModelOptions,
  TestModelScript,
  TestModelUsage,
  ViewportSize,
} from "./test_model_types.ts";
export { createTestPng, type TestPngOptions } from "./png.ts";
export type { DialectFamily } from "./_dialects.ts";
