/**
 * `@sdk/mobileb`: iOS agents over the WebDriverAgent HTTP service (spec 4.9). Under construction.
 *
 * @module
 */

/** Default port of the WebDriverAgent HTTP service (spec 4.9 `driverPort`). */
export const DEFAULT_DRIVER_PORT = 8100;
