import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { foregroundMission } from "./apps.ts";

const mission = (id: number, bundle: string, ability: string, state: string, app = state) =>
  [
    `    Mission ID #${id}  mission name #[#${bundle}:entry:${ability}]  lockedState #0`,
    `      AbilityRecord ID #${id + 900}`,
    `        app name [${bundle}]`,
    `        main name [${ability}]`,
    `        bundle name [${bundle}]`,
    `        ability type [PAGE]`,
    `        state #${state}  start time [1732600000000]`,
    `        app state #${app}`,
    `        ready #1  window attached #0  launcher #0`,
  ].join("\n");

const list = (...missions: string[]) =>
  `User ID #100\n  current mission lists:{\n${missions.join("\n")}\n }\n`;

test("foregroundMission picks the mission whose own state is FOREGROUND, as bundle/ability", () => {
  const dump = list(
    mission(12, "com.example.mail", "EntryAbility", "BACKGROUND", "FOREGROUND"),
    mission(13, "com.example.maps", "MapAbility", "FOREGROUND"),
    mission(14, "com.example.notes", "EntryAbility", "BACKGROUND"),
  );
  assert.equal(foregroundMission(dump), "com.example.maps/MapAbility");
});

test("foregroundMission: no mission in front (the home screen), an empty or foreign answer", () => {
  assert.equal(
    foregroundMission(list(mission(12, "com.example.mail", "EntryAbility", "BACKGROUND"))),
    undefined,
  );
  assert.equal(foregroundMission(list()), undefined);
  assert.equal(foregroundMission("/bin/sh: aa: inaccessible or not found\n"), undefined);
});

test("foregroundMission falls back to the bundle name when the mission name has another shape", () => {
  const dump = "Mission ID #7  mission name #[#odd]\n  bundle name [com.example.odd]\n" +
    "  state #FOREGROUND\n";
  assert.equal(foregroundMission(dump), "com.example.odd");
});
