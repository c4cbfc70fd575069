/**
 * Native dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): the `nativeDialogs` option of
 * web agents and how the web page device answers each dialog its pages open and reports it
 * (docs/web.md, "Native dialogs").
 *
 * @module
 */

import type { DeviceEvent } from "../_core.ts";
import { SdkTypeError } from "../_core.ts";
import type { NativeDialogType, PageDialog, PageDriver, Unsubscribe } from "./page_driver.ts";

/** A native dialog as a {@link NativeDialogHandler} sees it. */
export interface NativeDialog {
  /** What opened it: `alert()`, `confirm()`, `prompt()`, or leaving a page (`beforeunload`). */
  readonly type: NativeDialogType;
  /** Its text (`""` for `beforeunload`: Chromium shows the page's none). */
  readonly message: string;
  /** A prompt's default answer; `""` for the other types. */
  readonly defaultValue: string;
}

/** How a {@link NativeDialogHandler} answers a dialog. */
export interface NativeDialogAnswer {
  /**
   * `true` presses OK (`confirm()` returns true, `prompt()` its text, `beforeunload` lets the page
   * go); `false` presses Cancel (`confirm()` returns false, `prompt()` null, `beforeunload` keeps
   * the page).
   */
  accept: boolean;
  /** What an accepted `prompt()` returns. Default: the prompt's default value. */
  promptText?: string;
}

/**
 * Answers each native dialog: called with the dialog, it returns (or resolves with) the answer.
 * The page waits meanwhile; an answer that does not come within
 * {@link NATIVE_DIALOG_ANSWER_TIMEOUT_MS}, a throw, or an answer of the wrong shape gives the
 * dialog the default answer, and its report step says why.
 */
export type NativeDialogHandler = (
  dialog: NativeDialog,
) => NativeDialogAnswer | Promise<NativeDialogAnswer>;

/**
 * The `nativeDialogs` option of web agents: `"dismiss"` (the default) presses Cancel on `alert`,
 * `confirm` and `prompt` and lets the page go on `beforeunload` (the navigation the agent started
 * goes through); `"accept"` presses OK on every dialog, a prompt getting its default value; a
 * {@link NativeDialogHandler} answers each dialog itself.
 */
export type NativeDialogsOption = "dismiss" | "accept" | NativeDialogHandler;

/** How long a {@link NativeDialogHandler} may take to answer, ms. */
export const NATIVE_DIALOG_ANSWER_TIMEOUT_MS = 10_000;

/**
 * Checks the `nativeDialogs` option.
 *
 * @throws {SdkTypeError} when it is given and is neither `"dismiss"`, `"accept"` nor a function.
 */
export function checkNativeDialogs(value: unknown): void {
  if (value === undefined || value === "dismiss" || value === "accept") return;
  if (typeof value === "function") return;
  throw new SdkTypeError(
    `'nativeDialogs' must be "dismiss", "accept" or a function (dialog) => ({ accept, promptText? }): current value is ${
      describe(value)
    }`,
  );
}

/**
 * Answers the native dialogs of every page driver it watches, as the `nativeDialogs` option says,
 * and reports each answered dialog as a {@link DeviceEvent}.
 */
export class NativeDialogAnswerer {
  readonly #option: NativeDialogsOption;
  readonly #report: (event: DeviceEvent) => void;
  readonly #answerTimeoutMs: number;
  readonly #watched = new Map<PageDriver, Unsubscribe>();

  /**
   * @param option the checked `nativeDialogs` option; undefined is `"dismiss"`.
   * @param report called once per dialog, after it was answered.
   * @param answerTimeoutMs how long the option's function may take to answer (tests shorten it).
   */
  constructor(
    option: NativeDialogsOption | undefined,
    report: (event: DeviceEvent) => void,
    answerTimeoutMs: number = NATIVE_DIALOG_ANSWER_TIMEOUT_MS,
  ) {
    this.#option = option ?? "dismiss";
    this.#report = report;
    this.#answerTimeoutMs = answerTimeoutMs;
  }

  /** Answers the dialogs of `driver`'s page from now on (once per driver; idempotent). */
  watch(driver: PageDriver): void {
    if (this.#watched.has(driver) || !driver.onDialog) return;
    this.#watched.set(driver, driver.onDialog((dialog) => void this.#answer(dialog)));
  }

  /** Stops answering: the pages' dialogs are their driver library's again. */
  stop(): void {
    for (const unsubscribe of this.#watched.values()) unsubscribe();
    this.#watched.clear();
  }

  async #answer(dialog: PageDialog): Promise<void> {
    const startedAt = Date.now();
    const seen: NativeDialog = {
      type: dialog.type,
      message: dialog.message,
      defaultValue: dialog.defaultValue,
    };
    const problems: string[] = [];
    const decided = await this.#decide(seen);
    if (typeof decided === "string") problems.push(decided);
    const answer = typeof decided === "string" ? defaultAnswer(seen) : decided;
    const promptText = seen.type === "prompt" && answer.accept
      ? answer.promptText ?? seen.defaultValue
      : undefined;
    try {
      if (answer.accept) await dialog.accept(promptText);
      else await dialog.dismiss();
    } catch (error) {
      problems.push(`the dialog could not be answered: ${messageOf(error)}`);
    }
    const outcome = !answer.accept
      ? "dismissed"
      : promptText === undefined
      ? "accepted"
      : `accepted with ${JSON.stringify(promptText)}`;
    this.#report({
      title: `Dialog: ${seen.type}, ${outcome}`,
      text: seen.message,
      param: {
        type: seen.type,
        message: seen.message,
        ...(seen.type === "prompt" ? { defaultValue: seen.defaultValue } : {}),
        accept: answer.accept,
        ...(promptText === undefined ? {} : { promptText }),
      },
      startedAt,
      ...(problems.length ? { error: problems.join("; ") } : {}),
    });
  }

  // The answer the option gives, or why the option's function gave none.
  async #decide(dialog: NativeDialog): Promise<NativeDialogAnswer | string> {
    const option = this.#option;
    if (option === "dismiss") return defaultAnswer(dialog);
    if (option === "accept") return { accept: true };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            `nativeDialogs: the function gave no answer to the ${dialog.type} dialog within ${this.#answerTimeoutMs} ms`,
          ),
        this.#answerTimeoutMs,
      );
    });
    const answered = (async () => await option({ ...dialog }))().then(
      (answer) => checkAnswer(answer, dialog),
      (error) =>
        `nativeDialogs: the function threw on the ${dialog.type} dialog: ${messageOf(error)}`,
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The answer of `"dismiss"`: Cancel, except that a page being left (`beforeunload`) goes. */
function defaultAnswer(dialog: NativeDialog): NativeDialogAnswer {
  return { accept: dialog.type === "beforeunload" };
}

// The handler's answer once checked, or what is wrong with it.
function checkAnswer(answer: unknown, dialog: NativeDialog): NativeDialogAnswer | string {
  const problem = (what: string) =>
    `nativeDialogs: the function's answer to the ${dialog.type} dialog must be { accept: boolean, promptText?: string }: ${what}`;
  if (typeof answer !== "object" || answer === null) {
    return problem(`it returned ${describe(answer)}`);
  }
  const { accept, promptText } = answer as Record<string, unknown>;
  if (typeof accept !== "boolean") {
    return problem(`'accept' must be a boolean, not ${describe(accept)}`);
  }
  if (promptText !== undefined && typeof promptText !== "string") {
    return problem(`'promptText' must be a string, not ${describe(promptText)}`);
  }
  return { accept, ...(promptText === undefined ? {} : { promptText }) };
}

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (Array.isArray(value)) return "an array";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
