/**
 * What is at a point of an iOS screen, for the target checks of a plan of several actions
 * (docs/model-protocol.md, "Target checks"): WebDriverAgent's XML source of the app in front
 * (`GET /source`), its elements' frames already in points (logical pixels).
 *
 * @module
 */

import type { Point, TargetIdentity, TargetTreeNode } from "@sdk/core";
import { readXmlTree, targetInTree, ToolError, type XmlElement } from "@sdk/core";
import { log } from "./log.ts";
import { WDA_TOOL, type WdaClient } from "./wda.ts";

/**
 * WebDriverAgent's XML source as a tree in points: each element's type as its kind, its
 * accessibility identifier as its id (WDA's `name` where it differs from the `label`, which
 * `name` falls back to), its label as its text (a static text's value when it has no label; a
 * field's or a switch's value never; not a label that is only its children's joined, as a
 * cell's often is), and its frame (`x`, `y`, `width`, `height`). An element
 * WDA reports as not visible is left out, its children kept. `undefined` when `xml` holds no
 * element.
 */
export function sourceTree(xml: string): TargetTreeNode | undefined {
  const root = readXmlTree(xml);
  if (!root) return undefined;
  const convert = (element: XmlElement): TargetTreeNode[] => {
    const children = element.children.flatMap(convert);
    const a = element.attributes;
    const [x, y, width, height] = [a.x, a.y, a.width, a.height].map(Number);
    if (a.visible === "false" || ![x, y, width, height].every(Number.isFinite)) return children;
    const kind = a.type || element.name;
    let label = a.label || (kind === "XCUIElementTypeStaticText" ? a.value : "") || "";
    // A cell's label is often its children's labels joined ("Invoice 42, Archive"): then it is
    // theirs, not its own, and is not counted twice.
    if (label && compact(label) === compact(children.map(allText).join(""))) label = "";
    const id = a.name && a.name !== a.label ? a.name : "";
    return [{
      kind,
      ...(id ? { id } : {}),
      ...(label ? { text: label } : {}),
      box: { left: x, top: y, width, height },
      ...(kind === "XCUIElementTypeSecureTextField" ? { secret: true } : {}),
      children,
    }];
  };
  const [top] = convert(root);
  // The Application is the root: what a point can land on starts with its windows.
  return top ?? { kind: root.name, box: { left: 0, top: 0, width: 0, height: 0 }, children: [] };
}

const compact = (text: string) => text.replace(/[\s,]+/g, "");

/** The text of a node and its descendants. */
function allText(node: TargetTreeNode): string {
  return (node.text ?? "") + node.children.map(allText).join("");
}

/**
 * The identity of what is at each point (points), from one `GET /source`. When WDA cannot give
 * the source (it answers an error, or no XML), nothing is named at any point, so the agent
 * compares the targets' pixels instead; the run log (`sdk:mobileb`) has WDA's answer.
 *
 * @throws {ConnectionError} when WDA cannot be reached.
 */
export async function targetsAt(
  client: WdaClient,
  points: readonly Point[],
): Promise<(TargetIdentity | undefined)[]> {
  let answer: unknown;
  try {
    answer = await client.request("GET", "/source");
  } catch (error) {
    if (!(error instanceof ToolError) || error.tool !== WDA_TOOL) throw error;
    answer = error;
  }
  const tree = typeof answer === "string" ? sourceTree(answer) : undefined;
  if (!tree) {
    log("GET /source gave no element tree: the targets are checked by their pixels", {
      driver: client.where,
      answer: answer instanceof Error ? answer.message : JSON.stringify(answer)?.slice(0, 500),
    });
    return points.map(() => undefined);
  }
  return points.map((point) => targetInTree(tree, point));
}
