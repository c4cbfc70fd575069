/**
 * The web page device's action space (private to `@sdk/web`): each built-in web action with its
 * parameters, wired to the module that does it (clicks and scrolls, text input, the file chooser,
 * gestures), and the page-level actions `KeyboardPress`, `Navigate`, `Reload` and `GoBack`.
 *
 * @module
 */

import type { ActionContext, ActionParams, ActionParamSpec, DeviceAction } from "../_core.ts";
import {
  clearInputAction,
  doubleClickAction,
  inputAction,
  keyboardPressAction,
  readKeyComboParam,
  readLocateParam,
  readStringParam,
  scrollAction,
  SdkTypeError,
  tapAction,
} from "../_core.ts";
import { gestureActions } from "./_gestures.ts";
import { tap } from "./_file_chooser.ts";
import { clickAt, scrollPage } from "./_pointer_input.ts";
import { clearInput, inputText, type TextInputHost } from "./_text_input.ts";

/** What the web actions need from the device. */
export type WebActionHost = TextInputHost;

/**
 * The built-in web actions, in the order the planner is offered them; `Swipe` and `Pinch` only
 * when `touchEnabled`.
 */
export function webActions(host: WebActionHost, touchEnabled: boolean): DeviceAction[] {
  const locate = (required: boolean, description: string): ActionParamSpec => ({
    name: "locate",
    type: "locate",
    required,
    description,
  });
  const action = (
    name: string,
    description: string,
    params: ActionParamSpec[],
    run: (
      param: ActionParams,
      signal: AbortSignal | undefined,
      context: ActionContext | undefined,
    ) => Promise<void>,
  ): DeviceAction => ({
    name,
    description,
    params,
    call: async (param: ActionParams, context: ActionContext) => {
      context?.signal?.throwIfAborted();
      await run(param ?? {}, context?.signal, context);
    },
  });

  return [
    tapAction((param, context) => tap(host, param, context), {
      description: "Click an element once with the left mouse button.",
      params: { locate: "the element to click" },
      extraParams: [{
        name: "files",
        type: "files",
        required: false,
        description:
          "only when the click opens a file chooser (an upload button or file input): the files to choose, as an array of paths; relative paths are relative to the upload directory the user allowed; several files only for an input that accepts multiple files",
      }],
    }),
    doubleClickAction(async (param, { signal }) => {
      const target = readLocateParam("DoubleClick", param, true);
      await clickAt(host, target, signal, { clickCount: 2 });
    }),
    action(
      "RightClick",
      "Right-click an element (for the page's own context menu, not the browser's).",
      [locate(true, "the element to right-click")],
      async (param, signal) => {
        const target = readLocateParam("RightClick", param, true);
        await clickAt(host, target, signal, { button: "right" });
      },
    ),
    action("Hover", "Move the mouse pointer over an element without clicking.", [
      locate(true, "the element to hover"),
    ], async (param) => {
      const [x, y] = readLocateParam("Hover", param, true).center;
      await host.driver().mouse.move(x, y);
      host.pointerMoved([x, y]);
    }),
    inputAction((param, context) =>
      inputText(host, param, context.signal, context.inputOptions, context.secret)
    ),
    clearInputAction((param, { signal }) => clearInput(host, param, signal)),
    keyboardPressAction(async (param, { signal }) => {
      const target = readLocateParam("KeyboardPress", param, false);
      const combo = readKeyComboParam(param);
      if (target) await clickAt(host, target, signal);
      signal?.throwIfAborted();
      await host.driver().keyboard.press(combo);
    }),
    scrollAction((param, { signal }) => scrollPage(host, param, signal), { unit: "CSS pixels" }),
    action("Navigate", "Open a URL in the current tab.", [
      { name: "url", type: "string", required: true, description: "the URL to open" },
    ], async (param) => {
      const url = readStringParam("Navigate", param, "url", true).trim();
      if (url === "") {
        throw new SdkTypeError(`Cannot run Navigate: 'url' must not be empty: current value is ""`);
      }
      await host.driver().goto(withScheme(url));
    }),
    action("Reload", "Reload the current page.", [], async () => {
      await host.driver().reload();
    }),
    action("GoBack", "Go back to the previous page in the tab's history.", [], async () => {
      await host.driver().goBack();
    }),
    ...gestureActions(host, touchEnabled),
  ];
}

// Models often write "example.com" or "localhost:3000"; drivers reject URLs without a scheme.
function withScheme(url: string): string {
  if (/^[\w.-]+:\d+(?:[/?#]|$)/.test(url)) return `http://${url}`;
  return /^[a-z][a-z\d+.-]*:/i.test(url) ? url : `https://${url}`;
}
