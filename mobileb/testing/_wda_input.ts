/**
 * The input routes of the WDA front (private to `@sdk/mobileb/testing`), as WDA's
 * FBElementCommands, FBCustomCommands and W3C actions register them: taps and gestures at points,
 * W3C actions, typing and the keyboard. The phone takes physical pixels: points times the scale.
 *
 * @module
 */

import { KEYCODE } from "@sdk/web/testing";
import { numberArg, secondsArg, WdaError } from "./_wda_protocol.ts";
import {
  compileW3cActions,
  dragPlan,
  type GesturePlan,
  holdPlan,
  playGesture,
} from "./_wda_actions.ts";
import { typeKeys } from "./_wda_keys.ts";
import type { WdaRequest, WdaRoute, WdaState } from "./_wda_state.ts";

const play = (state: WdaState, plan: GesturePlan) => playGesture(state.phone, state.scale, plan);

async function tap({ state, body }: WdaRequest): Promise<null> {
  const [x, y] = [numberArg(body, "x"), numberArg(body, "y")];
  await state.phone.tap(x * state.scale, y * state.scale);
  return null;
}

async function doubleTap({ state, body }: WdaRequest): Promise<null> {
  const [x, y] = [numberArg(body, "x"), numberArg(body, "y")];
  await state.phone.tap(x * state.scale, y * state.scale);
  await state.phone.tap(x * state.scale, y * state.scale);
  return null;
}

async function keys({ state, body }: WdaRequest): Promise<null> {
  const value = body.value;
  if (!Array.isArray(value) && typeof value !== "string") {
    throw new WdaError(
      "invalid argument",
      `'value' must be an array of strings to type, got ${JSON.stringify(value)}`,
    );
  }
  await typeKeys(state.phone, Array.isArray(value) ? value.join("") : value);
  return null;
}

async function dismissKeyboard({ state }: WdaRequest): Promise<null> {
  // Back hides the keyboard and nothing else while it is up; without a keyboard there is
  // nothing to do, as in WDA.
  if (await state.phone.keyboardShown()) await state.phone.keyEvent(KEYCODE.BACK);
  return null;
}

/** The input routes. */
export function inputRoutes(): WdaRoute[] {
  return [
    { method: "POST", path: "/wda/tap", where: "session", handler: tap },
    { method: "POST", path: "/wda/tap/:uuid", where: "session", handler: tap },
    { method: "POST", path: "/wda/doubleTap", where: "session", handler: doubleTap },
    {
      method: "POST",
      path: "/wda/touchAndHold",
      where: "session",
      handler: async ({ state, body }) => {
        const at = { x: numberArg(body, "x"), y: numberArg(body, "y") };
        await play(state, holdPlan(at, secondsArg(body)));
        return null;
      },
    },
    {
      method: "POST",
      path: "/wda/dragfromtoforduration",
      where: "session",
      handler: async ({ state, body }) => {
        const from = { x: numberArg(body, "fromX"), y: numberArg(body, "fromY") };
        const to = { x: numberArg(body, "toX"), y: numberArg(body, "toY") };
        await play(state, dragPlan(from, to, secondsArg(body)));
        return null;
      },
    },
    {
      method: "POST",
      path: "/actions",
      where: "session",
      handler: async ({ state, body }) => {
        await play(state, compileW3cActions(body.actions));
        return null;
      },
    },
    {
      method: "DELETE",
      path: "/actions",
      where: "session",
      handler: async ({ state }) => {
        await state.phone.multiTouch([]);
        return null;
      },
    },
    { method: "POST", path: "/wda/keys", where: "session", handler: keys },
    { method: "POST", path: "/wda/keyboard/dismiss", where: "session", handler: dismissKeyboard },
  ];
}
