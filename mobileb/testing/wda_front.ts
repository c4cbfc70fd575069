/**
 * The WebDriverAgent (WDA) front of the device simulator kit: WDA's HTTP protocol over a
 * {@link VirtualPhone}, so an iOS client that drives a real iPhone's WDA drives the virtual phone
 * instead. Coordinates are in **points**: physical pixels divided by the iOS scale factor.
 *
 * @module
 */

import http from "node:http";
import { randomUUID } from "node:crypto";
import type { VirtualPhone } from "@sdk/web/testing";
import { errorBody, okBody, WDA_ERRORS, WdaError } from "./_wda_protocol.ts";
import { findRoute, wdaRoutes } from "./_wda_routes.ts";
import type { WdaState } from "./_wda_state.ts";
import { MJPEG_SETTING_LIMITS, type MjpegServer, startMjpegServer } from "./_wda_mjpeg.ts";
import { SdkTypeError } from "@sdk/core";

/** Options of {@link startWdaFront}. */
export interface WdaFrontOptions {
  /** TCP port of the WDA HTTP server on 127.0.0.1. 0 or omitted: a free port. */
  port?: number;
  /** TCP port of the MJPEG screen stream on 127.0.0.1. 0 or omitted: a free port. */
  mjpegPort?: number;
  /** iOS scale factor: physical pixels per point. Default: the phone's `density`. */
  scale?: number;
  /** The iOS version `/status` and the session report. Default `"17.5"`. */
  osVersion?: string;
  /**
   * URL schemes (without `:`) -> the bundle id of the installed app that opens them, for
   * `POST /session/:id/url`. `http` and `https` always open in Safari (`com.apple.mobilesafari`).
   * Default: none.
   */
  urlSchemes?: Record<string, string>;
  /** MJPEG frames per second (WDA's `mjpegServerFramerate`). Default 10. */
  mjpegFramerate?: number;
  /** MJPEG JPEG quality, 1-100 (WDA's `mjpegServerScreenshotQuality`). Default 25. */
  mjpegQuality?: number;
  /** MJPEG frame size, percent of the physical screen (WDA's `mjpegScalingFactor`). Default 100. */
  mjpegScalingFactor?: number;
  /**
   * Whether element references carry the JSON Wire Protocol key `ELEMENT` beside the W3C key
   * `element-6066-11e4-a52e-4f735466cecf`, as WebDriverAgent's do. Default `true`; `false`
   * answers as a W3C-only server does (Appium in front of WDA, for example), to test that a
   * client reads the W3C key.
   */
  legacyElementKey?: boolean;
}

/**
 * A fault for the next matching request(s), to test a client's error handling: `error` answers
 * WDA's error shape `{ value: { error, message, traceback }, sessionId }` with `status`;
 * `drop` closes the connection without an answer.
 */
export interface WdaFault {
  /** HTTP method to match (any case). Default: any method. */
  method?: string;
  /** The request's path without its query: equal to a string, or matching a RegExp. */
  path: string | RegExp;
  /** Answer with an error, or drop the connection. */
  kind: "error" | "drop";
  /** HTTP status of the error answer. Default 500. */
  status?: number;
  /** WDA error name. Default `"unknown error"`. */
  error?: string;
  /** Error message. Default: WDA's message for an unknown error. */
  message?: string;
  /** How many matching requests it applies to. Default 1. */
  times?: number;
}

/** A running WDA front. */
export interface WdaFront {
  /** Port of the WDA HTTP server. */
  readonly port: number;
  /** Port of the MJPEG screen stream. */
  readonly mjpegPort: number;
  /** `http://127.0.0.1:<port>`, the WDA base URL. */
  readonly url: string;
  /** Ids of the open sessions: WDA keeps at most one, so [] or [id]. */
  sessionIds(): string[];
  /** Makes the next matching request(s) fail (see {@link WdaFault}); faults match in order. */
  injectFault(fault: WdaFault): void;
  /** Stops both servers and drops their connections. Does not close the phone. */
  close(): Promise<void>;
}

type Fault = Required<Pick<WdaFault, "kind" | "path">> & WdaFault & { left: number };

function checkOption(
  name: string,
  value: number | undefined,
  [min, max]: readonly [number, number],
): void {
  if (value !== undefined && !(typeof value === "number" && value >= min && value <= max)) {
    throw new SdkTypeError(
      `startWdaFront(): ${name} must be a number from ${min} to ${max}, got ${value}`,
    );
  }
}

/** Reads a request's JSON body; WDA treats a missing or unreadable body as `{}`. */
function readBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    request.on("error", reject);
    request.on("end", () => {
      try {
        const parsed = JSON.parse(new TextDecoder().decode(concat(chunks)));
        resolve(typeof parsed === "object" && parsed !== null ? parsed : {});
      } catch {
        resolve({});
      }
    });
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * Starts WDA's HTTP protocol in front of a virtual phone, on 127.0.0.1: WDA's routes for
 * sessions, screenshots (PNG, physical pixels), screen and window sizes and rects (points), taps
 * and gestures, W3C actions with several fingers, typing, apps, buttons, URLs, the page source,
 * finding elements (accessibility id, class name, predicate string, class chain, XPath) and
 * element commands, device and battery info and the health check, with WDA's envelope, element
 * references and error shapes; and WDA's MJPEG screen stream on `mjpegPort`. docs/simulator.md
 * lists the routes, and its Fidelity section what is answered as WDA does and what is not.
 *
 * @example
 * ```ts ignore
 * const phone = await startVirtualPhone({ width: 1170, height: 2532, density: 3, apps });
 * const wda = await startWdaFront(phone); // scale 3: 390 x 844 points
 * const { value } = await (await fetch(`${wda.url}/session`, {
 *   method: "POST",
 *   body: JSON.stringify({ capabilities: { alwaysMatch: { bundleId: "com.example.notes" } } }),
 * })).json();
 * await fetch(`${wda.url}/session/${value.sessionId}/wda/tap`, {
 *   method: "POST",
 *   body: JSON.stringify({ x: 195, y: 120 }), // points
 * });
 * await wda.close();
 * ```
 *
 * @throws {SdkTypeError} when an option is out of range.
 */
export async function startWdaFront(
  phone: VirtualPhone,
  options: WdaFrontOptions = {},
): Promise<WdaFront> {
  const scale = options.scale ?? phone.density;
  if (typeof scale !== "number" || !Number.isFinite(scale) || scale <= 0) {
    throw new SdkTypeError(`startWdaFront(): scale must be a positive number, got ${scale}`);
  }
  checkOption("mjpegFramerate", options.mjpegFramerate, MJPEG_SETTING_LIMITS.mjpegServerFramerate);
  checkOption(
    "mjpegQuality",
    options.mjpegQuality,
    MJPEG_SETTING_LIMITS.mjpegServerScreenshotQuality,
  );
  checkOption(
    "mjpegScalingFactor",
    options.mjpegScalingFactor,
    MJPEG_SETTING_LIMITS.mjpegScalingFactor,
  );
  const state: WdaState = {
    phone,
    scale,
    osVersion: options.osVersion ?? "17.5",
    urlSchemes: Object.fromEntries(
      Object.entries(options.urlSchemes ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    ),
    mjpeg: {
      mjpegServerFramerate: options.mjpegFramerate ?? 10,
      mjpegServerScreenshotQuality: options.mjpegQuality ?? 25,
      mjpegScalingFactor: options.mjpegScalingFactor ?? 100,
    },
    processArguments: new Map(),
    elements: new Map(),
    elementIds: new WeakMap(),
    deviceUuid: randomUUID().toUpperCase(),
    legacyElementKey: options.legacyElementKey ?? true,
    started: new Date().toUTCString(),
  };

  const routes = wdaRoutes();
  const faults: Fault[] = [];
  // WDA runs commands one at a time on its main queue; so does the front.
  let queue: Promise<unknown> = Promise.resolve();

  const answer = (
    response: http.ServerResponse,
    status: number,
    body: string,
  ): void => {
    response.writeHead(status, {
      // No keep-alive: clients (Deno's fetch among them) resend a request that a reused
      // connection dropped, which would hide a `drop` fault behind a silent retry.
      "Connection": "close",
      "Content-Type": "application/json;charset=UTF-8",
      "Server": "WebDriverAgent/1.0",
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "Content-Type, X-Requested-With",
    });
    response.end(body);
  };

  const handle = async (
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = (request.method ?? "GET").toUpperCase();
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
    const body = await readBody(request);
    const sessionId = () => state.session?.id ?? null;

    // `search`, not `test`: a RegExp with the g flag would carry lastIndex between requests.
    const fault = faults.find((f) =>
      (!f.method || f.method.toUpperCase() === method) &&
      (typeof f.path === "string" ? f.path === path : path.search(f.path) !== -1)
    );
    if (fault) {
      if (--fault.left <= 0) faults.splice(faults.indexOf(fault), 1);
      if (fault.kind === "drop") {
        request.socket.destroy();
        return;
      }
      return answer(
        response,
        fault.status ?? 500,
        errorBody(
          fault.error ?? "unknown error",
          fault.message ?? WDA_ERRORS["unknown error"][1],
          sessionId(),
        ),
      );
    }

    const found = findRoute(routes, method, path);
    try {
      if (!found) {
        throw new WdaError(
          "unknown command",
          `Unhandled endpoint: ${path} with parameters ${
            JSON.stringify(Object.fromEntries(url.searchParams))
          }`,
        );
      }
      const { route, params } = found;
      if (params.sessionID !== undefined && params.sessionID !== state.session?.id) {
        throw new WdaError("invalid session id", "Session does not exist");
      }
      const value = await route.handler({ params, query: url.searchParams, body, state });
      answer(response, 200, okBody(value, sessionId()));
    } catch (error) {
      if (error instanceof WdaError) {
        return answer(response, error.status, errorBody(error.error, error.message, sessionId()));
      }
      const message = error instanceof Error ? error.message : String(error);
      answer(response, 500, errorBody("unknown error", message, sessionId(), String(error)));
    }
  };

  const server = http.createServer((request, response) => {
    const result = queue.then(() => handle(request, response));
    queue = result.catch(() => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  let mjpeg: MjpegServer;
  try {
    mjpeg = await startMjpegServer(phone, state.mjpeg, options.mjpegPort ?? 0);
  } catch (error) {
    server.close();
    throw error;
  }
  const port = (server.address() as { port: number }).port;
  let closed = false;
  return {
    port,
    mjpegPort: mjpeg.port,
    url: `http://127.0.0.1:${port}`,
    sessionIds: () => state.session ? [state.session.id] : [],
    injectFault(fault: WdaFault): void {
      if (fault.kind !== "error" && fault.kind !== "drop") {
        throw new SdkTypeError(`injectFault(): kind must be "error" or "drop", got ${fault.kind}`);
      }
      const times = fault.times ?? 1;
      if (!Number.isInteger(times) || times < 1) {
        throw new SdkTypeError(
          `injectFault(): times must be a whole number of 1 or more, got ${times}`,
        );
      }
      faults.push({ ...fault, left: times });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await mjpeg.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
