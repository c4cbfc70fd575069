/**
 * What is at a point of a HarmonyOS screen, for the target checks of a plan of several actions
 * (docs/model-protocol.md, "Target checks"): one `uitest dumpLayout`, read back in the same
 * `hdc shell` run, as a tree of nodes in logical pixels (vp).
 *
 * @module
 */

import type { Point, TargetIdentity, TargetTreeNode } from "@sdk/core";
import { logger, readBoundsText, targetInTree } from "@sdk/core";
import type { ToolShell } from "./tool_shell.ts";

const log = logger("sdk:mobilec");

/** Where `uitest dumpLayout` writes for a check; removed again after it is read. */
const LAYOUT_PATH = "/data/local/tmp/sdk_layout.json";

/**
 * The shell command of one check: the layout dumped, printed and removed (a stale file removed
 * first, so that a dump that fails is not read as the screen now).
 */
export const LAYOUT_COMMAND = `rm -f ${LAYOUT_PATH}; uitest dumpLayout -p ${LAYOUT_PATH} && ` +
  `cat ${LAYOUT_PATH}; rm -f ${LAYOUT_PATH}`;

/** One node of uitest's layout JSON. */
interface LayoutNode {
  attributes?: Record<string, unknown>;
  children?: LayoutNode[];
}

// Components whose text is what the user typed: their name is only their description.
const EDITABLE_TYPES = new Set(["TextInput", "TextArea", "Search", "TextField", "RichEditor"]);

/**
 * The layout uitest printed (after its `DumpLayout saved to:PATH` line) as a tree in logical
 * pixels (bounds / `density`): each node's `type` as its kind, its `id` (else its `key`) as its
 * id, its `description`, else its `text`, as its text (a text field's text, which is its value,
 * left out). A node uitest reports as not visible is left out, its children kept. `undefined`
 * when `output` holds no layout.
 */
export function layoutTree(output: string, density: number): TargetTreeNode | undefined {
  const start = output.indexOf("{");
  const end = output.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  let root: LayoutNode;
  try {
    root = JSON.parse(output.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const text = (v: unknown) => typeof v === "string" ? v : "";
  const convert = (node: LayoutNode, top: boolean): TargetTreeNode[] => {
    const children = (Array.isArray(node.children) ? node.children : [])
      .flatMap((c) => convert(c, false));
    const a = node.attributes ?? {};
    const box = readBoundsText(text(a.bounds), density);
    if (!box || (!top && a.visible === "false")) return children;
    const kind = text(a.type) || (top ? "screen" : "node");
    const id = text(a.id) || text(a.key);
    const name = EDITABLE_TYPES.has(kind)
      ? text(a.description)
      : text(a.description) || text(a.text);
    return [{ kind, ...(id ? { id } : {}), ...(name ? { text: name } : {}), box, children }];
  };
  const [tree] = typeof root === "object" && root ? convert(root, true) : [];
  return tree;
}

/**
 * The identity of what is at each point (logical pixels), from one layout dump. When uitest
 * writes no layout, nothing is named at any point, so the agent compares the targets' pixels
 * instead; the run log (`sdk:mobilec`) has what the device printed.
 *
 * @throws the errors of the device's hdc runs (`ConnectionError` when the device is gone).
 */
export async function targetsAt(
  shell: ToolShell,
  density: number,
  points: readonly Point[],
): Promise<(TargetIdentity | undefined)[]> {
  const output = await shell.shell(LAYOUT_COMMAND);
  const tree = layoutTree(output, density);
  if (!tree) {
    log("uitest dumpLayout wrote no layout: the targets are checked by their pixels", {
      device: shell.deviceId,
      output: output.trim().slice(0, 500),
    });
    return points.map(() => undefined);
  }
  return points.map((point) => targetInTree(tree, point));
}
