import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { targetDifference } from "@sdk/core";
import { LAYOUT_COMMAND, layoutTree, targetsAt } from "./targets.ts";
import type { ToolShell } from "./tool_shell.ts";

/** A layout node as uitest writes it: string attributes, bounds in physical pixels. */
function node(
  type: string,
  [l, t, r, b]: number[],
  extra: Record<string, string> = {},
  children: unknown[] = [],
) {
  return {
    attributes: {
      bounds: `[${l},${t}][${r},${b}]`,
      type,
      id: "",
      key: "",
      text: "",
      description: "",
      visible: "true",
      ...extra,
    },
    children,
  };
}

const DENSITY = 3.25;

/** A mail list on a 1260 x 2720 screen: one ListItem per subject, each with an Archive button. */
function inbox(subjects: string[]): string {
  const items = subjects.map((subject, i) => {
    const top = 325 + i * 260;
    return node("ListItem", [0, top, 1260, top + 260], { key: `mail-${subject}` }, [
      node("Text", [52, top + 52, 900, top + 208], { text: subject }),
      node("Button", [960, top + 52, 1208, top + 208], { text: "Archive", id: "archive" }),
    ]);
  });
  const layout = {
    attributes: { bounds: "[0,0][1260,2720]", type: "" },
    children: [
      node("root", [0, 0, 1260, 2720], { bundleName: "com.example.mail" }, [
        node("TextInput", [0, 0, 1260, 325], { text: "typed", id: "search", description: "" }),
        node("List", [0, 325, 1260, 2720], {}, items),
        node("Column", [0, 0, 1260, 2720], { visible: "false" }),
      ]),
    ],
  };
  return `DumpLayout saved to:/data/local/tmp/sdk_layout.json\n${JSON.stringify(layout)}`;
}

test("layoutTree: types, ids and keys, text, bounds in vp; invisible nodes and typed text left out", () => {
  const tree = layoutTree(inbox(["Lunch on Friday"]), DENSITY)!;
  assert.equal(tree.kind, "screen");
  const root = tree.children[0];
  assert.deepEqual(root.children.map((c) => c.kind), ["TextInput", "List"]);
  const search = root.children[0];
  assert.deepEqual([search.id, search.text], ["search", undefined]);
  const item = root.children[1].children[0];
  assert.deepEqual([item.kind, item.id, item.box.top], ["ListItem", "mail-Lunch on Friday", 100]);
  assert.equal(layoutTree("DumpLayout saved to:/x\n", 1), undefined);
  assert.equal(layoutTree("{not json}", 1), undefined);
});

test("targetsAt: a list item's text and its button from one dump; an item pushed down differs", async () => {
  let output = inbox(["Lunch on Friday", "Invoice 42"]);
  const commands: string[] = [];
  const shell = {
    deviceId: "127.0.0.1:5555",
    shell: (command: string) => {
      commands.push(command);
      return Promise.resolve(output);
    },
  } as unknown as ToolShell;
  const points: [number, number][] = [[100, 220], [340, 220]];
  const [text, button] = await targetsAt(shell, DENSITY, points);
  assert.deepEqual(commands, [LAYOUT_COMMAND]);
  assert.deepEqual(text, {
    kind: "Text",
    name: "Invoice 42",
    context: "Invoice 42 Archive",
    box: { left: 16, top: 196, width: 848 / DENSITY, height: 48 },
  });
  assert.deepEqual([button?.kind, button?.id, button?.context], [
    "Button",
    "archive",
    "Invoice 42 Archive",
  ]);
  output = inbox(["New mail", "Lunch on Friday", "Invoice 42"]);
  const [text2, button2] = await targetsAt(shell, DENSITY, points);
  assert.match(targetDifference(text!, text2)!, /"Lunch on Friday" .*instead of .*"Invoice 42"/);
  assert.ok(targetDifference(button!, button2));
  output = "/bin/sh: uitest: inaccessible or not found\n";
  assert.deepEqual(await targetsAt(shell, DENSITY, points), [undefined, undefined]);
});
