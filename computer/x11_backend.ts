/**
 * The local desktop as a {@link DesktopBackend}: the X display given (`display`, else `DISPLAY`),
 * or an agent-owned Xvfb (`headless`), shown as an {@link X11Screen} on one of its monitors
 * (`displayId`). Text no key types goes through the display's clipboard.
 *
 * @module
 */

import process from "node:process";
import { UnsupportedActionError } from "@sdk/core";
import type { DesktopBackend, DesktopScreen } from "./backend.ts";
import { startXvfb, type VirtualDisplay } from "./display.ts";
import { desktopKeys } from "./keys.ts";
import { openX11Screen } from "./x11_screen.ts";

/** The local options of `ComputerDevice`, checked. */
export interface X11BackendOptions {
  /** The monitor to work on; the default one when left out. */
  displayId: string | undefined;
  /** The X display to drive; `DISPLAY` when left out. */
  display: string | undefined;
  /** Its X authority file; `XAUTHORITY` when left out. */
  xauthority: string | undefined;
  /** Start an agent-owned Xvfb and work on it. */
  headless: boolean;
  /** The Xvfb screen, `<width>x<height>x<depth>`. */
  resolution: string;
  /** ms after each modifier press or release and after the main key. */
  modifierDelay: number;
}

/** The local X11 desktop (or an agent-owned Xvfb). */
export class X11Backend implements DesktopBackend {
  readonly #options: X11BackendOptions;
  #xvfb: VirtualDisplay | undefined;
  #display: string | undefined;
  #xauthority: string | undefined;

  /** @param options the checked local options. */
  constructor(options: X11BackendOptions) {
    this.#options = options;
  }

  /** Whole texts may go through the clipboard. */
  readonly pastesText = true;

  /** The display given, else `DISPLAY`; the agent's own Xvfb's once connected. */
  get display(): string | undefined {
    return this.#display ?? this.#options.display ?? process.env.DISPLAY;
  }

  /** The own Xvfb's cookie file, else the one given, else `XAUTHORITY` of the process. */
  get xauthority(): string | undefined {
    return this.#xauthority ?? this.#options.xauthority ?? process.env.XAUTHORITY;
  }

  /** The process id of the agent-owned Xvfb while it runs. */
  get xvfbPid(): number | undefined {
    return this.#xvfb?.pid;
  }

  /** nut-js's keys of a combination; keys X11 cannot press are refused ({@link desktopKeys}). */
  keys(combo: string): string[] {
    return desktopKeys(combo).keys;
  }

  /**
   * Starts Xvfb when `headless`, confirms the X server, loads nut-js, finds the display.
   *
   * @throws {UnsupportedActionError} for `headless` off Linux; and what {@link openX11Screen}
   *   and Xvfb throw.
   */
  async open(): Promise<DesktopScreen> {
    const { display, xauthority } = await this.#openDisplay();
    this.#display = display;
    this.#xauthority = xauthority;
    return await openX11Screen(display, xauthority, {
      displayId: this.#options.displayId,
      modifierDelay: this.#options.modifierDelay,
      closeDisplay: () => this.close(),
    });
  }

  /** Nothing is lost locally but the X server, which the screen's calls report. */
  lost(): Error | undefined {
    return undefined;
  }

  /**
   * The X display to work on, and its X authority file when the SDK started it: the agent's own
   * Xvfb when `headless`, else the display given (with its authority file) or `DISPLAY`.
   */
  async #openDisplay(): Promise<{ display: string | undefined; xauthority?: string }> {
    if (!this.#options.headless) {
      return {
        display: this.#options.display ?? process.env.DISPLAY,
        xauthority: this.#options.xauthority,
      };
    }
    if (!this.#xvfb) {
      if (process.platform !== "linux") {
        throw new UnsupportedActionError(
          `Cannot start a virtual display (headless) on ${process.platform}: Xvfb is for Linux; ` +
            "leave 'headless' out and run in the desktop session",
          "headless",
        );
      }
      this.#xvfb = await startXvfb(this.#options.resolution);
    }
    return { display: this.#xvfb.display, xauthority: this.#xvfb.xauthority };
  }

  /** Stops the agent-owned Xvfb, if any. */
  async close(): Promise<void> {
    const xvfb = this.#xvfb;
    this.#xvfb = undefined;
    await xvfb?.stop();
  }
}
