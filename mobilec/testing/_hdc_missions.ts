/**
 * `aa dump -l` of the hdc front (private to `@sdk/mobilec/testing`): the mission list as
 * AbilityManagerService prints it, one mission per running app of the virtual phone, the app in
 * front with `state #FOREGROUND`, the others `#BACKGROUND`. The home screen has no mission.
 *
 * @module
 */

import { LAUNCHER_PACKAGE, type VirtualPhone } from "@sdk/web/testing";

/** The mission list of `aa dump -l`, oldest mission first. */
export function missionList(phone: VirtualPhone): string {
  const front = phone.foregroundApp();
  const bundles = phone.packages();
  const missions = phone.runningApps().reverse().filter((b) => b !== LAUNCHER_PACKAGE).map(
    (bundle) => {
      const foreground = bundle === front.packageName;
      const ability = foreground ? front.activity : phone.activityOf(bundle) ?? "";
      const state = foreground ? "FOREGROUND" : "BACKGROUND";
      const id = 100 + bundles.indexOf(bundle);
      return [
        `    Mission ID #${id}  mission name #[#${bundle}:entry:${ability}]  lockedState #0  mission affinity #[]`,
        `      AbilityRecord ID #${id + 1000}`,
        `        app name [${bundle}]`,
        `        main name [${ability}]`,
        `        bundle name [${bundle}]`,
        `        ability type [PAGE]`,
        `        state #${state}  start time [0]`,
        `        app state #${state}`,
        `        ready #1  window attached #0  launcher #0`,
        `        callee connections: `,
        `        isKeepAlive: false`,
      ].join("\n");
    },
  );
  return `User ID #100\n  current mission lists:{\n${missions.join("\n")}\n }\n`;
}
