/**
 * {@link PageDriver} over the extension bridge: every call becomes DevTools-protocol commands the
 * SDK Bridge extension runs on its tab through `chrome.debugger` (docs/bridge.md).
 *
 * @module
 */

import type {
  ButtonOptions,
  ClickOptions,
  DriverRequest,
  FileChooserWatch,
  MouseButton,
  NativeDialogType,
  PageDialog,
  PageDriver,
  PageDriverKeyboard,
  PageDriverMouse,
  PageDriverScreencast,
  PageDriverTouch,
  PageFileChooser,
  ScreencastOptions,
  TypeOptions,
  Unsubscribe,
  ViewportInfo,
} from "../page/page_driver.ts";
import type { ScreenshotEncoding } from "../_core.ts";
import { LocateError, SdkTypeError, ToolError } from "../_core.ts";
import { navigationError } from "../page/navigation.ts";
import { pressCombo } from "../page/_press_combo.ts";
import { protocolTouch } from "../page/_touch.ts";
import { protocolScreencast, type ScreencastSession } from "../page/_screencast.ts";
import { keyDefinition } from "./_keys.ts";

/**
 * The channel to the extension a {@link BridgePageDriver} needs: DevTools-protocol commands on
 * the driven tab and its events.
 */
export interface BridgeChannel {
  /**
   * Sends a DevTools-protocol command to the driven tab and resolves with its result.
   *
   * @throws {ToolError} when the command fails; {ConnectionError} when the extension is gone.
   */
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Listens for the driven tab's DevTools-protocol events; returns the removal. */
  onEvent(listener: (method: string, params: Record<string, unknown>) => void): () => void;
}

/** How long navigation commands wait for `DOMContentLoaded`, ms. */
export const BRIDGE_NAVIGATION_TIMEOUT_MS = 30_000;

const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

/**
 * A {@link PageDriver} over a {@link BridgeChannel}: the tab the SDK Bridge extension drives.
 * Input goes through `Input.dispatchMouseEvent` / `dispatchKeyEvent` / `insertText`, screenshots
 * through `Page.captureScreenshot`, scripts through `Runtime.evaluate`, file choosers through
 * `Page.setInterceptFileChooserDialog`, native dialogs through `Page.handleJavaScriptDialog`.
 * Touch and the screencast work as on the other Chromium drivers.
 *
 * Call {@link BridgePageDriver.start} once the tab is attached, before any other member.
 */
export class BridgePageDriver implements PageDriver {
  /** Mouse input; CSS pixels. */
  readonly mouse: PageDriverMouse;
  /** Keyboard input into the focused element. */
  readonly keyboard: PageDriverKeyboard;
  /** Touch input over the tab's DevTools protocol. */
  readonly touch: PageDriverTouch;
  /** The tab's DevTools-protocol screencast; see {@link PageDriver.startScreencast}. */
  readonly startScreencast: (options: ScreencastOptions) => Promise<PageDriverScreencast>;

  readonly #channel: BridgeChannel;
  #x = 0;
  #y = 0;
  #buttons = 0;
  #modifiers = 0;
  #mainFrameId: string | undefined;
  // Redirect hops reuse the protocol's requestId: each hop gets its own DriverRequest.
  readonly #requests = new Map<string, DriverRequest>();
  #hop = 0;
  readonly #startListeners = new Set<(request: DriverRequest) => void>();
  readonly #endListeners = new Set<(request: DriverRequest, failed: boolean) => void>();
  #offNetwork: (() => void) | undefined;
  #chooserWatches = 0;

  /** Wraps a channel; sends nothing until {@link BridgePageDriver.start}. */
  constructor(channel: BridgeChannel) {
    this.#channel = channel;
    const send = (method: string, params?: Record<string, unknown>) => channel.send(method, params);
    this.mouse = {
      move: async (x: number, y: number) => {
        this.#x = x;
        this.#y = y;
        await this.#mouse("mouseMoved", {});
      },
      click: async (x: number, y: number, options?: ClickOptions) => {
        const button = options?.button ?? "left";
        await this.mouse.move(x, y);
        for (let count = 1; count <= (options?.clickCount ?? 1); count++) {
          await this.#press(button, "mousePressed", count);
          await this.#press(button, "mouseReleased", count);
        }
      },
      down: (options?: ButtonOptions) => this.#press(options?.button ?? "left", "mousePressed", 1),
      up: (options?: ButtonOptions) => this.#press(options?.button ?? "left", "mouseReleased", 1),
      wheel: (deltaX: number, deltaY: number) =>
        this.#mouse("mouseWheel", { deltaX, deltaY }).then(() => {}),
    };
    const keys = {
      down: (key: string) => this.#key(key, "down"),
      up: (key: string) => this.#key(key, "up"),
      press: async (key: string) => {
        await this.#key(key, "down");
        await this.#key(key, "up");
      },
    };
    this.keyboard = {
      // Legacy bridge typing has no delay (spec 4.7 `keyboardTypeDelay`): the device's
      // 'sequential' strategy types one code point per call and waits between them itself.
      type: async (text: string, _options?: TypeOptions) => {
        for (const char of text) {
          const name = char === "\n" || char === "\r" ? "Enter" : char === "\t" ? "Tab" : char;
          const known = keyDefinition(name);
          if (known && known.keyCode > 0) await keys.press(name);
          else await send("Input.insertText", { text: char });
        }
      },
      press: (combo: string) => pressCombo(keys, combo),
      insertText: async (text: string) => {
        await send("Input.insertText", { text });
      },
    };
    this.touch = protocolTouch(() => Promise.resolve({ send }));
    this.startScreencast = (options: ScreencastOptions) =>
      protocolScreencast(() => Promise.resolve(this.#session()), options);
  }

  /**
   * Enables the protocol domains the driver listens to (`Page`, `Network`) and reads the main
   * frame's id. Call once after the tab is attached.
   *
   * @throws {ToolError} when the tab refuses the commands.
   */
  async start(): Promise<void> {
    this.#offNetwork ??= this.#channel.onEvent((method, params) => this.#onNetwork(method, params));
    await this.#channel.send("Page.enable");
    await this.#channel.send("Network.enable");
    const tree = await this.#channel.send("Page.getFrameTree") as {
      frameTree: { frame: { id: string } };
    };
    this.#mainFrameId = tree.frameTree.frame.id;
  }

  async #mouse(type: string, extra: Record<string, unknown>): Promise<void> {
    await this.#channel.send("Input.dispatchMouseEvent", {
      type,
      x: this.#x,
      y: this.#y,
      buttons: this.#buttons,
      modifiers: this.#modifiers,
      ...extra,
    });
  }

  async #press(button: MouseButton, type: string, clickCount: number): Promise<void> {
    if (type === "mousePressed") this.#buttons |= BUTTON_BITS[button];
    else this.#buttons &= ~BUTTON_BITS[button];
    await this.#mouse(type, { button, clickCount });
  }

  async #key(name: string, direction: "down" | "up"): Promise<void> {
    const def = keyDefinition(name);
    if (!def) throw new SdkTypeError(`Unknown key: '${name}'`);
    if (def.modifier) {
      if (direction === "down") this.#modifiers |= def.modifier;
      else this.#modifiers &= ~def.modifier;
    }
    // With Control, Alt or Meta held a key is a shortcut: no text, and the editing command
    // Chromium's keyboard would run (select all) named explicitly.
    const shortcut = (this.#modifiers & 7) !== 0;
    const text = direction === "down" && !shortcut ? def.text : undefined;
    const commands = direction === "down" && shortcut && def.code === "KeyA" ? ["selectAll"] : [];
    await this.#channel.send("Input.dispatchKeyEvent", {
      type: direction === "up" ? "keyUp" : text ? "keyDown" : "rawKeyDown",
      key: def.key,
      code: def.code,
      windowsVirtualKeyCode: def.keyCode,
      modifiers: this.#modifiers,
      text,
      unmodifiedText: text,
      commands,
    });
  }

  #session(): ScreencastSession {
    const listeners = new Map<(params: never) => void, () => void>();
    return {
      send: (method, params) => this.#channel.send(method, params),
      on: (event, listener) => {
        listeners.set(
          listener,
          this.#channel.onEvent((method, params) => {
            if (method === event) (listener as (p: unknown) => void)(params);
          }),
        );
      },
      off: (_event, listener) => {
        listeners.get(listener)?.();
        listeners.delete(listener);
      },
      detach: () => {
        for (const off of listeners.values()) off();
        listeners.clear();
        return Promise.resolve();
      },
    };
  }

  /** PNG or JPEG of the viewport in physical pixels (`Page.captureScreenshot`). */
  async screenshot(encoding?: ScreenshotEncoding): Promise<Uint8Array> {
    const format = encoding?.format ?? "png";
    const { data } = await this.#retry(() =>
      this.#channel.send("Page.captureScreenshot", {
        format,
        quality: format === "jpeg" ? encoding?.quality : undefined,
        fromSurface: true,
        captureBeyondViewport: false,
      }) as Promise<{ data: string }>
    );
    return decodeBase64(data);
  }

  /** CSS viewport size and device pixel ratio, read in the page. */
  viewport(): Promise<ViewportInfo> {
    return this.#retry(() =>
      this.evaluate<ViewportInfo>(
        "({ width: innerWidth, height: innerHeight, dpr: devicePixelRatio })",
      )
    );
  }

  /** Runs a script or a self-contained function in the main frame. */
  evaluate<R>(script: string | (() => R | Promise<R>)): Promise<R>;
  /** Runs `fn(arg)` in the main frame; `arg` must be JSON-serialisable. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  async evaluate<R, A>(script: string | ((arg: A) => R | Promise<R>), arg?: A): Promise<R> {
    const expression = typeof script === "string"
      ? script
      : `(${script.toString()})(${arg === undefined ? "" : JSON.stringify(arg)})`;
    const reply = await this.#channel.send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
    }) as {
      result: { value?: unknown };
      exceptionDetails?: { text?: string; exception?: { description?: string } };
    };
    if (reply.exceptionDetails) {
      const details = reply.exceptionDetails;
      const text = details.exception?.description ?? details.text ?? "script failed";
      throw new ToolError(text, { tool: "Chrome", output: text });
    }
    return reply.result.value as R;
  }

  /** Runs `script` in every later document of the tab (`Page.addScriptToEvaluateOnNewDocument`). */
  async addInitScript(script: () => void): Promise<() => Promise<void>> {
    const { identifier } = await this.#channel.send("Page.addScriptToEvaluateOnNewDocument", {
      source: `(${script.toString()})()`,
    }) as { identifier: string };
    return async () => {
      await this.#channel.send("Page.removeScriptToEvaluateOnNewDocument", { identifier })
        .catch(() => {});
    };
  }

  /** The main frame's URL (the current history entry). */
  async url(): Promise<string> {
    const { currentIndex, entries } = await this.#channel.send("Page.getNavigationHistory") as {
      currentIndex: number;
      entries: { url: string }[];
    };
    return entries[currentIndex]?.url ?? "";
  }

  /**
   * Navigates and resolves once the new document is parsed (DOMContentLoaded).
   *
   * @throws {NavigationError} naming the URL, Chrome's reason and what to check when the
   * navigation fails; {ToolError} after {@link BRIDGE_NAVIGATION_TIMEOUT_MS}.
   */
  goto(url: string): Promise<void> {
    return this.#navigation(async () => {
      const result = await this.#channel.send("Page.navigate", { url }) as {
        loaderId?: string;
        errorText?: string;
      };
      if (result.errorText) throw navigationError(url, new Error(result.errorText));
      return result.loaderId !== undefined;
    });
  }

  /** Reloads and resolves once the new document is parsed. */
  reload(): Promise<void> {
    return this.#navigation(async () => {
      await this.#channel.send("Page.reload");
      return true;
    });
  }

  /** Goes back one history entry (no-op without one); resolves once the document is parsed. */
  goBack(): Promise<void> {
    return this.#navigation(async () => {
      const { currentIndex, entries } = await this.#channel.send("Page.getNavigationHistory") as {
        currentIndex: number;
        entries: { id: number; url: string }[];
      };
      if (currentIndex <= 0) return false;
      const here = entries[currentIndex].url, there = entries[currentIndex - 1].url;
      await this.#channel.send("Page.navigateToHistoryEntry", {
        entryId: entries[currentIndex - 1].id,
      });
      // A fragment-only step stays in the document: no DOMContentLoaded comes.
      return here.split("#")[0] !== there.split("#")[0];
    });
  }

  // Runs `start`, which resolves whether a new document loads, then waits for its
  // DOMContentLoaded (listening from before the start).
  async #navigation(start: () => Promise<boolean>): Promise<void> {
    let off: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const parsed = new Promise<void>((resolve, reject) => {
      off = this.#channel.onEvent((method) => {
        if (method === "Page.domContentEventFired") resolve();
      });
      timer = setTimeout(
        () =>
          reject(
            new ToolError(
              `Navigation got no DOMContentLoaded in ${BRIDGE_NAVIGATION_TIMEOUT_MS} ms`,
              { tool: "Chrome" },
            ),
          ),
        BRIDGE_NAVIGATION_TIMEOUT_MS,
      );
    });
    parsed.catch(() => {});
    try {
      if (await start()) await parsed;
    } finally {
      off?.();
      clearTimeout(timer);
    }
  }

  /** Listens for requests sent by the tab's frames (`Network.requestWillBeSent`). */
  onRequestStart(listener: (request: DriverRequest) => void): Unsubscribe {
    this.#startListeners.add(listener);
    return once(() => this.#startListeners.delete(listener));
  }

  /** Listens for requests that finished (`Network.loadingFinished`) or failed. */
  onRequestEnd(listener: (request: DriverRequest, failed: boolean) => void): Unsubscribe {
    this.#endListeners.add(listener);
    return once(() => this.#endListeners.delete(listener));
  }

  // Keeps one DriverRequest per request hop (a redirect reuses the protocol's requestId: it ends
  // the previous hop and starts a new one).
  #onNetwork(method: string, params: Record<string, unknown>): void {
    const id = params.requestId as string;
    const end = (request: DriverRequest | undefined, failed: boolean) => {
      if (!request) return;
      this.#requests.delete(id);
      for (const listener of [...this.#endListeners]) listener(request, failed);
    };
    if (method === "Network.requestWillBeSent") {
      if (params.redirectResponse) end(this.#requests.get(id), false);
      const request: DriverRequest = {
        id: `${id}.${++this.#hop}`,
        url: (params.request as { url: string }).url,
        isMainFrameNavigation: params.type === "Document" && params.loaderId === id &&
          (this.#mainFrameId === undefined || params.frameId === this.#mainFrameId),
      };
      this.#requests.set(id, request);
      for (const listener of [...this.#startListeners]) listener(request);
    } else if (method === "Network.loadingFinished") {
      end(this.#requests.get(id), false);
    } else if (method === "Network.loadingFailed") {
      end(this.#requests.get(id), true);
    }
  }

  /**
   * Catches file choosers (`Page.setInterceptFileChooserDialog`, `Page.fileChooserOpened`) and
   * sets their files with `DOM.setFileInputFiles`; see {@link PageDriver.watchFileChooser}. The
   * interception is on while at least one watch is.
   */
  watchFileChooser(): FileChooserWatch {
    let settle!: (chooser: PageFileChooser | undefined) => void;
    const opened = new Promise<PageFileChooser | undefined>((resolve) => settle = resolve);
    const setIntercept = (enabled: boolean) =>
      this.#channel.send("Page.setInterceptFileChooserDialog", { enabled }).catch(() => {});
    if (this.#chooserWatches++ === 0) setIntercept(true);
    const off = this.#channel.onEvent((method, params) => {
      if (method !== "Page.fileChooserOpened") return;
      const backendNodeId = params.backendNodeId as number | undefined;
      settle({
        multiple: params.mode === "selectMultiple",
        setFiles: async (paths: readonly string[]) => {
          if (backendNodeId === undefined) throw new LocateError("the file input is gone");
          await this.#channel.send("DOM.setFileInputFiles", { files: [...paths], backendNodeId });
        },
      });
    });
    let stopped = false;
    return {
      opened,
      stop: () => {
        if (stopped) return;
        stopped = true;
        off();
        settle(undefined);
        if (--this.#chooserWatches === 0) setIntercept(false);
      },
    };
  }

  /**
   * Hands the tab's native dialogs to `listener` (`Page.javascriptDialogOpening`), answered with
   * `Page.handleJavaScriptDialog`; see {@link PageDriver.onDialog}. Without a listener a dialog
   * stays open in the tab, for the user to answer.
   */
  onDialog(listener: (dialog: PageDialog) => void): Unsubscribe {
    const answer = (accept: boolean, promptText?: string) =>
      this.#channel.send("Page.handleJavaScriptDialog", {
        accept,
        ...(promptText === undefined ? {} : { promptText }),
      }).then(() => {});
    return once(this.#channel.onEvent((method, params) => {
      if (method !== "Page.javascriptDialogOpening") return;
      listener({
        type: params.type as NativeDialogType,
        message: String(params.message ?? ""),
        defaultValue: String(params.defaultPrompt ?? ""),
        accept: (promptText?: string) => answer(true, promptText),
        dismiss: () => answer(false),
      });
    }));
  }

  /** Listens for the top-level document's `load` event (`Page.loadEventFired`). */
  onMainFrameLoad(listener: () => void): Unsubscribe {
    return once(this.#channel.onEvent((method) => {
      if (method === "Page.loadEventFired") listener();
    }));
  }

  async #retry<R>(read: () => Promise<R>): Promise<R> {
    for (let attempt = 1;; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (attempt >= 3) throw error;
        await sleep(100);
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function decodeBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function once(fn: () => void): Unsubscribe {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
