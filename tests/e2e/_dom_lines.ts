/**
 * Reading the element description of `getElementsDescription` / `<page-dom>` in tests, the way a
 * model would: one line per element, `tag#id ... box=(left,top,width,height) [hidden|off-screen]`.
 *
 * @module
 */

import type { TargetBox } from "@sdk/core/testing";

/** The line of the element `head` starts (e.g. `a#photo-link`), or undefined. */
export function lineOf(description: string, head: string): string | undefined {
  return description.split("\n").find((l) => {
    const t = l.trimStart();
    return t === head || t.startsWith(head + " ");
  });
}

/** Like {@link lineOf}, but throws quoting the description when there is no such line. */
export function requireLine(description: string, head: string): string {
  const line = lineOf(description, head);
  if (line === undefined) throw new Error(`no line for ${head} in:\n${description}`);
  return line;
}

/** Nesting depth of a line: its indentation in steps of two spaces. */
export function depthOf(line: string): number {
  return (line.length - line.trimStart().length) / 2;
}

/** The `box=(...)` of a line in CSS pixels, or undefined when it has none. */
export function boxOf(line: string): TargetBox | undefined {
  const m = / box=\((-?\d+),(-?\d+),(\d+),(\d+)\)/.exec(line);
  if (!m) return undefined;
  const [left, top, width, height] = m.slice(1).map(Number);
  return { left, top, width, height };
}

/** The value of `name="..."` on a line, JSON-decoded, or undefined. */
export function attributeOf(line: string, name: string): string | undefined {
  const m = new RegExp(` ${name}=("(?:[^"\\\\]|\\\\.)*")`).exec(line);
  return m ? JSON.parse(m[1]) : undefined;
}
