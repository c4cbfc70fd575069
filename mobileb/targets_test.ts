import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { ConnectionError, targetDifference, ToolError } from "@sdk/core";
import { sourceTree, targetsAt } from "./targets.ts";
import { WDA_TOOL, type WdaClient } from "./wda.ts";

/** An element as WebDriverAgent's XML source writes it. */
function el(
  type: string,
  [x, y, width, height]: number[],
  { name, label, value, visible = true }: {
    name?: string;
    label?: string;
    value?: string;
    visible?: boolean;
  } = {},
  children: string[] = [],
): string {
  const t = `XCUIElementType${type}`;
  const attrs = [
    ["type", t],
    ["value", value],
    ["name", name],
    ["label", label],
    ["enabled", "true"],
    ["visible", String(visible)],
    ["accessible", String(!children.length)],
    ["x", x],
    ["y", y],
    ["width", width],
    ["height", height],
    ["index", 0],
  ].filter(([, v]) => v !== undefined).map(([k, v]) => `${k}="${v}"`).join(" ");
  return children.length ? `<${t} ${attrs}>\n${children.join("\n")}\n</${t}>` : `<${t} ${attrs}/>`;
}

/** A mail list as WDA gives it (390 x 844 points), one cell per subject under a nav bar. */
function inbox(subjects: string[]): string {
  const cells = subjects.map((subject, i) =>
    el("Cell", [0, 100 + i * 80, 390, 80], { label: `${subject}, Archive` }, [
      el("StaticText", [16, 116 + i * 80, 280, 48], {
        name: subject,
        label: subject,
        value: subject,
      }),
      el("Button", [300, 116 + i * 80, 74, 48], { name: "archive", label: "Archive" }),
    ])
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    el("Application", [0, 0, 390, 844], { name: "Mail", label: "Mail" }, [
      el("Window", [0, 0, 390, 844], {}, [
        el("NavigationBar", [0, 47, 390, 53], { name: "Inbox" }, [
          el("SearchField", [16, 50, 358, 40], { name: "search", label: "Search", value: "typed" }),
        ]),
        el("Table", [0, 100, 390, 744], {}, cells),
        el("Other", [0, 0, 390, 844], { visible: false }),
      ]),
    ]);
}

function client(answer: () => unknown): WdaClient {
  return {
    where: "127.0.0.1:8100",
    request: (method: string, path: string) => {
      assert.deepEqual([method, path], ["GET", "/source"]);
      return Promise.resolve().then(answer);
    },
  } as unknown as WdaClient;
}

test("sourceTree: types, identifiers, labels, frames in points; invisible elements left out", () => {
  const tree = sourceTree(inbox(["Lunch on Friday"]))!;
  assert.equal(tree.kind, "XCUIElementTypeApplication");
  const window = tree.children[0];
  assert.deepEqual(
    window.children.map((c) => c.kind),
    ["XCUIElementTypeNavigationBar", "XCUIElementTypeTable"],
    "the invisible overlay is not in the tree",
  );
  const search = window.children[0].children[0];
  assert.deepEqual(search, {
    kind: "XCUIElementTypeSearchField",
    id: "search",
    text: "Search",
    box: { left: 16, top: 50, width: 358, height: 40 },
    children: [],
  });
  const cell = window.children[1].children[0];
  assert.equal(cell.text, undefined, "a cell's label that is its children's is theirs");
  const [subject, archive] = cell.children;
  assert.deepEqual([subject.id, subject.text], [undefined, "Lunch on Friday"]);
  assert.deepEqual([archive.id, archive.text], ["archive", "Archive"]);
  assert.equal(sourceTree("no xml"), undefined);
});

test("targetsAt: a cell's text and its button from one source; a cell pushed down differs", async () => {
  let xml = inbox(["Lunch on Friday", "Invoice 42"]);
  const wda = client(() => xml);
  const [row, button] = await targetsAt(wda, [[100, 200], [330, 200]]);
  assert.deepEqual(row, {
    kind: "XCUIElementTypeStaticText",
    name: "Invoice 42",
    context: "Invoice 42 Archive",
    box: { left: 16, top: 196, width: 280, height: 48 },
  });
  assert.deepEqual([button?.id, button?.name, button?.context], [
    "archive",
    "Archive",
    "Invoice 42 Archive",
  ]);
  xml = inbox(["New mail", "Lunch on Friday", "Invoice 42"]);
  const [row2, button2] = await targetsAt(wda, [[100, 200], [330, 200]]);
  assert.match(targetDifference(row!, row2)!, /"Lunch on Friday" .*instead of .*"Invoice 42"/);
  assert.ok(targetDifference(button!, button2));
});

test("targetsAt: WDA's error names nothing (the pixel check takes over); a connection error rejects", async () => {
  const failing = client(() => {
    throw new ToolError("Cannot get 'xml' source of the current application", { tool: WDA_TOOL });
  });
  assert.deepEqual(await targetsAt(failing, [[1, 1]]), [undefined]);
  const gone = client(() => {
    throw new ConnectionError("WDA is gone", { kind: "lost", endpoint: "127.0.0.1:8100" });
  });
  await assert.rejects(targetsAt(gone, [[1, 1]]), ConnectionError);
});
