/**
 * The hdc front of the device simulator, run as a tool is run: its `hdc` executable started with
 * `execFile` (a real process each time), answering for virtual phones in headless Chromium.
 *
 * @module
 */

import { before } from "node:test";
import { after, test } from "../helpers/test.ts";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import { Buffer } from "node:buffer";
import { LAUNCHER_PACKAGE, startVirtualPhone, type VirtualPhone } from "@sdk/web/testing";
import { type HdcFront, startHdcFront } from "@sdk/mobilec/testing";
import { launchChromium } from "../helpers/browser.ts";
import { serveStatic, type StaticServer } from "../helpers/static_server.ts";

const NOTES = "com.example.notes";

let browser: Browser;
let apps: StaticServer;
let phone: VirtualPhone;
let front: HdcFront;
let dir: string;

before(async () => {
  browser = await launchChromium();
  apps = await serveStatic(fileURLToPath(new URL("../fixtures/mobile/", import.meta.url)));
  phone = await startVirtualPhone({
    browser,
    width: 1080,
    height: 2340,
    density: 3,
    apps: { [NOTES]: { url: `${apps.url}notes/index.html`, activity: "EntryAbility" } },
    startApp: NOTES,
  });
  front = await startHdcFront(phone, { params: { "const.product.model": "ALN-AL00" } });
  dir = await mkdtemp(join(tmpdir(), "sdk-hdc-test-"));
});

after(async () => {
  await front?.close();
  await phone?.close();
  await apps?.close();
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the front's `hdc` with `args` in the test's folder. Never rejects. */
function hdc(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(front.toolPath, args, { cwd: dir, encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({
        code: error ? Number((error as { code?: number }).code ?? -1) : 0,
        stdout,
        stderr,
      });
    });
  });
}

const shell = (command: string) => hdc("-t", front.connectKey, "shell", command);

test("list targets, -t, and the failures of hdc itself", async () => {
  assert.deepEqual(await hdc("list", "targets"), {
    code: 0,
    stdout: `${front.connectKey}\n`,
    stderr: "",
  });
  assert.match((await hdc("list", "targets", "-v")).stdout, /\tTCP\tConnected\t/);
  assert.match((await hdc("version")).stdout, /^Ver: \d/);
  // One device: -t may be left out.
  assert.equal((await hdc("shell", "echo hi")).stdout, "hi\n");
  const unknown = await hdc("-t", "10.0.0.1:5555", "shell", "echo hi");
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stdout, "[Fail]Not match target founded, check connect-key please\n");
  assert.equal((await hdc("frobnicate")).stdout, "Unknown operation command...\n");
  // A second phone: now a command without -t must say which device.
  const second = await startVirtualPhone({ browser, width: 720, height: 1280, density: 2 });
  try {
    const key = front.addPhone(second);
    assert.deepEqual(front.targets(), [front.connectKey, key]);
    assert.equal((await hdc("list", "targets")).stdout, `${front.connectKey}\n${key}\n`);
    assert.match(
      (await hdc("shell", "echo hi")).stdout,
      /^\[Fail\]ExecuteCommand need connect-key/,
    );
    const size = await hdc("-t", key, "shell", "hidumper -s RenderService -a screen");
    assert.match(size.stdout, /render resolution=720x1280/);
    front.removePhone(key);
    assert.equal((await hdc("list", "targets")).stdout, `${front.connectKey}\n`);
  } finally {
    await second.close();
  }
  const empty = await startHdcFront(phone, { connectKey: "only" });
  try {
    empty.removePhone("only");
    const run = await new Promise<string>((resolve) =>
      execFile(empty.toolPath, ["list", "targets"], { encoding: "utf8" }, (_e, out) => resolve(out))
    );
    assert.equal(run, "[Empty]\n");
  } finally {
    await empty.close();
  }
  // The client is plain JavaScript: Node runs it as well as Deno (the script execs the runtime
  // that started the front).
  const onNode = await new Promise<string>((resolve, reject) =>
    execFile(
      "node",
      [join(front.toolDir, "hdc_client.mjs"), "-t", front.connectKey, "shell", "echo", "'a  b'"],
      { encoding: "utf8" },
      (error, out) => error ? reject(error) : resolve(out),
    )
  );
  assert.equal(onNode, "a  b\n");
  // Every run is logged with its device, output and exit code.
  const logged = front.commands.find((c) => c.argv.includes("10.0.0.1:5555"));
  assert.equal(logged?.exitCode, 1);
  assert.equal(logged?.connectKey, undefined);
});

test("uitest uiInput: taps, swipes, keys and text reach the phone in physical pixels", async () => {
  await phone.stopApp(NOTES);
  await phone.launchApp(NOTES);
  const before = phone.inputs.length;
  assert.equal((await shell("uitest uiInput click 540 300")).stdout, "");
  assert.equal((await shell("uitest uiInput doubleClick 10 20")).stdout, "");
  await shell("uitest uiInput swipe 500 2000 500 1000 2000");
  await shell("uitest uiInput keyEvent Back");
  await shell("uitest uiInput keyEvent 2210");
  assert.deepEqual(phone.inputs.slice(before), [
    { type: "tap", x: 540, y: 300 },
    { type: "tap", x: 10, y: 20 },
    { type: "tap", x: 10, y: 20 },
    // 1000 px at 2000 px/s: half a second.
    { type: "swipe", x1: 500, y1: 2000, x2: 500, y2: 1000, durationMs: 500 },
    { type: "key", keyCode: 4 },
    { type: "key", keyCode: 187 },
  ]);
  assert.match(phone.foregroundApp().activity, /RecentsActivity/);
  // uitest's refusals, printed as uitest prints them.
  assert.match(
    (await shell("uitest uiInput click 5000 10")).stdout,
    /^Please confirm that the coordinate values are correct\.\n\nUSAGE: click/,
  );
  assert.match((await shell("uitest uiInput click 1")).stdout, /^Missing parameter\./);
  assert.match((await shell("uitest uiInput swipe 1 1 2 2 50")).stdout, /^Invalid parameters\./);
  assert.match((await shell("uitest uiInput keyEvent Home 2054")).stdout, /^Invalid parameters\./);
  assert.match((await shell("uitest uiRecord record")).stdout, /does not run uiRecord/);
  // Text: typed into the focused field in one commit, Ctrl+A selects it for Backspace.
  await phone.launchApp(NOTES);
  await phone.foregroundPage().evaluate(() => location.hash = "#/note/5");
  const field = await phone.foregroundPage().locator("#note-text").boundingBox();
  assert.ok(field);
  const [x, y] = [Math.round((field.x + 20) * 3), Math.round((field.y + 10) * 3)];
  await shell(`uitest uiInput inputText ${x} ${y} 'hello wörld 你好'`);
  assert.equal(await phone.foregroundPage().locator("#note-text").inputValue(), "hello wörld 你好");
  await shell("uitest uiInput keyEvent 2072 2017; uitest uiInput keyEvent 2055");
  assert.equal(await phone.foregroundPage().locator("#note-text").inputValue(), "");
  await shell('uitest uiInput text "it\'s"');
  assert.equal(await phone.foregroundPage().locator("#note-text").inputValue(), "it's");
});

test("snapshot_display, uitest screenCap, file recv and file send", async () => {
  const snap = await shell("snapshot_display -f /data/local/tmp/shot.jpeg");
  assert.match(snap.stdout, /width 1080, height 2340/);
  assert.match(snap.stdout, /^success: /m);
  const recv = await hdc(
    "-t",
    front.connectKey,
    "file",
    "recv",
    "/data/local/tmp/shot.jpeg",
    "s.jpeg",
  );
  assert.match(recv.stdout, /^FileTransfer finish, Size:\d+/);
  const image = jpeg.decode(await readFile(join(dir, "s.jpeg")));
  assert.deepEqual([image.width, image.height], [1080, 2340]);
  await shell("uitest screenCap -p /data/local/tmp/cap.png");
  await hdc("file", "recv", "/data/local/tmp/cap.png", join(dir, "cap.png"));
  const png = PNG.sync.read(Buffer.from(await readFile(join(dir, "cap.png"))));
  assert.deepEqual([png.width, png.height], [1080, 2340]);
  const missing = await hdc("file", "recv", "/data/local/tmp/none.jpeg", "x");
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /^\[Fail\]Error opening file: no such file or directory/);
  await writeFile(join(dir, "up.txt"), "to the device");
  assert.match((await hdc("file", "send", "up.txt", "/data/local/tmp/up.txt")).stdout, /Size:13/);
  assert.equal((await shell("cat /data/local/tmp/up.txt")).stdout, "to the device");
});

test("aa, bm, hidumper and param answer from the phone; Android's commands are not there", async () => {
  assert.equal(
    (await shell("aa start -a EntryAbility -b com.example.notes")).stdout,
    "start ability successfully.\n",
  );
  assert.deepEqual(phone.foregroundApp(), { packageName: NOTES, activity: "EntryAbility" });
  assert.equal(
    (await shell("aa start -a Nope -b com.example.notes")).stdout,
    "error: failed to start ability.\nerror: resolve ability err.\n",
  );
  assert.equal(
    (await shell("aa force-stop com.example.notes")).stdout,
    "force stop process successfully.\n",
  );
  assert.equal(phone.foregroundApp().packageName, LAUNCHER_PACKAGE);
  assert.match((await shell("aa force-stop com.nope")).stdout, /^error: failed to force stop/);
  const dump = (await shell("bm dump -n com.example.notes")).stdout;
  assert.ok(dump.startsWith("com.example.notes:\n"));
  const info = JSON.parse(dump.slice(dump.indexOf("{")));
  assert.equal(info.hapModuleInfos[0].mainElementName, "EntryAbility");
  assert.match((await shell("bm dump -n com.nope")).stdout, /^error: failed to get information/);
  assert.match((await shell("bm dump -a")).stdout, /\tcom\.example\.notes\n/);
  assert.match(
    (await shell("hidumper -s DisplayManagerService -a -a | grep Density")).stdout,
    /^Density: 3\n/,
  );
  assert.equal((await shell("param get const.product.model")).stdout, "ALN-AL00\n");
  assert.match((await shell("param get no.such.key")).stdout, /^Get parameter "no.such.key" fail!/);
  const android = await shell("input tap 1 1");
  assert.match(android.stdout, /^\/bin\/sh: input: inaccessible or not found$/m);
  // hdc does not pass on the device command's exit code.
  assert.equal((await shell("false")).code, 0);
  assert.match((await hdc("shell")).stdout, /does not run an interactive shell/);
});

interface LayoutNode {
  attributes: Record<string, string>;
  children: LayoutNode[];
}

function* nodesOf(node: LayoutNode): Generator<LayoutNode> {
  yield node;
  for (const child of node.children) yield* nodesOf(child);
}

test("uitest dumpLayout writes HarmonyOS's layout JSON, read back as tools read it (file recv)", async () => {
  await shell("aa force-stop com.example.notes");
  await shell("aa start -a EntryAbility -b com.example.notes");
  const page = phone.foregroundPage();
  await page.waitForSelector("#note-3");
  const dumped = await shell("uitest dumpLayout -p /data/local/tmp/layout.json");
  assert.deepEqual(dumped, {
    code: 0,
    stdout: "DumpLayout saved to:/data/local/tmp/layout.json\n",
    stderr: "",
  });
  assert.match(
    (await hdc("file", "recv", "/data/local/tmp/layout.json", "layout.json")).stdout,
    /FileTransfer finish/,
  );
  const layout: LayoutNode = JSON.parse(await readFile(join(dir, "layout.json"), "utf8"));
  // The screen's root, then the window's root naming the app, its ability and its page.
  assert.equal(layout.attributes.bounds, "[0,0][1080,2340]");
  assert.equal(layout.attributes.type, "");
  const root = layout.children[0];
  assert.equal(root.attributes.type, "root");
  assert.equal(root.attributes.bundleName, NOTES);
  assert.equal(root.attributes.abilityName, "EntryAbility");
  assert.equal(root.attributes.pagePath, "notes/index.html");
  // Every value is a string, as uitest writes them.
  for (const node of nodesOf(layout)) {
    for (const value of Object.values(node.attributes)) assert.equal(typeof value, "string");
  }
  // Note 3 by its key, with its text and bounds in physical pixels (CSS pixels x density 3).
  const note = [...nodesOf(layout)].find((n) => n.attributes.key === "note-3");
  assert.ok(note, "no node with key note-3");
  assert.equal(note.attributes.type, "ListItem");
  assert.equal(note.attributes.text, "Note 3");
  const box = (await page.locator("#note-3").boundingBox())!;
  const edges = [box.x, box.y, box.x + box.width, box.y + box.height].map((v) => Math.round(v * 3));
  assert.equal(note.attributes.bounds, `[${edges[0]},${edges[1]}][${edges[2]},${edges[3]}]`);
  const list = [...nodesOf(layout)].find((n) => n.attributes.type === "List");
  assert.ok(list?.children.includes(note), "Note 3 is a child of the List");
  // Tapping the center of the bounds opens the note, as a tool that reads the layout would do.
  const [l, t, r, b] = note.attributes.bounds.match(/\d+/g)!.map(Number);
  await shell(`uitest uiInput click ${Math.round((l + r) / 2)} ${Math.round((t + b) / 2)}`);
  await page.waitForFunction(() => location.hash === "#/note/3");
  const detail = await shell(
    "uitest dumpLayout -p /data/local/tmp/detail.json && cat /data/local/tmp/detail.json",
  );
  const field = [...nodesOf(JSON.parse(detail.stdout.slice(detail.stdout.indexOf("{"))))]
    .find((n) => n.attributes.id === "note-text");
  assert.deepEqual(
    field && [field.attributes.type, field.attributes.hint, field.attributes.clickable],
    ["TextInput", "Write something", "true"],
  );
  assert.equal(
    [...nodesOf(JSON.parse(detail.stdout.slice(detail.stdout.indexOf("{"))))]
      .some((n) => n.attributes.text === "Note 3" && n.attributes.type === "ListItem"),
    false,
    "the hidden list is not in the layout",
  );
  // Without -p, uitest picks the file name; a bad option is refused with the usage line.
  assert.match(
    (await shell("uitest dumpLayout")).stdout,
    /^DumpLayout saved to:\/data\/local\/tmp\/layout_\d+\.json\n$/,
  );
  assert.equal(
    (await shell("uitest dumpLayout -x")).stdout,
    "uitest: unrecognized option: x\nUSAGE: uitestkit dumpLayout -p <path>\n",
  );
});

test("the tools' own words for unknown commands: uitest, aa and bm", async () => {
  const uitest = (await shell("uitest frobnicate")).stdout;
  assert.match(uitest, /^Illegal argument: frobnicate\nusage: uitest <command> \[options\] *\n/);
  assert.match(uitest, /^dumpLayout {2,}get the current layout information\n/m);
  assert.match((await shell("uitest")).stdout, /^Missing argument\nusage: uitest/);
  assert.match(
    (await shell("aa frobnicate")).stdout,
    /^aa: 'frobnicate' is not a valid aa command\. See 'aa help'\.\nusage: aa <command> <options>\n/,
  );
  assert.match((await shell("aa help")).stdout, /^ {2}force-stop <bundle-name> +force stop/m);
  assert.match(
    (await shell("bm frobnicate")).stdout,
    /^bm: 'frobnicate' is not a valid bm command\. See 'bm help'\.\nusage: bm <command> <options>\n/,
  );
  assert.match((await shell("nosuch")).stdout, /^\/bin\/sh: nosuch: inaccessible or not found\n$/);
});
