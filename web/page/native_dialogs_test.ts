import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { SdkTypeError } from "../_core.ts";
import type { DeviceEvent } from "../_core.ts";
import { checkNativeDialogs, NativeDialogAnswerer } from "./native_dialogs.ts";
import type { NativeDialogsOption } from "./native_dialogs.ts";
import type { NativeDialogType, PageDialog, PageDriver } from "./page_driver.ts";

/** A driver whose page "opens" dialogs on demand; each resolves with how it was answered. */
function dialogDriver() {
  const listeners = new Set<(dialog: PageDialog) => void>();
  const driver = {
    onDialog(listener: (dialog: PageDialog) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as PageDriver;
  const open = (type: NativeDialogType, message: string, defaultValue = "", fail = false) =>
    new Promise<string>((resolve) => {
      // Resolves with the answer; with `fail`, answering also throws (the page went away).
      const answer = (said: string) => {
        resolve(said);
        return fail ? Promise.reject(new Error("the page is gone")) : Promise.resolve();
      };
      for (const listener of listeners) {
        listener({
          type,
          message,
          defaultValue,
          accept: (text?: string) => answer(`accept ${text}`),
          dismiss: () => answer("dismiss"),
        });
      }
    });
  return { driver, listeners, open };
}

function answerer(option: NativeDialogsOption | undefined, timeoutMs?: number) {
  const events: DeviceEvent[] = [];
  const dialogs = new NativeDialogAnswerer(option, (e) => events.push(e), timeoutMs);
  return { dialogs, events };
}

test("checkNativeDialogs takes 'dismiss', 'accept', a function or nothing; anything else is an SdkTypeError", () => {
  for (const ok of [undefined, "dismiss", "accept", () => ({ accept: true })]) {
    checkNativeDialogs(ok);
  }
  for (const bad of ["ignore", "Accept", "", 0, false, null, {}, ["dismiss"]]) {
    assert.throws(() => checkNativeDialogs(bad), (e: unknown) => {
      assert.ok(e instanceof SdkTypeError);
      assert.equal(e.code, "INVALID_ARGUMENT");
      assert.match(e.message, /^'nativeDialogs' must be "dismiss", "accept" or a function/);
      return true;
    });
  }
});

test("'dismiss' (the default) cancels alert, confirm and prompt and lets beforeunload go; 'accept' presses OK", async () => {
  const page = dialogDriver();
  const { dialogs, events } = answerer(undefined);
  dialogs.watch(page.driver);
  dialogs.watch(page.driver); // once per driver
  assert.equal(page.listeners.size, 1);
  assert.deepEqual(
    await Promise.all([
      page.open("alert", "hi"),
      page.open("confirm", "sure?"),
      page.open("prompt", "name?", "guest"),
      page.open("beforeunload", ""),
    ]),
    ["dismiss", "dismiss", "dismiss", "accept undefined"],
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(events.map((e) => [e.title, e.text, e.error]), [
    ["Dialog: alert, dismissed", "hi", undefined],
    ["Dialog: confirm, dismissed", "sure?", undefined],
    ["Dialog: prompt, dismissed", "name?", undefined],
    ["Dialog: beforeunload, accepted", "", undefined],
  ]);
  dialogs.stop();
  assert.equal(page.listeners.size, 0);

  const other = dialogDriver();
  const accepting = answerer("accept");
  accepting.dialogs.watch(other.driver);
  assert.deepEqual(
    await Promise.all([other.open("confirm", "sure?"), other.open("prompt", "name?", "guest")]),
    ["accept undefined", "accept guest"],
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(accepting.events[1].param, {
    type: "prompt",
    message: "name?",
    defaultValue: "guest",
    accept: true,
    promptText: "guest",
  });
});

test("a function that never answers: after the time limit the dialog gets the default answer, the event says why", async () => {
  const page = dialogDriver();
  const { dialogs, events } = answerer(() => new Promise(() => {}), 50);
  dialogs.watch(page.driver);
  assert.equal(await page.open("beforeunload", ""), "accept undefined");
  assert.equal(await page.open("confirm", "sure?"), "dismiss");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(events.map((e) => [e.title, e.error]), [
    [
      "Dialog: beforeunload, accepted",
      "nativeDialogs: the function gave no answer to the beforeunload dialog within 50 ms",
    ],
    [
      "Dialog: confirm, dismissed",
      "nativeDialogs: the function gave no answer to the confirm dialog within 50 ms",
    ],
  ]);
});

test("an answer of the wrong shape, and a dialog that cannot be answered, are named in the event", async () => {
  const page = dialogDriver();
  const { dialogs, events } = answerer((d) =>
    (d.type === "prompt" ? { accept: true, promptText: 5 } : "yes") as unknown as {
      accept: boolean;
    }
  );
  dialogs.watch(page.driver);
  assert.equal(await page.open("prompt", "name?", "guest"), "dismiss");
  assert.equal(await page.open("alert", "hi", "", true), "dismiss");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(events.map((e) => e.error), [
    "nativeDialogs: the function's answer to the prompt dialog must be { accept: boolean, promptText?: string }: 'promptText' must be a string, not 5",
    'nativeDialogs: the function\'s answer to the alert dialog must be { accept: boolean, promptText?: string }: it returned "yes"; the dialog could not be answered: the page is gone',
  ]);
});
