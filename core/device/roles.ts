/**
 * Roles: the system functions a planner may name without knowing the device's own action names
 * (the UI-TARS `press_back()`, the AutoGLM `do(action="Home")`), matched to a device's action
 * space by one documented convention instead of by platform names:
 *
 * | role         | an action that has it                                                           |
 * | ------------ | ------------------------------------------------------------------------------- |
 * | `back`       | `role: "back"`, or the name `Back` or `GoBack`, or a name ending in `BackButton` |
 * | `home`       | `role: "home"`, or the name `Home`, or a name ending in `HomeButton`             |
 * | `recentApps` | `role: "recentApps"`, or `RecentApps`, or a name ending in `RecentAppsButton` or `AppSwitcher` |
 * | `launch`     | `role: "launch"`, or the name `Launch`                                           |
 *
 * An explicit {@link DeviceAction.role} wins over the names; among several actions of one role
 * the first in the action space is used. So the web page's `GoBack` is back, MobileA's
 * `MobileABackButton`, `MobileAHomeButton` and `MobileARecentAppsButton` are back, home and
 * recent apps, MobileB's `MobileBHomeButton` and `MobileBAppSwitcher` home and recent apps (an
 * iPhone has no back), and MobileC's `MobileCBackButton`, `MobileCHomeButton` and
 * `MobileCRecentAppsButton` back, home and recent apps.
 *
 * @module
 */

import type { DeviceAction } from "./types.ts";

/** A system function an action can perform (see the module doc). */
export type ActionRole = NonNullable<DeviceAction["role"]>;

/** The naming convention of each role: exact names, and name endings. */
const CONVENTIONS: Readonly<
  Record<ActionRole, { names: readonly string[]; suffixes: readonly string[] }>
> = {
  back: { names: ["Back", "GoBack"], suffixes: ["BackButton"] },
  home: { names: ["Home"], suffixes: ["HomeButton"] },
  recentApps: { names: ["RecentApps"], suffixes: ["RecentAppsButton", "AppSwitcher"] },
  launch: { names: ["Launch"], suffixes: [] },
};

/** Whether `action` performs `role` by the naming convention alone. */
function namedFor(action: DeviceAction, role: ActionRole): boolean {
  const { names, suffixes } = CONVENTIONS[role];
  return names.includes(action.name) || suffixes.some((s) => action.name.endsWith(s));
}

/**
 * The action of `actions` that performs `role`: the first with that explicit
 * {@link DeviceAction.role}, else the first named for it by the convention (an action whose
 * explicit role is another one never counts); `undefined` when the device has none.
 */
export function findRoleAction(
  actions: readonly DeviceAction[],
  role: ActionRole,
): DeviceAction | undefined {
  return actions.find((a) => a.role === role) ??
    actions.find((a) => a.role === undefined && namedFor(a, role));
}

/** The convention of `role` in words, for error messages ("an action named Back or GoBack, ..."). */
export function describeRole(role: ActionRole): string {
  const { names, suffixes } = CONVENTIONS[role];
  const parts = [
    `an action named ${names.join(" or ")}`,
    ...(suffixes.length ? [`one whose name ends in ${suffixes.join(" or ")}`] : []),
    `one with role "${role}"`,
  ];
  return parts.join(", ");
}
