/**
 * Key-by-key typing follows the X server's active keymap, read from the server: on a headless
 * device's own display (private, so the Tk fixture app gets the device's `xauthority`), with
 * default settings (no `keyboardLayout`), every printable ASCII character, accented letters and
 * CJK arrive as written; after `setxkbmap de` on that display, AltGr and German letters are
 * typed by their keys (the app sees their keysyms), not pasted.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import process from "node:process";
import { agentForComputer, type ComputerAgent, type ComputerDeviceOptions } from "@sdk/computer";
import { startTestModel, type TestModel } from "@sdk/core/testing";
import {
  type DesktopApp,
  type DesktopAppState,
  ensureDesktopTools,
  nutJsDir,
  startDesktopApp,
  untilAppState,
} from "../helpers/desktop.ts";

let model: TestModel;
let first: ComputerAgent;
let app: DesktopApp;
const agents: ComputerAgent[] = [];

before(async () => {
  await ensureDesktopTools();
  process.env.SDK_NUT_JS_DIR = nutJsDir();
  model = await startTestModel({
    script: {
      locate: async () => {
        const box = (await app.state()).widgets.name;
        return { left: box.x, top: box.y, width: box.width, height: box.height };
      },
    },
  });
  first = await agentWith({ headless: true, xvfbResolution: "1024x768x24" });
  app = await startDesktopApp(first.interface.display!, first.interface.xauthority);
});

after(async () => {
  await app?.close();
  for (const agent of agents.reverse()) await agent.destroy();
  await model?.close();
});

async function agentWith(options: ComputerDeviceOptions): Promise<ComputerAgent> {
  const agent = await agentForComputer({
    ...options,
    modelConfig: model.modelConfig(),
    generateReport: false,
    waitAfterAction: 50,
  });
  agents.push(agent);
  return agent;
}

const until = (check: (s: DesktopAppState) => boolean, what: string) =>
  untilAppState(() => app.state(), check, what, 15_000);

/** Types `text` into the emptied name field and waits until the field reads it. */
async function typeAndRead(
  agent: ComputerAgent,
  text: string,
  options: { keyboardTypeDelay?: number; inputStrategy?: "sequential" } = {},
): Promise<DesktopAppState> {
  await agent.aiInput("the name field", { value: "", mode: "clear" });
  await until((s) => s.name === "", "the name field to be empty");
  const before = (await app.state()).keys.length;
  await agent.aiInput("the name field", { value: text, mode: "typeOnly", ...options });
  const state = await until((s) => s.name === text, `the field to read ${JSON.stringify(text)}`);
  // typeOnly presses Control+End first; the keys after it typed the text.
  const keys = state.keys.slice(before);
  assert.deepEqual(keys.slice(0, 2), ["Control_L", "End"]);
  return { ...state, keys: keys.slice(2) };
}

/** Sets the layouts (comma-separated) and the options of the device's display (none by default). */
function setxkbmap(layout: string, option = ""): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "setxkbmap",
      ["-display", first.interface.display!, "-layout", layout, "-option", "", "-option", option],
      { env: { ...process.env, XAUTHORITY: first.interface.xauthority! } },
      (e, _stdout, stderr) => e ? reject(new Error(`setxkbmap ${layout}: ${stderr}`)) : resolve(),
    );
  });
}

const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

test(
  "default settings, key by key: ' Ab!?' and every printable ASCII character arrive as written",
  {
    timeout: 60_000,
  },
  async () => {
    // keyboardTypeDelay > 0 with the default 'legacy' strategy types key by key.
    let state = await typeAndRead(first, " Ab!?", { keyboardTypeDelay: 1 });
    assert.deepEqual(state.keys, [
      "space",
      "Shift_L",
      "A",
      "b",
      "Shift_L",
      "exclam",
      "Shift_L",
      "question",
    ]);
    state = await typeAndRead(first, ASCII, { inputStrategy: "sequential" });
    assert.ok(!state.keys.includes("Control_L"), "typed by keys, nothing pasted");
  },
);

test("key by key on a US keymap: accented letters and CJK are pasted in place, in order", {
  timeout: 60_000,
}, async () => {
  const text = "Grüße, 你好! Ça va? ½ € (ok)";
  const state = await typeAndRead(first, text, { inputStrategy: "sequential" });
  assert.ok(state.keys.includes("exclam") && state.keys.includes("parenleft"));
});

test(
  "with Caps Lock on, text typed key by key arrives as written (US and German keymaps) and Caps Lock stays on",
  {
    timeout: 60_000,
  },
  async () => {
    await first.aiKeyboardPress("the name field", { keyName: "CapsLock" });
    try {
      const text = "Hello, World! abc XYZ 42 äÖ";
      const state = await typeAndRead(first, text, { inputStrategy: "sequential" });
      // Lock goes off for the text and on again after it.
      assert.equal(state.keys[0], "Caps_Lock");
      assert.deepEqual(state.keys.slice(1, 4), ["Shift_L", "H", "e"]);
      assert.equal(state.keys.at(-1), "Caps_Lock");
      await setxkbmap("de");
      // Under Lock the German ß key gives ẞ (its type has a Lock level): typed with Lock off.
      const german = await typeAndRead(first, "äÖ@€ßxY", { inputStrategy: "sequential" });
      assert.ok(!german.keys.includes("Control_L"), `nothing was pasted: ${german.keys.join(" ")}`);
      assert.ok(german.keys.includes("ssharp"));
      assert.deepEqual([german.keys[0], german.keys.at(-1)], ["Caps_Lock", "Caps_Lock"]);
    } finally {
      await setxkbmap("us");
      await first.aiKeyboardPress("the name field", { keyName: "CapsLock" });
    }
    // Off again: no Lock key around the text.
    const off = await typeAndRead(first, "aB", { inputStrategy: "sequential" });
    assert.deepEqual(off.keys, ["a", "Shift_L", "B"]);
  },
);

test("after setxkbmap de, AltGr characters and German letters are typed by their keys", {
  timeout: 60_000,
}, async () => {
  await setxkbmap("de");
  try {
    const text = '@€{[]}\\~| äöüß ÄÖÜ ?!"§$%&/()=';
    const state = await typeAndRead(first, text, { inputStrategy: "sequential" });
    for (const keysym of ["at", "EuroSign", "braceleft", "adiaeresis", "ssharp", "section"]) {
      assert.ok(state.keys.includes(keysym), `${keysym} came from a key: ${state.keys.join(" ")}`);
    }
    assert.ok(state.keys.includes("ISO_Level3_Shift"), "AltGr was held");
    assert.ok(!state.keys.includes("Control_L"), "nothing was pasted");
    // The layout changed under a running device: the next text reads the keymap again.
    await setxkbmap("us");
    const back = await typeAndRead(first, "y@z", { inputStrategy: "sequential" });
    assert.deepEqual(back.keys, ["y", "Shift_L", "at", "z"]);
  } finally {
    await setxkbmap("us");
  }
});

test(
  "with two layouts (us,de), text is typed in the active one: after Shift+Alt switches to German it still arrives as written",
  {
    timeout: 60_000,
  },
  async () => {
    await setxkbmap("us,de", "grp:alt_shift_toggle");
    try {
      await first.aiKeyboardPress("the name field", { keyName: "Shift+Alt" });
      // German swaps the y and z keys and has ä, ö, ß on keys of their own; its AltGr characters
      // (level 3, whose column may be either layout's) are pasted.
      const text = "yz YZ äöß @€";
      const state = await typeAndRead(first, text, { inputStrategy: "sequential" });
      for (const keysym of ["y", "z", "adiaeresis", "odiaeresis", "ssharp"]) {
        assert.ok(
          state.keys.includes(keysym),
          `${keysym} came from a key: ${state.keys.join(" ")}`,
        );
      }
      assert.ok(state.keys.includes("Control_L"), "the AltGr characters were pasted");
    } finally {
      await setxkbmap("us");
    }
    const back = await typeAndRead(first, "y@z", { inputStrategy: "sequential" });
    assert.deepEqual(back.keys, ["y", "Shift_L", "at", "z"]);
  },
);
