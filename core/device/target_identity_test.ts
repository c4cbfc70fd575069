import assert from "node:assert/strict";
import { test } from "../../tests/helpers/test.ts";
import { targetDifference, targetInTree, type TargetTreeNode } from "./target_identity.ts";
import type { TargetIdentity } from "./types.ts";

const active: TargetIdentity = {
  kind: "a",
  name: "Active",
  context: "All Active Completed",
  box: { left: 200, top: 491, width: 50, height: 20 },
};

test("targetDifference() accepts the same element a few pixels away", () => {
  assert.equal(targetDifference(active, active), undefined);
  const nudged = { ...active, box: { ...active.box, top: 495 } };
  assert.equal(targetDifference(active, nudged), undefined);
});

test("targetDifference() names another element at the point, a moved box and an empty point", () => {
  const row = {
    kind: "label",
    name: "Pay rent",
    box: { left: 60, top: 480, width: 400, height: 40 },
  };
  assert.equal(
    targetDifference(active, row),
    'label "Pay rent" is at its point instead of a "Active" in "All Active Completed"',
  );
  const moved = { ...active, box: { ...active.box, top: 577 } };
  assert.match(
    targetDifference(active, moved)!,
    /^a "Active" .* moved from \(200,491 50x20\) to \(200,577 50x20\)$/,
  );
  assert.match(targetDifference(active, undefined)!, /^nothing is at its point any more/);
  const otherRow = { ...active, context: "Fix bike Delete" };
  assert.match(
    targetDifference({ ...active, context: "Call mom Delete" }, otherRow)!,
    /instead of/,
  );
});

/** An Android-like list: three rows, each a text and a Delete button. */
function list(rows: string[]): TargetTreeNode {
  return {
    kind: "FrameLayout",
    box: { left: 0, top: 0, width: 400, height: 800 },
    children: rows.map((text, i) => ({
      kind: "LinearLayout",
      box: { left: 0, top: 100 + i * 60, width: 400, height: 60 },
      children: [
        {
          kind: "TextView",
          text,
          box: { left: 10, top: 110 + i * 60, width: 280, height: 40 },
          children: [],
        },
        {
          kind: "Button",
          id: "delete",
          text: "Delete",
          box: { left: 300, top: 110 + i * 60, width: 90, height: 40 },
          children: [],
        },
      ],
    })),
  };
}

test("targetInTree() names the deepest node at the point with its row as context", () => {
  const t = targetInTree(list(["Walk the dog", "Call mom", "Fix bike"]), [340, 190]);
  assert.deepEqual(t, {
    kind: "Button",
    id: "delete",
    name: "Delete",
    context: "Call mom Delete",
    box: { left: 300, top: 170, width: 90, height: 40 },
  });
  assert.equal(targetInTree(list(["a"]), [500, 900]), undefined, "outside every child");
});

test("targetInTree() tells the Delete button of a shifted row apart by its row", () => {
  const before = targetInTree(list(["Walk the dog", "Call mom", "Fix bike"]), [340, 190])!;
  const after = targetInTree(list(["Call mom", "Fix bike"]), [340, 190]);
  assert.match(targetDifference(before, after)!, /Fix bike Delete.* instead of .*Call mom Delete/);
});
