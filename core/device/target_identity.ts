/**
 * Target identities (docs/model-protocol.md, "Target checks"): how two readings of what is at an
 * action's point are compared, and how a platform whose element tree is a tree of nodes with
 * bounds (uiautomator's XML, WebDriverAgent's source, HarmonyOS's layout) finds the node at a
 * point. The web page reads the same fields in the page itself (`web/page/_target_script.ts`).
 *
 * @module
 */

import type { Point, Rect, TargetIdentity } from "./types.ts";

/** Longest `name` kept, characters. */
export const TARGET_NAME_MAX = 80;
/** Longest `context` kept, characters. */
export const TARGET_CONTEXT_MAX = 120;

/**
 * Why `now` is not the target `planned` named, or `undefined` when it is: another kind, id, name
 * or context, or a box whose center moved by more than half the box (at least 8 logical pixels)
 * or whose size changed by more than half. A caret, a hover tint or a checked box changes none of
 * these; a row pushed down, a popover on top or a filtered list does.
 */
export function targetDifference(
  planned: TargetIdentity,
  now: TargetIdentity | undefined,
): string | undefined {
  if (!now) return `nothing is at its point any more (was ${describeTarget(planned)})`;
  for (const field of ["kind", "id", "name", "context"] as const) {
    if ((planned[field] ?? "") !== (now[field] ?? "")) {
      return `${describeTarget(now)} is at its point instead of ${describeTarget(planned)}`;
    }
  }
  const a = planned.box;
  const b = now.box;
  const dx = Math.abs(a.left + a.width / 2 - (b.left + b.width / 2));
  const dy = Math.abs(a.top + a.height / 2 - (b.top + b.height / 2));
  const resized = Math.abs(a.width - b.width) > a.width / 2 ||
    Math.abs(a.height - b.height) > a.height / 2;
  if (dx > Math.max(8, a.width / 2) || dy > Math.max(8, a.height / 2) || resized) {
    return `${describeTarget(planned)} moved from ${boxText(a)} to ${boxText(b)}`;
  }
  return undefined;
}

/** A target as the report and the planning history name it: `a "Active" in "All Active Completed"`. */
export function describeTarget(t: TargetIdentity): string {
  const name = t.name ? ` "${t.name}"` : t.id ? ` #${t.id}` : "";
  const context = t.context && t.context !== t.name ? ` in "${t.context}"` : "";
  return `${t.kind}${name}${context}`;
}

function boxText(r: Rect): string {
  return `(${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${
    Math.round(r.height)
  })`;
}

/** Collapses white space and cuts `text` to `max` characters. */
export function trimTargetText(text: string | undefined, max: number): string | undefined {
  const t = (text ?? "").replace(/\s+/g, " ").trim();
  return t ? t.slice(0, max) : undefined;
}

/**
 * One node of a platform's element tree, as {@link targetInTree} reads it. Bounds in logical
 * pixels.
 */
export interface TargetTreeNode {
  /** The node's class or element type. */
  kind: string;
  /** Its resource id or accessibility identifier, when it has one. */
  id?: string;
  /** Its own text, label or content description, when it has one (not a field's value). */
  text?: string;
  /** Bounds, logical pixels. */
  box: Rect;
  /** Whether it takes a secret (a password field). */
  secret?: boolean;
  /** Child nodes, in drawing order (a later child is drawn above an earlier one). */
  children: TargetTreeNode[];
}

function contains(r: Rect, [x, y]: Point): boolean {
  return x >= r.left && x < r.left + r.width && y >= r.top && y < r.top + r.height;
}

/** All text of a node and its descendants, in order. */
function allText(node: TargetTreeNode): string {
  const parts: string[] = [];
  const walk = (n: TargetTreeNode) => {
    if (n.text) parts.push(n.text);
    n.children.forEach(walk);
  };
  walk(node);
  return parts.join(" ");
}

/**
 * The identity of the deepest node at `point` (logical pixels): at each level the last child
 * whose bounds hold the point (the one drawn on top). Its name is its own text, else its
 * descendants' text; its context the text of the nearest ancestor with more text than it, when
 * that ancestor is row-sized (at most three times the node's height, or 60 pixels taller), so
 * that a change elsewhere on the screen does not count as a change of the target. `undefined`
 * when no node but the root holds the point.
 */
export function targetInTree(root: TargetTreeNode, point: Point): TargetIdentity | undefined {
  const path: TargetTreeNode[] = [root];
  for (;;) {
    const node = path[path.length - 1];
    const next = node.children.findLast((c) => contains(c.box, point));
    if (!next) break;
    path.push(next);
  }
  if (path.length === 1) return undefined;
  const target = path[path.length - 1];
  const own = allText(target);
  let context: string | undefined;
  for (let i = path.length - 2; i >= 1; i--) {
    const text = allText(path[i]);
    if (text.replace(/\s+/g, "") === own.replace(/\s+/g, "")) continue;
    const h = target.box.height;
    if (path[i].box.height <= Math.max(3 * h, h + 60)) {
      context = trimTargetText(text, TARGET_CONTEXT_MAX);
    }
    break;
  }
  return {
    kind: target.kind,
    ...(target.id ? { id: target.id } : {}),
    ...(trimTargetText(own, TARGET_NAME_MAX) ? { name: trimTargetText(own, TARGET_NAME_MAX) } : {}),
    ...(context ? { context } : {}),
    box: { ...target.box },
    ...(target.secret ? { secret: true } : {}),
  };
}
