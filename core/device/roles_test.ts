import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { describeRole, findRoleAction } from "./roles.ts";
import type { DeviceAction } from "./types.ts";

const act = (name: string, role?: DeviceAction["role"]): DeviceAction => ({
  name,
  description: name,
  params: [],
  ...(role ? { role } : {}),
  call: () => Promise.resolve(),
});
const names = (...n: string[]) => n.map((x) => act(x));

test(
  "roles by the naming convention: Back/GoBack/...BackButton, Home/...HomeButton, RecentApps/...RecentAppsButton/...AppSwitcher, Launch",
  { timeout: 5000 },
  () => {
    const web = names("Tap", "Navigate", "Reload", "GoBack");
    assert.equal(findRoleAction(web, "back")?.name, "GoBack");
    assert.equal(findRoleAction(web, "home"), undefined);
    assert.equal(findRoleAction(web, "launch"), undefined);
    const a = names(
      "Tap",
      "Launch",
      "MobileABackButton",
      "MobileAHomeButton",
      "MobileARecentAppsButton",
    );
    assert.deepEqual(
      (["back", "home", "recentApps", "launch"] as const).map((r) => findRoleAction(a, r)?.name),
      ["MobileABackButton", "MobileAHomeButton", "MobileARecentAppsButton", "Launch"],
    );
    const b = names("Tap", "Launch", "MobileBHomeButton", "MobileBAppSwitcher");
    assert.equal(findRoleAction(b, "back"), undefined);
    assert.equal(findRoleAction(b, "home")?.name, "MobileBHomeButton");
    assert.equal(findRoleAction(b, "recentApps")?.name, "MobileBAppSwitcher");
    // Only the whole name or its ending counts: "BackButtonHelper" or "Feedback" are not back.
    assert.equal(
      findRoleAction(names("Feedback", "BackButtonHelper", "Homepage"), "back"),
      undefined,
    );
    assert.equal(findRoleAction(names("Homepage"), "home"), undefined);
  },
);

test("an explicit role wins over the names; an action with another explicit role never counts", {
  timeout: 5000,
}, () => {
  const actions = [act("GoBack"), act("PressBackKey", "back"), act("HomeButton", "launch")];
  assert.equal(findRoleAction(actions, "back")?.name, "PressBackKey");
  assert.equal(findRoleAction(actions, "home"), undefined);
  assert.equal(findRoleAction(actions, "launch")?.name, "HomeButton");
  assert.match(
    describeRole("back"),
    /named Back or GoBack, one whose name ends in BackButton, one with role "back"/,
  );
  assert.match(describeRole("launch"), /^an action named Launch, one with role "launch"$/);
});
