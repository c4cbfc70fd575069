/**
 * The state and route shapes of the WDA front (private to `@sdk/mobileb/testing`): what every route
 * handler works on, and how a route is declared (WDA's path without the `/session/:sessionID`
 * prefix, and whether it lives under a session, without one, or both ways).
 *
 * @module
 */

import type { Page } from "playwright-core";
import type { VirtualPhone } from "@sdk/web/testing";
import type { MjpegSettings } from "./_wda_mjpeg.ts";

/** The active session (WDA keeps one at a time). */
export interface WdaSession {
  id: string;
  /** The app the session launched (capability `bundleId`), if any. */
  bundleId?: string;
  /** Whether deleting the session terminates its app (capability `shouldTerminateApp`). */
  shouldTerminateApp: boolean;
}

/** What a route's handler works on. */
export interface WdaState {
  phone: VirtualPhone;
  /** Physical pixels per point. */
  scale: number;
  /** iOS version reported. */
  osVersion: string;
  /** URL scheme (without `:`, lower case) -> bundle id of the app that opens it. */
  urlSchemes: Record<string, string>;
  mjpeg: MjpegSettings;
  session?: WdaSession;
  /** Launch arguments and environment per bundle id, for activeAppInfo. */
  processArguments: Map<string, { args: string[]; env: Record<string, string> }>;
  /** When the front started, for `/status`'s build time. */
  started: string;
  /** Element references handed out: UUID -> the page and the page's reference of the element. */
  elements: Map<string, { page: Page; ref: string }>;
  /** The UUIDs handed out, per page and reference, so an element keeps its UUID. */
  elementIds: WeakMap<Page, Map<string, string>>;
  /** The device's `identifierForVendor` (`/wda/device/info`'s `uuid`), fixed while the front runs. */
  deviceUuid: string;
  /** Whether element references carry `ELEMENT` beside the W3C key (WDA's do). */
  legacyElementKey: boolean;
}

/** One request as a handler sees it. */
export interface WdaRequest {
  /** Path parameters (`:uuid`), and `sessionID` under `/session/:sessionID`. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body; `{}` when there is none, as WDA reads it. */
  body: Record<string, unknown>;
  state: WdaState;
}

/** A route: `session` only under `/session/:id`, `bare` only without, `both` both ways. */
export interface WdaRoute {
  method: "GET" | "POST" | "DELETE";
  path: string;
  where: "session" | "bare" | "both";
  /** The answer's `value`; throws a WdaError for an error answer. */
  handler: (request: WdaRequest) => Promise<unknown> | unknown;
}

/** The screen's size in points. */
export function screenPoints(state: WdaState): { width: number; height: number } {
  return { width: state.phone.width / state.scale, height: state.phone.height / state.scale };
}
