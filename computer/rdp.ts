/**
 * `RDPDevice`: a remote desktop over RDP (spec 4.11), a {@link ComputerDevice} over the RDP
 * backend (`rdp_backend.ts`): FreeRDP's X11 client runs on a private Xvfb the size of the remote
 * desktop, the device screenshots and drives that display exactly as it drives a local one, and
 * the client forwards mouse and keys to the remote session.
 *
 * The password goes to `xfreerdp` on its standard input (`/from-stdin`), never in its arguments,
 * its environment or a log. The client's own output is kept in memory, only to name what failed.
 *
 * @module
 */

import { ComputerDevice, useDesktopBackend } from "./device.ts";
import { RdpBackend } from "./rdp_backend.ts";
import { checkRdpDeviceOptions, type RDPDeviceOptions } from "./rdp_options.ts";

/**
 * A remote desktop over RDP. Connects on first use (or `connect()`); `destroy()` disconnects the
 * client, stops its private display and clears the connection state.
 *
 * @example
 * ```ts ignore
 * import { agentForRDPComputer } from "@sdk/computer";
 *
 * const agent = await agentForRDPComputer({ host: "10.0.0.5", username: "me", password: "<PASSWORD>" });
 * await agent.aiTap("the Start button");
 * await agent.destroy();
 * ```
 */
export class RDPDevice extends ComputerDevice {
  /** Interface kind shown in reports. */
  override readonly interfaceType: "computer" = "computer";
  readonly #backend: RdpBackend;

  /**
   * A remote desktop to connect to; nothing connects until the first screenshot or action.
   *
   * @throws {SdkTypeError} (a `TypeError`) for a missing `host`, a `port` that is not an integer
   *   1-65535, an unknown `securityProtocol`, a flag that is not a boolean, a `localAddress`
   *   (unsupported), and the input option errors of {@link ComputerDevice}.
   * @throws {SdkRangeError} (a `RangeError`) for a desktop size outside 200-8192 pixels, or a
   *   `sessionStartTimeout` that is not a number 0-600000.
   */
  constructor(options: RDPDeviceOptions) {
    super({
      customActions: options?.customActions,
      keyboardTypeDelay: options?.keyboardTypeDelay,
      inputStrategy: options?.inputStrategy,
    });
    this.#backend = new RdpBackend(checkRdpDeviceOptions(options));
    useDesktopBackend(this, this.#backend);
  }

  /** `host:port` of the remote desktop. */
  get target(): string {
    return this.#backend.target;
  }
}
