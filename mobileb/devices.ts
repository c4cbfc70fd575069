/**
 * `listMobileBDevices`: the iOS devices behind WebDriverAgent URLs, as a device pool's entries
 * (`sdk devices --wda URL`, `sdk run --devices`): `host:port`, device kind, iOS version and
 * screen, read from `/status`, `/window/size` and `/wda/screen`.
 *
 * @module
 */

import { describeEach, type PoolDevice, SdkTypeError } from "@sdk/core";
import { DEFAULT_DRIVER_CONNECT_TIMEOUT_MS } from "./wda.ts";

/** Options of {@link listMobileBDevices}. */
export interface ListMobileBDevicesOptions {
  /** How long each URL may take to answer, ms. Default 5000 (`driverConnectTimeout`'s default). */
  timeout?: number;
  /** Told about a URL that does not answer as WebDriverAgent (it is left out). */
  onError?: (url: string, error: unknown) => void;
}

/** One WDA route's `value`. */
async function value(base: URL, route: string, timeout: number): Promise<unknown> {
  const answer = await fetch(new URL(route, base), { signal: AbortSignal.timeout(timeout) });
  if (!answer.ok) throw new Error(`GET ${route} answered HTTP ${answer.status}`);
  return ((await answer.json()) as { value?: unknown }).value;
}

/**
 * The devices behind `urls` (each WebDriverAgent's `http://host:port`) that answer; the entry's
 * `section` is what a `mobileb` script needs to drive it (`driverHost`, `driverPort`).
 *
 * @throws {SdkTypeError} for a URL that is not an absolute `http:` URL with a port or a host.
 */
export async function listMobileBDevices(
  urls: readonly string[],
  options: ListMobileBDevicesOptions = {},
): Promise<PoolDevice[]> {
  const timeout = options.timeout ?? DEFAULT_DRIVER_CONNECT_TIMEOUT_MS;
  for (const url of urls) {
    if (!URL.canParse(url) || new URL(url).protocol !== "http:") {
      throw new SdkTypeError(
        `a WebDriverAgent URL is an absolute http URL such as http://127.0.0.1:8100: got ` +
          JSON.stringify(url),
      );
    }
  }
  return await describeEach(urls, async (url) => {
    const base = new URL(url);
    const status = await value(base, "/status", timeout) as {
      os?: { version?: string };
      device?: string;
    };
    const points = await value(base, "/window/size", timeout) as {
      width: number;
      height: number;
    };
    const screen = await value(base, "/wda/screen", timeout).catch(() => undefined) as
      | { scale?: number }
      | undefined;
    const scale = screen?.scale ?? 1;
    const port = Number(base.port || 80);
    const entry: PoolDevice = {
      platform: "mobileb",
      id: `${base.hostname}:${port}`,
      ...(status?.device ? { model: status.device } : {}),
      ...(status?.os?.version ? { osVersion: `iOS ${status.os.version}` } : {}),
      screen: {
        width: Math.round(points.width * scale),
        height: Math.round(points.height * scale),
      },
      section: { driverHost: base.hostname, driverPort: port },
    };
    return entry;
  }, options.onError);
}
