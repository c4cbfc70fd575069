/**
 * `@sdk/computer`: desktop agents (spec 4.11), locally through nut-js and remotely over RDP.
 * Under construction.
 *
 * @module
 */

/** Default RDP port (spec 4.11 `port`). */
export const DEFAULT_RDP_PORT = 3389;
