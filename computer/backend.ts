/**
 * The desktop seam: what {@link ComputerDevice} needs from a desktop, so that one device class
 * drives the local X11 desktop (`x11_backend.ts`), a remote one over RDP (`rdp_backend.ts`), and
 * a Windows, macOS or VNC desktop to come. A {@link DesktopBackend} connects and says what is
 * its own (its keys, whether it pastes text, what it started); once connected it gives a
 * {@link DesktopScreen}: capture, pointer, keys, text, the focused window and the displays.
 *
 * The device keeps what every desktop shares: connecting once, `destroy()`, the action space of
 * `@sdk/core` (`desktopActions`), the input options (`keyboardTypeDelay`, `inputStrategy`).
 *
 * @module
 */

import type { DesktopPointer, Size } from "@sdk/core";
import type { DisplayInfo } from "./display.ts";

/** A connected desktop. Points are pixels of the controlled display. */
export interface DesktopScreen extends DesktopPointer {
  /** The controlled display's size. */
  size(): Size;
  /** A PNG of the controlled display, base64, fully opaque. */
  screenshot(): Promise<string>;
  /**
   * Presses keys by the backend's names ({@link DesktopBackend.keys}): the modifiers first, then
   * the main key, and releases them in reverse order.
   */
  pressKeys(keys: readonly string[]): Promise<void>;
  /**
   * What the screen shows as a whole, for a plan of several actions: the focused top-level
   * window and its application, where the desktop can tell.
   */
  screenContext(): Promise<string>;
  /** The displays of the desktop (`ListDisplays`). */
  listDisplays(): Promise<DisplayInfo[]>;
  /**
   * Throws, before anything is typed, for characters of `text` that neither a key nor the
   * desktop's paste can enter.
   */
  checkTyping(text: string): Promise<void>;
  /** Types `text` key by key, `delay` ms between code points (pasting what no key types). */
  typeKeys(text: string, delay: number, signal: AbortSignal | undefined): Promise<void>;
  /** Enters `text` at once (the clipboard, then the paste shortcut). */
  paste(text: string): Promise<void>;
  /** Ends capture and input (their processes and connections). Called once. */
  close(): Promise<void>;
}

/** One desktop to connect to: the local X11 display, an RDP session, ... */
export interface DesktopBackend {
  /**
   * Connects: starts what the desktop needs (a virtual display, a client), then capture and
   * input. Called again after a failure. When it fails after starting something, it ends it
   * again, except what {@link DesktopBackend.close} ends.
   */
  open(): Promise<DesktopScreen>;
  /** Why the connected desktop can no longer be used (a client that ended), or `undefined`. */
  lost(): Error | undefined;
  /** Ends what {@link DesktopBackend.open} started, after its screen closed. Idempotent. */
  close(): Promise<void>;
  /**
   * Whether whole texts may be pasted (`'legacy'` without a delay, `'bulk'`); `false`: every
   * text is typed key by key.
   */
  readonly pastesText: boolean;
  /**
   * The backend's key names of a `KeyboardPress` key or combination, modifiers first; checked
   * without a connection.
   *
   * @throws {SdkTypeError} naming a key the desktop cannot press.
   */
  keys(combo: string): string[];
  /** The X display name the desktop is shown on (`DISPLAY` until connected), if any. */
  readonly display: string | undefined;
  /** The X authority file of {@link DesktopBackend.display}, if any. */
  readonly xauthority: string | undefined;
  /** The process id of the agent-owned Xvfb of a headless local desktop, while it runs. */
  readonly xvfbPid?: number;
}
