/**
 * The YAML quick start without a model: runs demo/flow.yaml (or the script files given) through
 * the `sdk run` command line, in-process, on the bundled fixture app. With none of the model
 * variables set, the offline scripted test model (the demo's stand-in, not an AI model) answers,
 * reading the page that `sdk run` drives; with them set, that model does. Arguments are those of
 * `sdk run`; without a `.yaml`, `.yml` or `.feature` file among them the run is `demo/flow.yaml`.
 *
 *     deno task demo:yaml
 *     deno task demo:yaml --summary out/summary.json
 *
 * @module
 */

import process from "node:process";
import type { Page } from "playwright-core";
import { isSdkError } from "@sdk/core";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import { main } from "@sdk/cli";
import { launchChromium } from "../tests/helpers/browser.ts";
import { appModelScript } from "../tests/helpers/app_model.ts";
import { demoModelChoice } from "./model_choice.ts";

/** The script of the quick start, from the workspace root (where `deno task` runs). */
const FLOW = "demo/flow.yaml";

async function demoYaml(args: string[]): Promise<number> {
  const choice = demoModelChoice((name) => Deno.env.get(name));
  const named = args.some((a) => /\.(ya?ml|feature)$/i.test(a));
  const argv = ["run", ...(named ? [] : [FLOW]), ...args];
  // The browser sdk run drives: the stand-in reads its page, as the demo's reads its own.
  const browser = await launchChromium({ handleSignals: false });
  let model: TestModel | undefined;
  try {
    if (choice.live) {
      console.log(`Model: ${choice.modelName} at ${choice.baseURL}`);
    } else {
      const page = (): Page => {
        const pages = browser.contexts().flatMap((c) => c.pages());
        if (pages.length === 0) throw new Error("the stand-in model was called without a page");
        return pages.at(-1)!;
      };
      // The page of the file running now (sdk run opens one per file), whichever it is.
      const current = new Proxy({} as Page, {
        get: (_, key) => {
          const target = page();
          const value = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      model = await startTestModel({
        script: appModelScript(current, { batch: true }),
        viewport: () => page().viewportSize()!,
      });
      for (const [key, value] of Object.entries(model.modelConfig())) process.env[key] = value;
      console.log(
        "Model: OFFLINE SCRIPTED TEST MODEL (not an AI model): a local stand-in server answers the\n" +
          "model calls of sdk run from a script that reads the page. Set SDK_MODEL_NAME,\n" +
          "SDK_MODEL_BASE_URL and SDK_MODEL_API_KEY to run the script with a real model.",
      );
    }
    console.log(`$ sdk ${argv.join(" ")}`);
    return await main(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.cwd(),
      browser,
    });
  } finally {
    await model?.close();
    await browser.close();
  }
}

try {
  Deno.exitCode = await demoYaml(Deno.args);
} catch (e) {
  if (!isSdkError(e)) throw e;
  console.error(`demo: ${e.name} (${e.code}): ${e.message}`);
  Deno.exitCode = 1;
}
