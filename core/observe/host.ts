/**
 * What observation needs of its agent (internal): a way to run and record calls, the device and
 * its screenshot settings, and the context of a call.
 *
 * @module
 */

import type { CallSession, FrozenContext } from "../session/session.ts";
import type { AbstractInterface } from "../device/types.ts";
import type { ScreenSettings } from "../session/screen.ts";
import type { ResolvedPrompt } from "../session/prompt_input.ts";
import type { ResolvedPromptImage } from "../model/prompt_images.ts";
import type { AIContextApiName } from "../session/context.ts";
import type { ModelIntent } from "../model/config.ts";

/** What an observation query adds to a call: the final screen and the frames (internal). */
export interface ObservedCallInput {
  /** The final screenshot as a frozen context (spec 3.2 path): the call's screenshot. */
  frozen: FrozenContext;
  /** The frames as named images, sent before the prompt's own images. */
  images: readonly ResolvedPromptImage[];
}

/** What the observer needs of its agent (internal). */
export interface ObserverHost {
  /** The device observed. */
  readonly device: AbstractInterface;
  /** The agent's screenshot settings. */
  readonly screen: ScreenSettings;
  /** Runs a public call (report, metrics); rejects when the agent was destroyed. */
  run<T>(
    apiName: string,
    prompt: string | ResolvedPrompt,
    intents: readonly ModelIntent[],
    body: (s: CallSession) => Promise<T>,
    observed?: ObservedCallInput,
  ): Promise<T>;
  /** Records an execution without a model, also while the agent is being destroyed. */
  record(apiName: string, prompt: string, body: (s: CallSession) => Promise<void>): Promise<void>;
  /** The effective context of a call. */
  context(api: AIContextApiName, callContext: string | undefined): string | undefined;
}
