/**
 * What is at a point of an Android screen, for the target checks of a plan of several actions
 * (docs/model-protocol.md, "Target checks"): one `uiautomator dump` of the window's view
 * hierarchy, read back in the same shell command, as a tree of nodes in logical pixels.
 *
 * @module
 */

import type { Point, TargetIdentity, TargetTreeNode } from "@sdk/core";
import { logger, readBoundsText, readXmlTree, targetInTree, type XmlElement } from "@sdk/core";
import type { BridgeShell } from "./bridge_shell.ts";

const log = logger("sdk:mobilea");

/** Where `uiautomator dump` writes for a check; removed again after it is read. */
const WINDOW_DUMP_PATH = "/data/local/tmp/sdk_window_dump.xml";

/**
 * The shell command of one check: an old dump removed first (uiautomator exits 0 without
 * writing when the screen never idles, and a stale file must not be read), the dump, the file
 * printed, then removed. A file, not `/dev/tty`: without a terminal (adb's shell protocol runs
 * commands without one) uiautomator cannot open `/dev/tty` and prints its message all the same.
 */
export const WINDOW_DUMP_COMMAND =
  `rm -f ${WINDOW_DUMP_PATH}; uiautomator dump ${WINDOW_DUMP_PATH} && cat ${WINDOW_DUMP_PATH}; ` +
  `rm -f ${WINDOW_DUMP_PATH}`;

// Classes whose text is what the user typed (or the hint while empty): their name is only their
// content description.
const EDITABLE_CLASS = /(EditText|AutoCompleteTextView)$/;

/**
 * The window dump as a tree in logical pixels (bounds / `dpr`): each `node`'s class as its kind,
 * its `resource-id` as its id, and its content description, else its text, as its text (a text
 * field's text, which is its value, left out). `undefined` when `xml` holds no `hierarchy`.
 */
export function windowDumpTree(xml: string, dpr: number): TargetTreeNode | undefined {
  const hierarchy = readXmlTree(xml);
  if (hierarchy?.name !== "hierarchy") return undefined;
  const convert = (element: XmlElement): TargetTreeNode[] => {
    const children = element.children.flatMap(convert);
    const a = element.attributes;
    const box = readBoundsText(a.bounds, dpr);
    if (!box) return children;
    const kind = a.class || element.name;
    const editable = a.password === "true" || EDITABLE_CLASS.test(kind);
    const text = editable ? a["content-desc"] : a["content-desc"] || a.text;
    return [{
      kind,
      ...(a["resource-id"] ? { id: a["resource-id"] } : {}),
      ...(text ? { text } : {}),
      box,
      ...(a.password === "true" ? { secret: true } : {}),
      children,
    }];
  };
  const children = hierarchy.children.flatMap(convert);
  const right = Math.max(0, ...children.map((c) => c.box.left + c.box.width));
  const bottom = Math.max(0, ...children.map((c) => c.box.top + c.box.height));
  return { kind: "hierarchy", box: { left: 0, top: 0, width: right, height: bottom }, children };
}

/**
 * The identity of what is at each point (logical pixels), from one window dump. When the device
 * wrote no dump (`ERROR: could not get idle state.` after 10 s of a screen that keeps changing,
 * `ERROR: null root node returned by UiTestAutomationBridge.`, no `uiautomator`), nothing is named
 * at any point, so the agent compares the targets' pixels instead; the run log (`sdk:mobilea`)
 * has what the device printed.
 *
 * @throws the shell's `ConnectionError` when the device cannot be reached.
 */
export async function targetsAt(
  shell: BridgeShell,
  dpr: number,
  points: readonly Point[],
): Promise<(TargetIdentity | undefined)[]> {
  const { stdout, stderr } = await shell.shell(WINDOW_DUMP_COMMAND);
  const tree = windowDumpTree(stdout, dpr);
  if (!tree) {
    log("uiautomator dump wrote no window hierarchy: the targets are checked by their pixels", {
      device: shell.deviceId,
      output: `${stdout}\n${stderr}`.trim().slice(0, 500),
    });
    return points.map(() => undefined);
  }
  return points.map((point) => targetInTree(tree, point));
}
