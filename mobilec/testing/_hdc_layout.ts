/**
 * `uitest dumpLayout` of the hdc front (private to `@sdk/mobilec/testing`): the page on screen as
 * the component tree HarmonyOS's uitest writes, in its JSON shape and field names (`attributes`
 * with string values, `children`; `bounds` as `[left,top][right,bottom]` in physical pixels): a
 * root of the whole screen holding the window's `root` node (with `bundleName`, `abilityName` and
 * `pagePath`), then one node per drawn element of the page.
 *
 * Element types are ArkUI's component names for what the element is: `Button`, `Hyperlink`,
 * `TextInput`, `TextArea`, `Search`, `Checkbox`, `Radio`, `Slider`, `Select`, `Image`, `List`,
 * `ListItem`, `Text` (an element with its own text), `Scroll` (an element that scrolls), and
 * `Row` / `Column` (flex rows, other containers).
 *
 * @module
 */

import {
  readScreenElements,
  type ScreenElement,
  type ScreenElementKind,
  type VirtualPhone,
} from "@sdk/web/testing";

/** One node of the layout: HarmonyOS's attribute names, every value a string. */
export interface LayoutNode {
  attributes: Record<string, string>;
  children: LayoutNode[];
}

/** ArkUI's component name for each kind of drawn element. */
const ARKUI_TYPES: Readonly<Record<ScreenElementKind, string>> = {
  button: "Button",
  link: "Hyperlink",
  checkbox: "Checkbox",
  radio: "Radio",
  slider: "Slider",
  search: "Search",
  textInput: "TextInput",
  textArea: "TextArea",
  select: "Select",
  image: "Image",
  list: "List",
  listItem: "ListItem",
  scroll: "Scroll",
  text: "Text",
  row: "Row",
  column: "Column",
};

/** The window id uitest reports for the app on screen (a fixed number: there is one window). */
const WINDOW_ID = "1";

const bounds = (l: number, t: number, r: number, b: number) => `[${l},${t}][${r},${b}]`;

/** The attributes of the top node, all empty but its bounds (uitest's screen root). */
const TOP_KEYS = [
  "accessibilityId",
  "backgroundColor",
  "backgroundImage",
  "blur",
  "bounds",
  "checkable",
  "checked",
  "clickable",
  "description",
  "enabled",
  "focused",
  "hitTestBehavior",
  "hostWindowId",
  "id",
  "key",
  "longClickable",
  "opacity",
  "origBounds",
  "scrollable",
  "selected",
  "text",
  "type",
  "zIndex",
];

/**
 * The layout of the page on screen, as `uitest dumpLayout` writes it. The window's `root` node
 * names the app in front (`bundleName`), its ability (the phone's activity, without its package)
 * and the page (`pagePath`: the URL's path and hash).
 */
export async function dumpLayout(phone: VirtualPhone): Promise<LayoutNode> {
  const { packageName, activity } = phone.foregroundApp();
  const raw = await readScreenElements(phone);
  const px = (n: number) => Math.round(n * phone.density);
  const screen = bounds(0, 0, phone.width, phone.height);
  let next = 0;
  const convert = (node: ScreenElement, hierarchy: string): LayoutNode => {
    const id = String(++next);
    const clipped = bounds(
      Math.max(0, px(node.rect.left)),
      Math.max(0, px(node.rect.top)),
      Math.min(phone.width, px(node.rect.right)),
      Math.min(phone.height, px(node.rect.bottom)),
    );
    return {
      attributes: {
        accessibilityId: id,
        backgroundColor: node.backgroundColor,
        backgroundImage: "empty source",
        blur: "",
        bounds: clipped,
        checkable: String(node.checkable),
        checked: String(node.checked),
        clickable: String(node.clickable),
        description: node.description,
        enabled: String(node.enabled),
        focused: String(node.focused),
        hashcode: `${WINDOW_ID}:${id}`,
        hierarchy,
        hint: node.hint,
        hitTestBehavior: "HitTestMode.Default",
        hostWindowId: WINDOW_ID,
        id: node.id,
        key: node.id,
        longClickable: String(node.clickable),
        opacity: node.opacity.toFixed(6),
        origBounds: bounds(
          px(node.rect.left),
          px(node.rect.top),
          px(node.rect.right),
          px(node.rect.bottom),
        ),
        scrollable: String(node.scrollable),
        selected: String(node.selected),
        text: node.text,
        type: ARKUI_TYPES[node.kind],
        visible: "true",
        zIndex: String(node.zIndex),
      },
      children: node.children.map((child, i) => convert(child, `${hierarchy},${i}`)),
    };
  };
  const root = `ROOT${WINDOW_ID}`;
  const windowRoot: LayoutNode = {
    attributes: {
      abilityName: activity.slice(activity.lastIndexOf(".") + 1),
      accessibilityId: "0",
      bounds: screen,
      bundleName: packageName,
      checkable: "false",
      checked: "false",
      clickable: "false",
      description: "",
      enabled: "true",
      focused: "true",
      hashcode: `${WINDOW_ID}:0`,
      hierarchy: root,
      hint: "",
      hostWindowId: WINDOW_ID,
      id: "",
      key: "",
      longClickable: "false",
      origBounds: screen,
      pagePath: raw.location.replace(/^\//, ""),
      scrollable: "false",
      selected: "false",
      text: "",
      type: "root",
      visible: "true",
      zIndex: "0",
    },
    children: raw.children.map((child, i) => convert(child, `${root},${i}`)),
  };
  const empty = Object.fromEntries(TOP_KEYS.map((k) => [k, ""]));
  return { attributes: { ...empty, bounds: screen }, children: [windowRoot] };
}
