/**
 * A remote desktop over RDP as a {@link DesktopBackend}: FreeRDP's client on a private Xvfb
 * ({@link RdpClient}), whose display is driven as an {@link X11Screen} exactly as a local one;
 * the client forwards mouse and keys to the remote session. What differs from the local desktop:
 * the screen must show the session before it is used, the client may end under the device, and
 * text goes key by key (the client turns keys into scancodes for the remote layout), with only
 * the characters no key types pasted through the RDP clipboard channel.
 *
 * @module
 */

import process from "node:process";
import { ConnectionError, holdOpen, sleep } from "@sdk/core";
import type { DesktopBackend, DesktopScreen } from "./backend.ts";
import { desktopKeys } from "./keys.ts";
import { RdpClient } from "./rdp_client.ts";
import { checkPastable, pasteOverRdp } from "./rdp_clipboard.ts";
import type { RdpSettings } from "./rdp_options.ts";
import { openX11Screen, type X11Clipboard, type X11Screen } from "./x11_screen.ts";

/** A remote desktop over RDP. */
export class RdpBackend implements DesktopBackend {
  readonly #client: RdpClient;
  readonly #sessionTimeout: number;
  #display: string | undefined;
  #xauthority: string | undefined;

  /** @param settings the checked RDP options. */
  constructor(settings: RdpSettings) {
    this.#client = new RdpClient(settings);
    this.#sessionTimeout = settings.sessionTimeout;
  }

  /**
   * Text goes key by key (the client turns the keys into scancodes for the remote layout);
   * only characters no key types are pasted, through the clipboard channel.
   */
  readonly pastesText = false;

  /** `host:port` of the remote desktop. */
  get target(): string {
    return this.#client.target;
  }

  /** The client's private display once connected, else `DISPLAY`. */
  get display(): string | undefined {
    return this.#display ?? process.env.DISPLAY;
  }

  /** The private display's cookie file once connected, else `XAUTHORITY` of the process. */
  get xauthority(): string | undefined {
    return this.#xauthority ?? process.env.XAUTHORITY;
  }

  /** nut-js's keys of a combination, as on the local desktop (the client's display is X11). */
  keys(combo: string): string[] {
    return desktopKeys(combo).keys;
  }

  /**
   * Connects the client ({@link RdpClient.connect}), then drives its display once the remote
   * session shows something.
   *
   * @throws what {@link RdpClient.connect} and {@link openX11Screen} throw; {ConnectionError}
   *   (kind `timeout`) when the session's screen stays black past `sessionStartTimeout`.
   */
  async open(): Promise<DesktopScreen> {
    const { display, xauthority } = await this.#client.connect();
    this.#display = display;
    this.#xauthority = xauthority;
    return await openX11Screen(display, xauthority, {
      modifierDelay: 0,
      clipboard: (screen) => this.#clipboard(screen),
      check: (screen) => this.#sessionStarted(screen),
      closeDisplay: () => this.close(),
    });
  }

  /** The client ended after it connected: the connection was lost. */
  lost(): Error | undefined {
    return this.#client.lost;
  }

  /** Disconnects the client, stops its display, forgets the connection state. */
  async close(): Promise<void> {
    await this.#client.close();
  }

  /**
   * Characters no key of the private display's keymap types go through the clipboard channel:
   * refused before anything is typed when the server has none (an `SdkTypeError` naming them),
   * each paste confirmed step by step by the client's log.
   */
  #clipboard(screen: X11Screen): X11Clipboard {
    const client = this.#client;
    return {
      check: async (chars) => {
        await checkPastable(client.clipboard, chars, client.target, client.connectedAt + 5000);
      },
      paste: async (text) => {
        const x11 = await screen.x11();
        await pasteOverRdp(client.clipboard, x11, () => screen.pressControlV(), text, this.target);
      },
    };
  }

  /**
   * Waits until the remote screen shows something: frames that stay all black past
   * `sessionStartTimeout` mean the remote session did not start.
   *
   * @throws {ConnectionError} (kind `timeout`) naming the likely causes.
   */
  async #sessionStarted(screen: X11Screen): Promise<void> {
    if (this.#sessionTimeout === 0) return;
    const deadline = Date.now() + this.#sessionTimeout;
    while (await holdOpen(screen.isBlack())) {
      const lost = this.lost();
      if (lost) throw lost;
      if (Date.now() > deadline) {
        throw new ConnectionError(
          `Cannot use the RDP session at ${this.target}: its screen stayed all black for ` +
            `${this.#sessionTimeout / 1000} s after the connection, so the remote session did ` +
            "not start. Likely causes: xrdp could not start the session's X server because its " +
            "socket folder /run/xrdp/sockdir does not let the user create sockets (it must be " +
            "mode 3777: sticky and writable by all; see xrdp-sesman's log); the user has no " +
            "desktop session to start (~/.xsession, the window manager); the server ran out " +
            "of sessions. Set sessionStartTimeout (ms) for a slower session, or 0 for a " +
            "desktop that is black on purpose",
          { kind: "timeout", endpoint: this.target },
        );
      }
      await sleep(200);
    }
  }
}
