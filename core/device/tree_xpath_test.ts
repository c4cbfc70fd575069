import assert from "node:assert/strict";
import { test } from "../../tests/helpers/test.ts";
import { locateInTree, xpathsInTree } from "./tree_xpath.ts";
import type { TargetTreeNode } from "./target_identity.ts";

const box = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  width,
  height,
});

/** A screen of 400 x 800 with two rows, each a text and a button named alike. */
function screen(): TargetTreeNode {
  const row = (i: number, subject: string): TargetTreeNode => ({
    kind: "Row",
    box: box(0, 100 + i * 60, 400, 60),
    children: [
      { kind: "Text", text: subject, box: box(10, 110 + i * 60, 250, 40), children: [] },
      {
        kind: "Button",
        id: "archive",
        text: "Archive",
        box: box(300, 110 + i * 60, 90, 40),
        children: [],
      },
    ],
  });
  return {
    kind: "Screen",
    box: box(0, 0, 400, 800),
    children: [row(0, "Lunch"), row(1, "Invoice 42")],
  };
}

test("xpathsInTree() gives only xpaths that select the element alone; locateInTree() finds the first on the screen", async () => {
  const tree = screen();
  // Without the platform's attributes, the id and text stand as @id and @text.
  assert.deepEqual(await xpathsInTree(tree, [50, 180]), [
    '//Text[@text="Invoice 42"]',
    "/Screen/Row[2]/Text[1]",
  ]);
  // The buttons share their id and name: only the position tells them apart.
  assert.deepEqual(await xpathsInTree(tree, [340, 180]), ["/Screen/Row[2]/Button[1]"]);
  assert.deepEqual(await xpathsInTree(tree, [50, 50]), [], "nothing but the root there");
  const found = await locateInTree(tree, '//Button[@id="archive"]');
  assert.deepEqual(found?.rect, box(300, 110, 90, 40));
  assert.deepEqual(found?.center, [345, 130]);
  assert.equal((await locateInTree(tree, '//Text[@text="Invoice 42"]/@text'))?.rect.top, 170);
  tree.children[1].box.top = 900;
  tree.children[1].children.forEach((c) => c.box.top = 910);
  assert.equal(await locateInTree(tree, '//Text[@text="Invoice 42"]'), undefined, "off the screen");
});
