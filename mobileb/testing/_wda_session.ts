/**
 * Status and sessions in the WDA front (private to `@sdk/mobileb/testing`), as WDA's
 * FBSessionCommands has them: one session at a time (creating one deletes the last), W3C
 * capabilities with `bundleId` launching the app under test, and deleting a session terminating
 * that app unless `shouldTerminateApp` is false.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { WdaError } from "./_wda_protocol.ts";
import { launchOrActivate, requireInstalled, SPRINGBOARD, terminate } from "./_wda_apps.ts";
import type { WdaRequest, WdaRoute, WdaState } from "./_wda_state.ts";

/** WDA's session information: the session id and its capabilities. */
function sessionInformation(state: WdaState): unknown {
  const bundleId = state.session?.bundleId;
  return {
    sessionId: state.session?.id ?? null,
    capabilities: {
      device: "iPhone",
      sdkVersion: state.osVersion,
      browserName: bundleId ?? null,
      CFBundleIdentifier: bundleId ?? null,
    },
  };
}

/** Deletes the active session, terminating its app unless `shouldTerminateApp` was false. */
async function deleteSession(state: WdaState): Promise<void> {
  const session = state.session;
  state.session = undefined;
  // Element references belong to the session's element cache.
  state.elements.clear();
  state.elementIds = new WeakMap();
  if (session?.bundleId && session.shouldTerminateApp && session.bundleId !== SPRINGBOARD) {
    await terminate(state, session.bundleId);
  }
}

/** Merges W3C capabilities (`alwaysMatch` and the first `firstMatch`), without `appium:`. */
function capabilitiesOf(body: Record<string, unknown>): Record<string, unknown> {
  const capabilities = body.capabilities ?? body.desiredCapabilities;
  if (typeof capabilities !== "object" || capabilities === null) {
    throw new WdaError(
      "session not created",
      "'capabilities' is mandatory to create a new session",
    );
  }
  const c = capabilities as { alwaysMatch?: object; firstMatch?: object[] };
  const merged: Record<string, unknown> = c.alwaysMatch || c.firstMatch
    ? { ...c.alwaysMatch, ...c.firstMatch?.[0] }
    : { ...capabilities };
  // W3C vendor prefixes (`appium:bundleId`) name the same capabilities.
  return Object.fromEntries(
    Object.entries(merged).map(([k, v]) => [k.replace(/^appium:/, ""), v]),
  );
}

async function createSession({ state, body }: WdaRequest): Promise<unknown> {
  const caps = capabilitiesOf(body);
  await deleteSession(state);
  let bundleId: string | undefined;
  if (caps.bundleId !== undefined) {
    try {
      bundleId = requireInstalled(state.phone, caps.bundleId);
    } catch (error) {
      throw new WdaError(
        "session not created",
        `Cannot launch ${caps.bundleId} application. ${(error as Error).message}`,
      );
    }
    // forceAppLaunch (default true) restarts a running app, as XCUIApplication.launch does.
    if (caps.forceAppLaunch !== false) await terminate(state, bundleId);
    await launchOrActivate(state, bundleId, caps.arguments, caps.environment);
  }
  state.session = {
    id: randomUUID().toUpperCase(),
    bundleId,
    shouldTerminateApp: caps.shouldTerminateApp !== false,
  };
  return sessionInformation(state);
}

function status({ state }: WdaRequest): unknown {
  return {
    ready: true,
    message: "WebDriverAgent is ready to accept commands",
    state: "success",
    os: {
      name: "iOS",
      version: state.osVersion,
      sdkVersion: state.osVersion,
      testmanagerdVersion: 28,
    },
    ios: { ip: "127.0.0.1" },
    build: { time: state.started, productBundleIdentifier: "com.facebook.WebDriverAgentRunner" },
    device: "iPhone",
  };
}

/** The status and session routes. */
export function sessionRoutes(): WdaRoute[] {
  return [
    { method: "GET", path: "/status", where: "bare", handler: status },
    { method: "POST", path: "/session", where: "bare", handler: createSession },
    {
      method: "GET",
      path: "",
      where: "session",
      handler: ({ state }) => sessionInformation(state),
    },
    {
      method: "DELETE",
      path: "",
      where: "session",
      handler: async ({ state }) => {
        await deleteSession(state);
        return null;
      },
    },
    { method: "POST", path: "/timeouts", where: "session", handler: () => null },
  ];
}
