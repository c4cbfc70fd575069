/**
 * The test model's answers (private to `@sdk/core/testing`): a call goes to the script's handler,
 * and its reply becomes the answer text a model of the chosen family would send: CSS boxes as the
 * family's `bbox` (or a dialect's point), wrapped as `options.wrap` says.
 *
 * @module
 */

import { encodeBox, padTo28, type TargetBox } from "./_bbox.ts";
import type { EncodedBbox, TestModelFamily } from "./_bbox.ts";
import type { ImageSize } from "./_image.ts";
import { dialectOf, dialectPoint, encodeDialectBox, renderDialectPlan } from "./_dialects.ts";
import type { CallKind, TestModelCall } from "./_request.ts";
import { HttpError } from "./_http.ts";
import type { AnswerWrap, ScriptedLocate, TestModelOptions } from "./test_model_types.ts";

/**
 * The answerer of a server started with `options` (already checked): the answer text for a call,
 * or an {@link HttpError} (500) when the script cannot answer it.
 */
export function scriptAnswerer(
  options: TestModelOptions,
): (call: TestModelCall) => Promise<string> {
  const family = options.family ?? "default";
  const dialect = dialectOf(family);
  const wrap = options.wrap ?? "plain";
  const script = options.script;

  async function scaleFor(image: ImageSize): Promise<number> {
    if (options.imagePixelsPerCssPixel !== undefined) return options.imagePixelsPerCssPixel;
    if (!options.viewport) return 1;
    const viewport = typeof options.viewport === "function"
      ? await options.viewport()
      : options.viewport;
    if (!(viewport.width > 0 && viewport.height > 0)) {
      throw new HttpError(
        500,
        "server_error",
        `test model viewport must have a positive size: got ${viewport.width} x ${viewport.height}`,
      );
    }
    if (family !== "qwen2.5-vl") return image.width / viewport.width;
    // qwen2.5-vl images are padded to multiples of 28 px, so the width alone does not give the
    // scale; only scale 1 can be recognised.
    if (padTo28(viewport.width) === image.width && padTo28(viewport.height) === image.height) {
      return 1;
    }
    throw new HttpError(
      500,
      "server_error",
      `test model cannot tell the scale of a qwen2.5-vl image (${image.width} x ${image.height}, padded to multiples of 28 px) from the viewport (${viewport.width} x ${viewport.height}); set imagePixelsPerCssPixel`,
    );
  }

  async function bboxFor(box: TargetBox, image: ImageSize | null): Promise<EncodedBbox> {
    if (!image) {
      throw new HttpError(
        500,
        "server_error",
        "test model cannot give a bbox: the request carried no image",
      );
    }
    const scale = await scaleFor(image);
    return dialect
      ? encodeDialectBox(dialect, box, image, scale)
      : encodeBox(family as TestModelFamily, box, image, scale);
  }

  async function runHandler<T>(kind: CallKind, run: () => T | Promise<T>): Promise<T> {
    if (!script[kind]) {
      throw new HttpError(500, "server_error", `test model has no \`${kind}\` handler`);
    }
    let result: T;
    try {
      result = await run();
    } catch (error) {
      throw new HttpError(
        500,
        "server_error",
        `test model \`${kind}\` handler threw: ${(error as Error)?.message ?? String(error)}`,
      );
    }
    if (result === undefined) {
      throw new HttpError(500, "server_error", `test model \`${kind}\` handler returned nothing`);
    }
    return result;
  }

  async function answerFor(call: TestModelCall): Promise<string> {
    const override = await options.answerOverride?.(call);
    if (typeof override === "string") return override;
    switch (call.kind) {
      case "plan": {
        const reply = await runHandler("plan", () => script.plan!(call));
        if (typeof reply !== "object" || reply === null || typeof reply.log !== "string") {
          throw new HttpError(
            500,
            "server_error",
            "test model `plan` handler must return an object with a string `log`",
          );
        }
        if (dialect) {
          const image = call.image!;
          return await renderDialectPlan(
            dialect,
            reply,
            async (box) => dialectPoint(dialect, box, image, await scaleFor(image)),
          );
        }
        const written = async (
          a: { type: string; param?: Record<string, unknown>; log?: string },
        ) => {
          const param: Record<string, unknown> = {};
          for (const [name, value] of Object.entries(a.param ?? {})) {
            param[name] = isScriptedLocate(value)
              ? { prompt: value.prompt, bbox: await bboxFor(value.box, call.image) }
              : value;
          }
          return { type: a.type, param, ...(a.log !== undefined && { log: a.log }) };
        };
        const answer: Record<string, unknown> = {
          thought: reply.thought ?? `Scripted step: ${reply.log}`,
          log: reply.log,
        };
        if (reply.actions) {
          const actions = [];
          for (const a of reply.actions) actions.push(await written(a));
          answer.actions = actions;
        } else answer.action = reply.action ? await written(reply.action) : null;
        answer.finished = reply.finished ?? false;
        if (reply.output !== undefined) answer.output = reply.output;
        if (reply.error !== undefined) answer.error = reply.error;
        return wrapAnswer(answer, wrap);
      }
      case "locate": {
        const box = await runHandler("locate", () => script.locate!(call));
        if (box === null) {
          return wrapAnswer({
            thought: `I cannot find "${call.target}" on the screenshot.`,
            bbox: null,
            error: `"${call.target}" is not visible on the screenshot`,
          }, wrap);
        }
        return wrapAnswer({
          thought: `"${call.target}" is visible on the screenshot.`,
          bbox: await bboxFor(box, call.image),
        }, wrap);
      }
      case "extract": {
        const data = await runHandler("extract", () => script.extract!(call));
        return wrapAnswer({ thought: "Read from the screenshot as demanded.", data }, wrap);
      }
      case "assert": {
        const reply = await runHandler("assert", () => script.assert!(call));
        if (typeof reply !== "object" || reply === null || typeof reply.pass !== "boolean") {
          throw new HttpError(
            500,
            "server_error",
            "test model `assert` handler must return an object with a boolean `pass`",
          );
        }
        return wrapAnswer({
          thought: reply.thought ??
            `The statement "${call.assertion}" is ${reply.pass ? "true" : "false"}.`,
          pass: reply.pass,
        }, wrap);
      }
    }
  }

  return answerFor;
}

function wrapAnswer(value: unknown, wrap: AnswerWrap): string {
  switch (wrap) {
    case "fence":
      return "```json\n" + JSON.stringify(value, null, 2) + "\n```";
    case "prose":
      return `I looked at the screenshot carefully. Here is my answer:\n${
        JSON.stringify(value)
      }\nLet me know if anything else is needed.`;
    default:
      return JSON.stringify(value);
  }
}

function isScriptedLocate(value: unknown): value is ScriptedLocate {
  if (!value || typeof value !== "object") return false;
  const box = (value as { box?: unknown }).box;
  return !!box && typeof box === "object" &&
    ["left", "top", "width", "height"].every((k) =>
      typeof (box as Record<string, unknown>)[k] === "number"
    );
}
