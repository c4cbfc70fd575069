/**
 * `uiautomator` of the adb front (private to `@sdk/mobilea/testing`): `uiautomator dump`, the
 * window's view hierarchy as the XML that AOSP's `AccessibilityNodeInfoDumper` writes, built from
 * the page on screen (the drawn elements of `readScreenElements`, boxes measured in the page).
 *
 * As the real command (AOSP `cmds/uiautomator`, `DumpCommand`): the file is the argument that
 * does not start with `-` (default `/sdcard/window_dump.xml`), the message `UI hierchary dumped
 * to: PATH` (Android 14's spelling) follows on stdout, and the exit code is 0. A file that cannot
 * be written (`/dev/tty`: no terminal is behind the simulator's shell) is not, and the message is
 * printed all the same, as the real command only logs the failure. Without a known subcommand the
 * help goes to stderr, exit code 0.
 *
 * The XML: `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>`, then `<hierarchy
 * rotation="0">` holding the app's window (a `FrameLayout` of the whole screen naming the app's
 * package, a `LinearLayout`, the `android:id/content` `FrameLayout`), then one `node` per drawn
 * element of the page that is on screen, with the dumper's attributes in its order (`NAF`,
 * `index`, `text`, `resource-id`, `class`, `package`, `content-desc`, `checkable`, `checked`,
 * `clickable`, `enabled`, `focusable`, `focused`, `scrollable`, `long-clickable`, `password`,
 * `selected`, `bounds`), bounds `[left,top][right,bottom]` in physical pixels clipped to the
 * screen, all on one line as KXmlSerializer writes it.
 *
 * @module
 */

import {
  readScreenElements,
  resolvePath,
  type ScreenElement,
  type ScreenElementKind,
  type VirtualPhone,
} from "@sdk/web/testing";
import type { AndroidCommand } from "./_android_device.ts";

/** Where `uiautomator dump` writes without a file argument. */
const DEFAULT_DUMP_FILE = "/sdcard/window_dump.xml";

/** Android's widget class for each kind of drawn element. */
const WIDGET_CLASSES: Readonly<Record<ScreenElementKind, string>> = {
  button: "android.widget.Button",
  link: "android.widget.TextView",
  checkbox: "android.widget.CheckBox",
  radio: "android.widget.RadioButton",
  slider: "android.widget.SeekBar",
  search: "android.widget.EditText",
  textInput: "android.widget.EditText",
  textArea: "android.widget.EditText",
  select: "android.widget.Spinner",
  image: "android.widget.ImageView",
  list: "android.widget.ListView",
  listItem: "android.widget.LinearLayout",
  scroll: "android.widget.ScrollView",
  text: "android.widget.TextView",
  row: "android.widget.LinearLayout",
  column: "android.widget.LinearLayout",
};

// The dumper does not mark these as NAF (not accessibility friendly).
const NAF_EXCLUDED = ["GridView", "GridLayout", "ListView", "TableLayout"];

const HELP = "Usage: uiautomator <subcommand> [options]\n\n" +
  "Available subcommands:\n\n" +
  "help: displays help message\n\n" +
  "runtest: executes UI automation tests\n" +
  "    runtest <class spec> [options]\n" +
  "    <class spec>: <JARS> < -c <CLASSES> | -e class <CLASSES> >\n" +
  "      <JARS>: a list of jar files containing test classes and dependencies. If\n" +
  "        the path is relative, it's assumed to be under /data/local/tmp. Use\n" +
  "        absolute path if the file is elsewhere. Multiple files can be\n" +
  "        specified, separated by space.\n" +
  "      <CLASSES>: a list of test class names to run, separated by comma. To\n" +
  "        a single method, use TestClass#testMethod format. The -e or -c option\n" +
  "        may be repeated. This option is not required and if not provided then\n" +
  "        all the tests in provided jars will be run automatically.\n" +
  "    options:\n" +
  "      --nohup: trap SIG_HUP, so test won't terminate even if parent process\n" +
  "               is terminated, e.g. USB is disconnected.\n" +
  "      -e debug [true|false]: wait for debugger to connect before starting.\n" +
  "      -e runner [CLASS]: use specified test runner class instead. If\n" +
  "        unspecified, framework default runner will be used.\n" +
  "      -e <NAME> <VALUE>: other name-value pairs to be passed to test classes.\n" +
  "        May be repeated.\n" +
  "      -e outputFormat simple | -s: enabled less verbose JUnit style output.\n\n" +
  "dump: creates an XML dump of current UI hierarchy\n" +
  "    dump [--verbose][file]\n" +
  "      [--compressed]: dumps compressed layout information.\n" +
  "      [file]: the location where the dumped XML should be stored, default is\n" +
  `      ${DEFAULT_DUMP_FILE}\n\n` +
  "events: prints out accessibility events until terminated\n\n";

/** `uiautomator dump [--compressed] [FILE]`; `help` (or nothing known) prints the help. */
export const uiautomator: AndroidCommand = async (args, io, device) => {
  const [sub, ...rest] = args;
  if (sub === "dump") {
    let file = DEFAULT_DUMP_FILE;
    for (const arg of rest) if (!arg.startsWith("-")) file = arg;
    const absolute = file.startsWith("/") ? file : `/${file}`;
    const xml = await windowDump(device.phone);
    if (absolute !== "/dev/tty" && absolute !== "/dev/null") {
      device.files.set(resolvePath(absolute), new TextEncoder().encode(xml));
    }
    io.stdout(`UI hierchary dumped to: ${absolute}\n`);
    return 0;
  }
  if (sub === "runtest" || sub === "events") {
    io.stderr(`The simulator's uiautomator does not run ${sub} (docs/simulator.md, Fidelity)\n`);
    return 1;
  }
  io.stderr(HELP);
  return 0;
};

// KXmlSerializer's escaping of an attribute value in double quotes, after the dumper replaced
// the characters XML cannot hold with ".".
function attribute(value: string): string {
  return value
    // deno-lint-ignore no-control-regex
    .replace(/[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufdd0-\ufddf]/g, ".")
    .replace(
      /[&<>"\n\r\t]/g,
      (c) =>
        c === "&"
          ? "&amp;"
          : c === "<"
          ? "&lt;"
          : c === ">"
          ? "&gt;"
          : c === '"'
          ? "&quot;"
          : `&#${c.charCodeAt(0)};`,
    );
}

interface DumpNode {
  attributes: [string, string][];
  children: DumpNode[];
}

function xmlOf(node: DumpNode): string {
  const attrs = node.attributes.map(([k, v]) => ` ${k}="${attribute(v)}"`).join("");
  if (!node.children.length) return `<node${attrs} />`;
  return `<node${attrs}>${node.children.map(xmlOf).join("")}</node>`;
}

/**
 * The window's hierarchy as `uiautomator dump` writes it: the foreground app's window and the
 * page's drawn elements that are on screen.
 */
async function windowDump(phone: VirtualPhone): Promise<string> {
  const { packageName } = phone.foregroundApp();
  const raw = await readScreenElements(phone);
  const px = (n: number) => Math.round(n * phone.density);
  const clip = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const screen = `[0,0][${phone.width},${phone.height}]`;
  const flags = (node?: ScreenElement): [string, string][] => [
    ["checkable", String(node?.checkable ?? false)],
    ["checked", String(node?.checked ?? false)],
    ["clickable", String(node?.clickable ?? false)],
    ["enabled", String(node?.enabled ?? true)],
    ["focusable", String(node ? node.clickable || isEditable(node.kind) : false)],
    ["focused", String(node?.focused ?? false)],
    ["scrollable", String(node?.scrollable ?? false)],
    ["long-clickable", "false"],
    ["password", String(node?.password ?? false)],
    ["selected", String(node?.selected ?? false)],
  ];
  const frame = (index: number, cls: string, id: string, children: DumpNode[]): DumpNode => ({
    attributes: [
      ["index", String(index)],
      ["text", ""],
      ["resource-id", id],
      ["class", cls],
      ["package", packageName],
      ["content-desc", ""],
      ...flags(),
      ["bounds", screen],
    ],
    children,
  });
  // A node per element on screen; one off screen is left out, its children on screen kept.
  const convert = (node: ScreenElement, index: number): DumpNode[] => {
    const children = node.children.flatMap(convert);
    const [l, t, r, b] = [
      clip(px(node.rect.left), phone.width),
      clip(px(node.rect.top), phone.height),
      clip(px(node.rect.right), phone.width),
      clip(px(node.rect.bottom), phone.height),
    ];
    if (r <= l || b <= t) return children;
    const cls = node.kind === "listItem" && node.text && !node.children.length
      ? WIDGET_CLASSES.text
      : WIDGET_CLASSES[node.kind];
    const text = textOf(node);
    const naf = node.clickable && node.enabled && !text && !node.description &&
      !hasText(node) && !NAF_EXCLUDED.some((c) => cls.endsWith(c));
    return [{
      attributes: [
        ...(naf ? [["NAF", "true"] as [string, string]] : []),
        ["index", String(index)],
        ["text", text],
        ["resource-id", node.id ? `${packageName}:id/${node.id}` : ""],
        ["class", cls],
        ["package", packageName],
        ["content-desc", node.description],
        ...flags(node),
        ["bounds", `[${l},${t}][${r},${b}]`],
      ],
      children,
    }];
  };
  const content = frame(
    0,
    "android.widget.FrameLayout",
    "android:id/content",
    raw.children.flatMap(convert),
  );
  const decor = frame(0, "android.widget.FrameLayout", "", [
    frame(0, "android.widget.LinearLayout", "", [content]),
  ]);
  return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" +
    `<hierarchy rotation="0">${xmlOf(decor)}</hierarchy>`;
}

function isEditable(kind: ScreenElementKind): boolean {
  return kind === "textInput" || kind === "textArea" || kind === "search";
}

// TextView's text for accessibility: the hint while empty, a password as its dots.
function textOf(node: ScreenElement): string {
  if (!isEditable(node.kind)) return node.text;
  if (node.text === "") return node.hint;
  return node.password ? "\u2022".repeat([...node.text].length) : node.text;
}

// Whether a descendant has text or a description (the dumper's check before marking NAF).
function hasText(node: ScreenElement): boolean {
  return node.children.some((c) => textOf(c) !== "" || c.description !== "" || hasText(c));
}
