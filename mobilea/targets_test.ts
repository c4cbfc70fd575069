import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { targetDifference } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";
import { MobileADevice } from "./device.ts";
import { targetsAt, WINDOW_DUMP_COMMAND, windowDumpTree } from "./targets.ts";

const FLAGS =
  'checkable="false" checked="false" clickable="true" enabled="true" focusable="true" ' +
  'focused="false" scrollable="false" long-clickable="false" password="false" selected="false"';

/** A node as uiautomator writes it (attributes in the dumper's order). */
function node(
  cls: string,
  bounds: string,
  { text = "", id = "", desc = "", password = false }: {
    text?: string;
    id?: string;
    desc?: string;
    password?: boolean;
  },
  children = "",
): string {
  const attrs = `index="0" text="${text}" resource-id="${id}" class="${cls}" ` +
    `package="com.example.mail" content-desc="${desc}" ${
      FLAGS.replace('password="false"', `password="${password}"`)
    } bounds="${bounds}"`;
  return children ? `<node ${attrs}>${children}</node>` : `<node ${attrs} />`;
}

/** A mail list as a real device dumps it, 1080 x 2400 at 420 dpi (dpr 2.625). */
function inbox(rows: string[]): string {
  const row = (subject: string, i: number) => {
    const top = 168 + i * 210;
    return node(
      "android.widget.LinearLayout",
      `[0,${top}][1080,${top + 210}]`,
      { id: "com.example.mail:id/row" },
      node("android.widget.TextView", `[42,${top + 42}][800,${top + 168}]`, {
        text: subject,
        id: "com.example.mail:id/subject",
      }) +
        node("android.widget.Button", `[840,${top + 42}][1038,${top + 168}]`, {
          text: "Archive",
          id: "com.example.mail:id/archive",
        }),
    );
  };
  return "UI hierchary dumped to: /data/local/tmp/sdk_window_dump.xml\n" +
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" +
    node(
      "android.widget.FrameLayout",
      "[0,0][1080,2400]",
      {},
      node(
        "android.widget.EditText",
        "[0,0][1080,168]",
        { text: "what I typed", id: "com.example.mail:id/search", desc: "Search mail" },
      ) +
        node(
          "android.widget.EditText",
          "[0,0][540,84]",
          { text: "\u2022\u2022\u2022", id: "com.example.mail:id/pin", password: true },
        ) +
        node(
          "androidx.recyclerview.widget.RecyclerView",
          "[0,168][1080,2400]",
          { id: "com.example.mail:id/list" },
          rows.map(row).join(""),
        ),
    ) + "</hierarchy>";
}

const DPR = 2.625;

test("windowDumpTree: classes, resource ids and text, bounds in logical pixels", () => {
  const tree = windowDumpTree(inbox(["Lunch on Friday"]), DPR)!;
  assert.equal(tree.kind, "hierarchy");
  const frame = tree.children[0];
  assert.equal(frame.kind, "android.widget.FrameLayout");
  assert.deepEqual(frame.box, { left: 0, top: 0, width: 1080 / DPR, height: 2400 / DPR });
  const [search, pin, list] = frame.children;
  // A text field is named by its content description, never by what was typed into it.
  assert.deepEqual([search.kind, search.id, search.text], [
    "android.widget.EditText",
    "com.example.mail:id/search",
    "Search mail",
  ]);
  assert.equal(pin.text, undefined, "a password field's dots are no name");
  assert.equal(list.children[0].children[1].text, "Archive");
});

test("targetsAt: a row's subject and a button in it, from one dump; a row pushed down differs", async () => {
  let dump = inbox(["Lunch on Friday", "Invoice 42"]);
  const commands: string[] = [];
  const shell = {
    deviceId: "emulator-5554",
    shell: (command: string) => {
      commands.push(command);
      return Promise.resolve({ stdout: dump, stderr: "", exitCode: 0 });
    },
  } as unknown as BridgeShell;
  // The second row, in logical pixels: top 168 + 210 = 378 physical -> 144 dp.
  const subject: [number, number] = [100, 180];
  const archive: [number, number] = [360, 180];
  const [row, button, nothing] = await targetsAt(shell, DPR, [subject, archive, [300, 10]]);
  assert.deepEqual(commands, [WINDOW_DUMP_COMMAND]);
  assert.deepEqual(row, {
    kind: "android.widget.TextView",
    id: "com.example.mail:id/subject",
    name: "Invoice 42",
    context: "Invoice 42 Archive",
    box: { left: 16, top: 160, width: 758 / DPR, height: 48 },
  });
  assert.equal(button?.name, "Archive");
  assert.equal(button?.context, "Invoice 42 Archive", "the row tells the Archive buttons apart");
  assert.equal(nothing?.kind, "android.widget.EditText");
  // A new mail on top: the same points now hold the first row's subject and button.
  dump = inbox(["New mail", "Lunch on Friday", "Invoice 42"]);
  const [row2, button2] = await targetsAt(shell, DPR, [subject, archive]);
  assert.match(targetDifference(row!, row2)!, /"Lunch on Friday" .*instead of .*"Invoice 42"/);
  assert.match(targetDifference(button!, button2)!, /in "Lunch on Friday Archive" is at its point/);
  assert.equal(targetDifference(row!, row), undefined);
});

test("targetsAt: no dump (the screen never idled) names nothing, for the pixel check to take over", async () => {
  const shell = {
    deviceId: "emulator-5554",
    shell: () =>
      Promise.resolve({
        stdout: "",
        stderr: "ERROR: could not get idle state.\n" +
          "cat: /data/local/tmp/sdk_window_dump.xml: No such file or directory\n",
        exitCode: 0,
      }),
  } as unknown as BridgeShell;
  assert.deepEqual(await targetsAt(shell, DPR, [[1, 1], [2, 2]]), [undefined, undefined]);
});

test("the check's command removes a stale dump first and its own afterwards", () => {
  assert.equal(
    WINDOW_DUMP_COMMAND,
    "rm -f /data/local/tmp/sdk_window_dump.xml; " +
      "uiautomator dump /data/local/tmp/sdk_window_dump.xml && " +
      "cat /data/local/tmp/sdk_window_dump.xml; rm -f /data/local/tmp/sdk_window_dump.xml",
  );
  assert.equal(windowDumpTree("UI hierchary dumped to: /x\n", 1), undefined);
  assert.equal(windowDumpTree("<other/>", 1), undefined);
});

test("MobileADevice offers targetsAt on the default display only (uiautomator dumps that one)", () => {
  assert.equal(typeof new MobileADevice("emulator-5554").targetsAt, "function");
  assert.equal(typeof new MobileADevice("emulator-5554", { displayId: 0 }).targetsAt, "function");
  assert.equal(new MobileADevice("emulator-5554", { displayId: 2 }).targetsAt, undefined);
});
