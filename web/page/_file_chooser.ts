/**
 * The web `Tap` action, with its file chooser (private to `@sdk/web`): a Tap with files (the
 * planner's `files`, else the call's `fileChooserAccept`) catches the file chooser the click opens
 * and gives it the files; when none opens, the click is all there is.
 *
 * @module
 */

import type { ActionContext, ActionParams } from "../_core.ts";
import { readLocateParam, SdkRangeError, SdkTypeError } from "../_core.ts";
import type { PageFileChooser } from "./page_driver.ts";
import { clickAt, type PointerHost } from "./_pointer_input.ts";
import { flushDriverEvents, withinMs } from "./_settle.ts";

// How long a Tap with files waits, once the page has handled its click, for a file chooser.
const FILE_CHOOSER_WAIT_MS = 1000;

/** The `Tap` action: a left click, and the files for the file chooser it opens, if any. */
export async function tap(
  host: PointerHost,
  param: ActionParams,
  context: ActionContext,
): Promise<void> {
  const target = readLocateParam("Tap", param, true);
  const files = readFiles("Tap", param) ?? context.fileChooserAccept;
  if (!files?.length) return await clickAt(host, target, context.signal);
  const driver = host.driver();
  if (!driver.watchFileChooser) {
    throw new SdkTypeError(
      "Cannot run Tap with files: this page's driver cannot catch file choosers",
    );
  }
  const watch = driver.watchFileChooser();
  let chooser: PageFileChooser | undefined;
  try {
    // Chromium applies the interception in the page's renderer, where input events can overtake
    // the command: a round trip proves it applied. The one after the click proves the page
    // handled it, so the wait below does not start while the page is busy.
    await flushDriverEvents(host.driver());
    await clickAt(host, target, context.signal);
    await flushDriverEvents(host.driver());
    chooser = await withinMs(watch.opened, FILE_CHOOSER_WAIT_MS);
  } finally {
    watch.stop();
  }
  if (!chooser) return;
  if (files.length > 1 && !chooser.multiple) {
    throw new SdkRangeError(
      `Cannot choose ${files.length} files: the file input the tap opened accepts one file (it has no "multiple" attribute). Add "multiple" to the input, or pass one file.`,
    );
  }
  await chooser.setFiles(files);
}

// The `files` of a Tap: a path or a list of paths; undefined when absent.
function readFiles(action: string, param: ActionParams): readonly string[] | undefined {
  const value = param.files;
  if (value === undefined || value === null) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((f) => typeof f === "string" && f !== "")) {
    throw new SdkTypeError(
      `Cannot run ${action}: 'files' must be a file path or an array of file paths: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return list;
}
