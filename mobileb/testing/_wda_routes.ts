/**
 * The route table of the WDA front (private to `@sdk/mobileb/testing`) and how a request finds its
 * route, as WDA's FBRoute does it: a route that needs a session lives under
 * `/session/:sessionID`, one without a session at its bare path, some both ways. A request for a
 * path or method WDA does not have matches nothing (WDA's catch-all answers `unknown command`).
 *
 * @module
 */

import { sessionRoutes } from "./_wda_session.ts";
import { screenRoutes } from "./_wda_screen.ts";
import { inputRoutes } from "./_wda_input.ts";
import { appRoutes } from "./_wda_apps.ts";
import { elementRoutes } from "./_wda_elements.ts";
import { deviceRoutes } from "./_wda_device.ts";
import type { WdaRoute } from "./_wda_state.ts";

/** Every route of the front. */
export function wdaRoutes(): WdaRoute[] {
  return [
    ...sessionRoutes(),
    ...screenRoutes(),
    ...inputRoutes(),
    ...elementRoutes(),
    ...appRoutes(),
    ...deviceRoutes(),
  ];
}

/** Matches `path` against a route path with `:name` segments; the params, or undefined. */
function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return undefined;
  }
  return params;
}

/**
 * The route for a request and its path parameters (`sessionID` for a route under a session), or
 * undefined when no route matches.
 */
export function findRoute(
  routes: readonly WdaRoute[],
  method: string,
  path: string,
): { route: WdaRoute; params: Record<string, string> } | undefined {
  const sessionPath = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
  for (const route of routes) {
    if (route.method !== method) continue;
    if (route.where !== "bare" && sessionPath) {
      const params = match(route.path, sessionPath[2] ?? "");
      if (params) return { route, params: { ...params, sessionID: sessionPath[1] } };
    }
    if (route.where !== "session") {
      const params = match(route.path, path);
      if (params) return { route, params };
    }
  }
  return undefined;
}
