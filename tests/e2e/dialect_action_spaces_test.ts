/**
 * The planning dialects (UI-TARS, AutoGLM) on every platform's REAL action space: the web page
 * (with and without touch), MobileA, MobileB and MobileC, built from their devices without a
 * device (tests/e2e/_action_spaces.ts). Back, home, recent apps and launch go to each platform's
 * own action by the roles of core/device/roles.ts; an action a platform lacks fails naming the
 * dialect's action and the platform; each system prompt offers exactly what the device can do.
 *
 * @module
 */

import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { getModelFamily, PlanningError } from "@sdk/core";
import type { DialectStep } from "@sdk/core";
import { startE2e } from "./_setup.ts";
import { phoneSpaces, type PlatformSpace, webSpaces } from "./_action_spaces.ts";

const env = await startE2e();
after(() => env.close());

const IMAGE = { width: 1001, height: 1001, contentWidth: 1001, contentHeight: 1001 };
const tars = getModelFamily("vlm-ui-tars").planner!;
const glm = getModelFamily("auto-glm").planner!;

let cached: PlatformSpace[] | undefined;
async function spaces(): Promise<PlatformSpace[]> {
  return cached ??= [...await phoneSpaces(), ...await webSpaces(env)];
}

function parse(dialect: typeof tars, raw: string, s: PlatformSpace): DialectStep {
  return dialect.parse(raw, { actions: s.actions, image: IMAGE, platform: s.platform });
}

function names(step: DialectStep): string[] {
  assert.equal(step.type, "actions");
  return step.type === "actions" ? step.actions.map((a) => a.name) : [];
}

/** Each platform's own action for back, home and launch (undefined: the platform has none). */
const OWN: Record<string, { back?: string; home?: string; launch?: string }> = {
  "MobileA": { back: "MobileABackButton", home: "MobileAHomeButton", launch: "Launch" },
  "MobileB": { home: "MobileBHomeButton", launch: "Launch" },
  "MobileC": { back: "MobileCBackButton", home: "MobileCHomeButton", launch: "Launch" },
  "web": { back: "GoBack" },
  "web (touch)": { back: "GoBack" },
};

const ANSWERS = {
  back: [
    [tars, "Thought: Go back to the list.\nAction: press_back()"],
    [glm, '<think>Go back.</think><answer>do(action="Back")</answer>'],
  ],
  home: [
    [tars, "Thought: Go home.\nAction: press_home()"],
    [glm, '<think>Go home.</think><answer>do(action="Home")</answer>'],
  ],
  launch: [
    [tars, "Thought: Open Settings.\nAction: open_app(app_name='Settings')"],
    [glm, '<think>Open Settings.</think><answer>do(action="Launch", app="Settings")</answer>'],
  ],
} as const;

test(
  "back, home and launch of both dialects go to each platform's own action",
  { timeout: 30_000 },
  async () => {
    for (const s of await spaces()) {
      for (const role of ["back", "home", "launch"] as const) {
        const own = OWN[s.label][role];
        for (const [dialect, raw] of ANSWERS[role]) {
          const what = `${dialect.name} ${role} on ${s.label}`;
          if (own) {
            const step = parse(dialect, raw, s);
            assert.deepEqual(names(step), [own], what);
            if (role === "launch" && step.type === "actions") {
              assert.deepEqual(step.actions[0].param, { uri: "Settings" }, what);
            }
          } else {
            assert.throws(() => parse(dialect, raw, s), (e: unknown) => {
              assert.ok(e instanceof PlanningError, `${what}: ${e}`);
              const action = dialect === tars
                ? /press_|open_app/
                : /"(Back|Home|Launch)"|Back|Home|Launch/;
              assert.match(e.message, action, what);
              assert.ok(
                e.message.includes(`"${s.platform}"`),
                `${what}: no platform in ${e.message}`,
              );
              for (const a of s.actions) {
                assert.ok(e.message.includes(a.name), `${what}: ${a.name}`);
              }
              return true;
            });
          }
        }
      }
    }
  },
);

/** The UI-TARS actions its prompt offers on each platform, in the prompt's order. */
const TARS_OFFERED: Record<string, string[]> = {
  "MobileA": [
    "click",
    "left_double",
    "drag",
    "hotkey",
    "type",
    "scroll",
    "long_press",
    "open_app",
    "press_home",
    "press_back",
  ],
  "MobileB": [
    "click",
    "left_double",
    "drag",
    "hotkey",
    "type",
    "scroll",
    "long_press",
    "open_app",
    "press_home",
  ],
  "MobileC": [
    "click",
    "left_double",
    "drag",
    "hotkey",
    "type",
    "scroll",
    "long_press",
    "open_app",
    "press_home",
    "press_back",
  ],
  "web": [
    "click",
    "left_double",
    "right_single",
    "hover",
    "drag",
    "hotkey",
    "type",
    "scroll",
    "long_press",
    "press_back",
  ],
  "web (touch)": [
    "click",
    "left_double",
    "right_single",
    "hover",
    "drag",
    "hotkey",
    "type",
    "scroll",
    "long_press",
    "press_back",
  ],
};
const TARS_ALWAYS = ["wait", "finished", "call_user"];
const TARS_ALL = [
  "click",
  "left_double",
  "right_single",
  "hover",
  "drag",
  "hotkey",
  "type",
  "scroll",
  "long_press",
  "open_app",
  "press_home",
  "press_back",
];

/** The AutoGLM actions its prompt offers on each platform. */
const GLM_OFFERED: Record<string, string[]> = {
  "MobileA": ["Tap", "Double Tap", "Long Press", "Type", "Swipe", "Launch", "Back", "Home"],
  "MobileB": ["Tap", "Double Tap", "Long Press", "Type", "Swipe", "Launch", "Home"],
  "MobileC": ["Tap", "Double Tap", "Long Press", "Type", "Swipe", "Launch", "Back", "Home"],
  "web": ["Tap", "Double Tap", "Long Press", "Type", "Back"],
  "web (touch)": ["Tap", "Double Tap", "Long Press", "Type", "Swipe", "Back"],
};
const GLM_ALL = ["Tap", "Double Tap", "Long Press", "Type", "Swipe", "Launch", "Back", "Home"];

function systemPrompt(dialect: typeof tars, s: PlatformSpace): string {
  const image = { dataUri: "data:image/png;base64,AAAA", width: 10, height: 10 };
  const messages = dialect.messages({ instruction: "x", actions: s.actions, image, history: [] });
  return messages[0].content as string;
}

test("each dialect's system prompt offers exactly the actions the platform can do", {
  timeout: 30_000,
}, async () => {
  for (const s of await spaces()) {
    const t = systemPrompt(tars, s);
    for (const name of [...TARS_ALL, ...TARS_ALWAYS]) {
      const offered = TARS_ALWAYS.includes(name) || TARS_OFFERED[s.label].includes(name);
      assert.equal(
        new RegExp(`^${name}\\(`, "m").test(t),
        offered,
        `UI-TARS ${name} on ${s.label}`,
      );
    }
    const g = systemPrompt(glm, s);
    for (const name of GLM_ALL) {
      const offered = GLM_OFFERED[s.label].includes(name);
      assert.equal(g.includes(`do(action="${name}"`), offered, `AutoGLM ${name} on ${s.label}`);
    }
    assert.match(g, /finish\(message=/);
  }
});
