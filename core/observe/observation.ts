/**
 * A stopped observation (spec 2.9, 4.4): its frames, its final screenshot, and the queries that
 * send both to the model.
 *
 * @module
 */

import type { FrozenContext } from "../session/session.ts";
import { resolvePrompt } from "../session/prompt_input.ts";
import type { AIContextApiName } from "../session/context.ts";
import type { TUserPrompt } from "../session/options.ts";
import { AssertionError, InvalidStateError } from "../errors.ts";
import { checkAssertion, extractData } from "../insight/extract.ts";
import { observationText } from "../model/prompts.ts";
import type { ExtractReturnType } from "../model/prompts.ts";
import type { FrameStore } from "./frame_store.ts";
import type { ObservedCallInput, ObserverHost } from "./host.ts";
import { checkQueryOptions, type ObservationQueryOptions } from "./options.ts";
import type { ObserverRegistry } from "./registry.ts";

/** One kept frame of an observation (no image data: the image is in a file until `dispose()`). */
export interface ObservedFrame {
  /** Its position in the observation, 1-based, in time order. */
  index: number;
  /** When it was captured (or produced by the frame stream), ms since the epoch. */
  timestamp: number;
  /** `timestamp - startedAt`, ms (never negative). */
  offsetMs: number;
  /** The name it carries in model requests, e.g. `"frame 2 at +0.41 s"`. */
  name: string;
}

interface ObservationData {
  frames: readonly ObservedFrame[];
  numbers: readonly number[];
  final: FrozenContext;
  startedAt: number;
  endedAt: number;
}

/**
 * A stopped observation (spec 2.9): the frames (fixed), the final screenshot, and queries that
 * send both to the model (docs/model-protocol.md, "Observation"). Each query is an execution in
 * the report like the agent's own extraction calls.
 */
export class UIObservation {
  /** When recording started, ms since the epoch. */
  readonly startedAt: number;
  /** When recording stopped, ms since the epoch. */
  readonly endedAt: number;
  /** The kept frames in time order; frozen. */
  readonly frames: readonly ObservedFrame[];
  readonly #host: ObserverHost;
  readonly #registry: ObserverRegistry;
  readonly #store: FrameStore;
  readonly #numbers: readonly number[];
  #final: FrozenContext | undefined;
  #disposed = false;

  /** @internal Returned by `UIObserver.stop()`. */
  constructor(
    host: ObserverHost,
    registry: ObserverRegistry,
    store: FrameStore,
    data: ObservationData,
  ) {
    this.#host = host;
    this.#registry = registry;
    this.#store = store;
    this.frames = data.frames;
    this.#numbers = data.numbers;
    this.#final = data.final;
    this.startedAt = data.startedAt;
    this.endedAt = data.endedAt;
  }

  /** Number of kept frames (at most `maxFrames`). */
  get frameCount(): number {
    return this.frames.length;
  }

  /** The directory holding the frame files; undefined without a file system or after dispose. */
  get framesDir(): string | undefined {
    return this.#disposed ? undefined : this.#store.dir;
  }

  /**
   * Removes the frame images (spec 3.3); later queries reject. `agent.destroy()` does this for
   * every observation not yet disposed. Calling it again does nothing.
   */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#final = undefined;
    this.#registry.observations.delete(this);
    await this.#store.clear();
  }

  async #input(api: string): Promise<ObservedCallInput> {
    if (this.#disposed || !this.#final) {
      throw new InvalidStateError(`${api}: this observation was disposed; its frames are gone`);
    }
    const final = this.#final;
    const images = await Promise.all(
      this.frames.map(async (f, i) => ({
        name: f.name,
        url: await this.#store.read(this.#numbers[i]),
      })),
    );
    return { frozen: final, images };
  }

  async #extract(
    api: AIContextApiName,
    demand: TUserPrompt,
    returnType: ExtractReturnType,
    options: ObservationQueryOptions | undefined,
  ): Promise<unknown> {
    checkQueryOptions(api, options);
    const prompt = await resolvePrompt(demand, `${api} prompt`);
    const input = await this.#input(api);
    const note = observationText(
      this.frames.map((f) => f.name),
      options?.screenshotIncluded !== false,
    );
    return await this.#host.run(
      api,
      prompt,
      ["insight"],
      (s) =>
        extractData(s, prompt.text, returnType, {
          context: this.#host.context(api, options?.context),
          screenshotIncluded: options?.screenshotIncluded,
          observation: note,
        }),
      input,
    );
  }

  /**
   * Extracts data in the shape `dataDemand` describes from the frames and the final screenshot
   * (spec 4.3, 4.4).
   *
   * @throws {TypeError} naming `domIncluded` when it is passed.
   * @throws {Error} after {@link dispose} or `agent.destroy()`.
   */
  async aiQuery<T = unknown>(
    dataDemand: TUserPrompt,
    options?: ObservationQueryOptions,
  ): Promise<T> {
    return (await this.#extract("aiQuery", dataDemand, "any", options)) as T;
  }

  /** Answers a yes/no question about what was observed. */
  async aiBoolean(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<boolean> {
    return (await this.#extract("aiBoolean", prompt, "boolean", options)) as boolean;
  }

  /** Reads a number from what was observed. */
  async aiNumber(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<number> {
    return (await this.#extract("aiNumber", prompt, "number", options)) as number;
  }

  /** Reads a string from what was observed; same as {@link aiAsk}. */
  async aiString(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<string> {
    return (await this.#extract("aiString", prompt, "string", options)) as string;
  }

  /** Asks a question about what was observed; same as {@link aiString}. */
  async aiAsk(prompt: TUserPrompt, options?: ObservationQueryOptions): Promise<string> {
    return (await this.#extract("aiAsk", prompt, "string", options)) as string;
  }

  /**
   * Checks an assertion against the frames and the final screenshot (spec 4.4 rule 1): the text
   * says whether something appeared at any point, the final state, or an ordered change.
   *
   * @throws {AssertionError} carrying `errorMsg` and the model's `reason` when it is false.
   * @throws {TypeError} naming `domIncluded` when it is passed.
   */
  async aiAssert(
    assertion: TUserPrompt,
    errorMsg?: string,
    options?: ObservationQueryOptions,
  ): Promise<void> {
    checkQueryOptions("aiAssert", options);
    const prompt = await resolvePrompt(assertion, "aiAssert assertion");
    const input = await this.#input("aiAssert");
    const text = prompt.text;
    const note = observationText(
      this.frames.map((f) => f.name),
      options?.screenshotIncluded !== false,
    );
    return await this.#host.run("aiAssert", prompt, ["insight"], async (s) => {
      const check = await checkAssertion(
        s,
        text,
        this.#host.context("aiAssert", options?.context),
        {
          screenshotIncluded: options?.screenshotIncluded,
          observation: note,
        },
      );
      if (!check.pass) throw new AssertionError(text, errorMsg, check.thought);
    }, input);
  }
}
