/**
 * The element routes of the WDA front (private to `@sdk/mobileb/testing`), as WDA's
 * FBFindElementCommands and FBElementCommands register them: finding elements in the page on
 * screen (from the session's app or from an element), the focused element, and an element's
 * rect, text, attributes, state, click, typing and clearing. Element references are WDA's
 * compact form, the W3C key and the JSON Wire Protocol's `ELEMENT`, with one UUID per element; an
 * element that left its page answers `stale element reference`.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { WdaError } from "./_wda_protocol.ts";
import { findIndexes } from "./_wda_find.ts";
import { NODE_ATTRIBUTES } from "./_wda_predicate.ts";
import {
  APPLICATION_REF,
  flatten,
  focusedRef,
  isAccessible,
  lookupNode,
  pageSource,
  type SourceNode,
  WINDOW_REF,
} from "./_wda_source.ts";
import { activeAppName } from "./_wda_apps.ts";
import { typeKeys } from "./_wda_keys.ts";
import type { WdaRequest, WdaRoute, WdaState } from "./_wda_state.ts";

/** The W3C WebDriver key of an element reference (WebDriverAgent's `W3C_ELEMENT_KEY`). */
const W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";
/** The JSON Wire Protocol key WDA sends beside it. */
const JSONWP_ELEMENT_KEY = "ELEMENT";

/** An element reference as WDA answers it (compact responses, WDA's default). */
function elementReference(state: WdaState, id: string): Record<string, string> {
  return state.legacyElementKey
    ? { [JSONWP_ELEMENT_KEY]: id, [W3C_ELEMENT_KEY]: id }
    : { [W3C_ELEMENT_KEY]: id };
}

const pointsPerCss = (state: WdaState) => state.phone.density / state.scale;

/** The tree of the page on screen, and the page. */
async function screenTree(state: WdaState): Promise<{ page: Page; tree: SourceNode }> {
  const page = state.phone.foregroundPage();
  return { page, tree: await pageSource(page, activeAppName(state.phone), pointsPerCss(state)) };
}

/** The UUID of an element of a page: the same one each time the element is found. */
function idOf(state: WdaState, page: Page, ref: string): string {
  let ids = state.elementIds.get(page);
  if (!ids) state.elementIds.set(page, ids = new Map());
  let id = ids.get(ref);
  if (!id) {
    id = randomUUID().toUpperCase();
    ids.set(ref, id);
    state.elements.set(id, { page, ref });
  }
  return id;
}

const stale = (id: string) =>
  new WdaError(
    "stale element reference",
    `The element identified by "${id}" is either not present or it has expired from the ` +
      `internal cache. Try to find it again`,
  );

/** An element as it is now, and where it is in the tree when it is drawn. */
interface Resolved {
  page: Page;
  node: SourceNode;
  /** Position among its siblings in the tree (0 when it is not drawn). */
  index: number;
}

/**
 * The element a UUID names, looked up again in its page.
 *
 * @throws {WdaError} `stale element reference` when the UUID is unknown, its page closed or
 *   navigated, or the element was removed.
 */
async function resolve(state: WdaState, id: string): Promise<Resolved> {
  const known = state.elements.get(id);
  if (!known || known.page.isClosed()) throw stale(id);
  const { page, ref } = known;
  try {
    if (ref === APPLICATION_REF || ref === WINDOW_REF || page === state.phone.foregroundPage()) {
      const tree = await pageSource(page, activeAppName(state.phone), pointsPerCss(state));
      const found = findInTree(tree, ref);
      if (found) return { page, ...found };
      if (ref === APPLICATION_REF || ref === WINDOW_REF) throw stale(id);
    }
    const node = await lookupNode(page, ref, pointsPerCss(state));
    if (node) return { page, node, index: 0 };
  } catch (error) {
    if (error instanceof WdaError) throw error;
  }
  throw stale(id);
}

function findInTree(
  tree: SourceNode,
  ref: string,
): { node: SourceNode; index: number } | undefined {
  const walk = (node: SourceNode, index: number): { node: SourceNode; index: number } | undefined =>
    node.ref === ref ? { node, index } : node.children.reduce<
      { node: SourceNode; index: number } | undefined
    >((found, child, i) => found ?? walk(child, i), undefined);
  return walk(tree, 0);
}

async function find({ state, body, params }: WdaRequest, many: boolean): Promise<unknown> {
  const { page, tree } = await screenTree(state);
  const nodes = flatten(tree);
  let from = 0;
  if (params.uuid !== undefined) {
    const known = state.elements.get(params.uuid);
    from = known && known.page === page ? nodes.findIndex((n) => n.ref === known.ref) : -1;
    if (from < 0) throw stale(params.uuid);
  }
  const indexes = await findIndexes(page, tree, from, body.using, body.value);
  const found = indexes.map((i) => elementReference(state, idOf(state, page, nodes[i].ref)));
  if (many) return found;
  if (found.length === 0) {
    throw new WdaError(
      "no such element",
      `unable to find an element using '${body.using}', value '${body.value}'`,
    );
  }
  return found[0];
}

async function activeElement({ state }: WdaRequest): Promise<unknown> {
  const page = state.phone.foregroundPage();
  const ref = (await state.phone.keyboardShown()) ? await focusedRef(page) : undefined;
  if (ref === undefined) {
    throw new WdaError("no such element", "No element is currently focused for text input");
  }
  return elementReference(state, idOf(state, page, ref));
}

/** The center of the element's part on screen, physical pixels. */
function centerOf(state: WdaState, { node }: Resolved): { x: number; y: number } {
  const { width, height } = { width: state.phone.width, height: state.phone.height };
  const r = node.rect;
  const left = Math.max(0, r.x * state.scale);
  const top = Math.max(0, r.y * state.scale);
  const right = Math.min(width, (r.x + r.width) * state.scale);
  const bottom = Math.min(height, (r.y + r.height) * state.scale);
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}

async function tapElement(state: WdaState, id: string): Promise<Resolved> {
  const element = await resolve(state, id);
  if (!element.node.visible) {
    throw new WdaError(
      "unknown error",
      `The element identified by "${id}" is not visible on the screen and cannot be tapped`,
    );
  }
  const { x, y } = centerOf(state, element);
  await state.phone.tap(x, y);
  return element;
}

/** Gives an element the keyboard focus by tapping it, unless it has it. */
async function focus(state: WdaState, id: string): Promise<void> {
  const element = await resolve(state, id);
  if (!element.node.focused || !(await state.phone.keyboardShown())) await tapElement(state, id);
  const deadline = Date.now() + 1000;
  while (!(await state.phone.keyboardShown())) {
    if (Date.now() > deadline) {
      throw new WdaError(
        "invalid element state",
        `The element identified by "${id}" did not get the keyboard focus after a tap, so the ` +
          `on-screen keyboard is not present to type into it`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setValue({ state, body, params }: WdaRequest): Promise<null> {
  const value = body.value ?? body.text;
  if (value === undefined) {
    throw new WdaError("invalid argument", "Neither 'value' nor 'text' parameter is provided");
  }
  if (!Array.isArray(value) && typeof value !== "string") {
    throw new WdaError("invalid argument", `'value' must be a string or an array of strings`);
  }
  await focus(state, params.uuid);
  await typeKeys(state.phone, Array.isArray(value) ? value.join("") : value);
  return null;
}

async function clear({ state, params }: WdaRequest): Promise<null> {
  await focus(state, params.uuid);
  await state.phone.clearText();
  return null;
}

/** WDA's attribute names (FBElement's `wd` properties, without the prefix). */
const ATTRIBUTES: Readonly<Record<string, (e: Resolved, id: string) => unknown>> = {
  ...NODE_ATTRIBUTES,
  displayed: ({ node }) => node.visible,
  accessibilityContainer: ({ node }) => !isAccessible(node) && node.children.length > 0,
  frame: ({ node: { rect: r } }) => `{{${r.x}, ${r.y}}, {${r.width}, ${r.height}}}`,
  UID: (_e, id) => id,
  traits: () => "",
};

async function attribute({ state, params }: WdaRequest): Promise<unknown> {
  const name = params.name.replace(/^(isWD|wd)/, "").replace(/^./, (c) => c.toLowerCase());
  const key = name === "uID" ? "UID" : name;
  if (!Object.hasOwn(ATTRIBUTES, key)) {
    throw new WdaError(
      "unknown error",
      `The attribute '${params.name}' is unknown. Valid attribute names are: (${
        Object.keys(ATTRIBUTES).sort().join(", ")
      })`,
    );
  }
  return ATTRIBUTES[key](await resolve(state, params.uuid), params.uuid) ?? null;
}

/** An element route answering from the element as it is now. */
const getter = (path: string, answer: (e: Resolved) => unknown): WdaRoute => ({
  method: "GET",
  path: `/element/:uuid/${path}`,
  where: "session",
  handler: async ({ state, params }) => answer(await resolve(state, params.uuid)),
});

/** The element routes. */
export function elementRoutes(): WdaRoute[] {
  return [
    { method: "POST", path: "/element", where: "session", handler: (r) => find(r, false) },
    { method: "POST", path: "/elements", where: "session", handler: (r) => find(r, true) },
    {
      method: "POST",
      path: "/element/:uuid/element",
      where: "session",
      handler: (r) => find(r, false),
    },
    {
      method: "POST",
      path: "/element/:uuid/elements",
      where: "session",
      handler: (r) => find(r, true),
    },
    { method: "GET", path: "/element/active", where: "session", handler: activeElement },
    getter("rect", ({ node }) => ({ ...node.rect })),
    getter("text", ({ node }) => node.value || node.label || ""),
    getter("displayed", ({ node }) => node.visible),
    getter("enabled", ({ node }) => node.enabled),
    getter("selected", ({ node }) => node.selected),
    getter("name", ({ node }) => node.type),
    { method: "GET", path: "/element/:uuid/attribute/:name", where: "session", handler: attribute },
    {
      method: "POST",
      path: "/element/:uuid/click",
      where: "session",
      handler: async ({ state, params }) => {
        await tapElement(state, params.uuid);
        return null;
      },
    },
    { method: "POST", path: "/element/:uuid/value", where: "session", handler: setValue },
    { method: "POST", path: "/element/:uuid/clear", where: "session", handler: clear },
  ];
}
