/**
 * What `sdk run` does with each file before anything starts: read it, check it (a YAML script in
 * full, a feature's Gherkin, what an `--untrusted` file may not do, a device platform's section
 * key) and check the model settings it will run with. A file that fails here fails at once, without a browser: Chromium starts only when a
 * file that needs it is about to run.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { checkModelConfigKeys, type ModelIntent, resolveIntentConfig } from "@sdk/core";
import type { WebPageAgentOptions } from "@sdk/web";
import { parseGherkin } from "@sdk/core/gherkin";
import {
  parseScriptFile,
  PLATFORM_TARGET_SECTIONS,
  type ScriptFile,
  scriptTargetOf,
  type ScriptTrustOptions,
} from "@sdk/core/script";
import { checkUntrustedFeature } from "./untrusted_feature.ts";
import { type BatchFile, mergeBatchSections } from "./batch_file.ts";

/** A file read and checked, ready to run. */
export type PreparedFile =
  | { kind: "web"; text: string; script: ScriptFile }
  | { kind: "feature"; text: string }
  | { kind: "platform"; text: string; section: string };

/** How the preparation of a file ended: ready, or failed with the file's error. */
export type Preparation =
  | { ok: true; prepared: PreparedFile; warnings: string[] }
  | { ok: false; error: unknown; warnings: string[] };

const INTENTS: readonly ModelIntent[] = ["default", "planning", "insight"];

/**
 * Checks the model settings a file's agent will have: `modelConfig` (the flags' or the file's),
 * else the `SDK_*MODEL_*` variables, for each intent, as the first model call would.
 *
 * @throws {ModelConfigError} naming what to set, and an unknown key of `modelConfig`.
 */
function checkModelSettings(modelConfig: unknown): void {
  checkModelConfigKeys(modelConfig);
  const config = modelConfig as Record<string, string | number> | undefined;
  for (const intent of INTENTS) resolveIntentConfig(intent, config);
}

/** Whether a YAML script has an item that calls the model (`aiTap`, `aiAssert`, ...). */
function callsModel(script: ScriptFile): boolean {
  return script.tasks.some((t) => t.flow.some((item) => /^ai/.test(item.key)));
}

/**
 * Reads and checks one file of a run.
 *
 * @param file the file's path.
 * @param shown the file as the user typed it (errors name it so).
 * @param flags the command line's agent options (their `modelConfig` wins over the file's).
 * @param trust whether the files are the user's own (`--untrusted`, `--env`, the working folder).
 * @param sections a batch file's target sections, merged into the file's before it is read.
 * @returns the prepared file, or its error: a `YamlScriptError` (every error of the script), a
 * `GherkinParseError`, an untrusted feature's refused tags (`SdkTypeError`), a
 * `ModelConfigError`, or the file system's error.
 */
export async function prepareScriptFile(
  file: string,
  shown: string,
  flags: Partial<WebPageAgentOptions>,
  trust: ScriptTrustOptions & { workDir: string },
  sections: BatchFile["sections"] = {},
): Promise<Preparation> {
  const warnings: string[] = [];
  try {
    let text = await readFile(file, "utf8");
    if (extname(file).toLowerCase() === ".feature") {
      await parseGherkin(text, { fileName: shown });
      if (trust.untrusted) await checkUntrustedFeature(text, shown, file, trust.workDir);
      // Every step of a feature is a model call.
      checkModelSettings(flags.modelConfig);
      return { ok: true, prepared: { kind: "feature", text }, warnings };
    }
    text = await mergeBatchSections(text, sections);
    const section = await scriptTargetOf(text, shown);
    if (section !== undefined && PLATFORM_TARGET_SECTIONS.includes(section)) {
      // The platform package reads its own section when the file runs.
      return { ok: true, prepared: { kind: "platform", text, section }, warnings };
    }
    const script = await parseScriptFile(text, shown, {
      ...trust,
      onWarning: (w) => warnings.push(w),
    });
    if (callsModel(script)) checkModelSettings(flags.modelConfig ?? script.agent.modelConfig);
    return { ok: true, prepared: { kind: "web", text, script }, warnings };
  } catch (error) {
    return { ok: false, error, warnings };
  }
}
