import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { decodeXmlText, readBoundsText, readXmlTree } from "./element_tree.ts";

test("readXmlTree reads elements and attributes, skipping a message before the document", () => {
  const xml = "UI hierchary dumped to: /sdcard/window_dump.xml\n" +
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><!-- a comment -->" +
    '<hierarchy rotation="0"><node index="0" text="a &amp; b &lt;c&gt; &#10;&#x263A;" ' +
    'class=\'x\'><node index="0" text="" /><node text="q &quot;r&quot; &apos;s&apos; &bogus;"/>' +
    '</node><node index="1">text > between</node></hierarchy>';
  const root = readXmlTree(xml)!;
  assert.equal(root.name, "hierarchy");
  assert.deepEqual(root.attributes, { rotation: "0" });
  assert.equal(root.children.length, 2);
  const [first, second] = root.children;
  assert.deepEqual(first.attributes, { index: "0", text: "a & b <c> \n\u263a", class: "x" });
  assert.deepEqual(first.children.map((c) => c.attributes.text), ["", `q "r" 's' &bogus;`]);
  assert.deepEqual(first.children.map((c) => c.children.length), [0, 0]);
  assert.deepEqual(second.attributes, { index: "1" });
});

test("readXmlTree is lenient: unclosed elements close at the end, a stray end tag is ignored", () => {
  const root = readXmlTree('<a x="1"><b></c><b y="2"></a>')!;
  assert.equal(root.children.length, 1);
  assert.equal(root.children[0].children[0].attributes.y, "2");
  assert.equal(readXmlTree("no xml here"), undefined);
  assert.equal(readXmlTree(""), undefined);
});

test("readXmlTree reads WebDriverAgent's indented source with attributes holding >", () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Notes" label="a > b" x="0" y="0">
  <XCUIElementTypeWindow type="XCUIElementTypeWindow" x="0" y="0"/>
</XCUIElementTypeApplication>`;
  const root = readXmlTree(xml)!;
  assert.equal(root.attributes.label, "a > b");
  assert.deepEqual(root.children.map((c) => c.name), ["XCUIElementTypeWindow"]);
});

test("decodeXmlText keeps what is not a reference", () => {
  assert.equal(decodeXmlText("a &amp;&amp; b & c &#1114112;"), "a && b & c &#1114112;");
});

test("readBoundsText: [l,t][r,b] physical pixels as a logical rectangle", () => {
  assert.deepEqual(readBoundsText("[0,168][1080,336]", 2.625), {
    left: 0,
    top: 64,
    width: 1080 / 2.625,
    height: 64,
  });
  assert.deepEqual(readBoundsText("[10,20][5,20]", 1), { left: 10, top: 20, width: 0, height: 0 });
  assert.equal(readBoundsText("0,0,1,1", 1), undefined);
  assert.equal(readBoundsText(undefined, 1), undefined);
});
