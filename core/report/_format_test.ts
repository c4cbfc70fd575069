import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  contentHash,
  escapeHtml,
  executionTag,
  foldExecution,
  jsonForScript,
  normalizeScreenshot,
  parseReportHtml,
} from "./_format.ts";
import { execution, step } from "./_test_helpers.ts";

/** Reference FNV-1a 64 over UTF-8 bytes, with BigInt. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) {
    h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

test("contentHash() of ASCII text is FNV-1a 64 of its bytes plus its length", () => {
  for (const text of ["", "a", "foobar", "data:image/png;base64,iVBORw0KGgo="]) {
    const bytes = new TextEncoder().encode(text).length;
    assert.equal(contentHash(text), `${fnv1a64(text)}-${bytes.toString(36)}`);
  }
  assert.equal(contentHash(""), "cbf29ce484222325-0");
  assert.notEqual(contentHash("é\u2028😀"), contentHash("e\u2028😀"));
});

test("jsonForScript() leaves no '<' or line separator and still parses to the same value", () => {
  const value = { a: "</script><!-- <b>", b: "x\u2028y\u2029z" };
  const json = jsonForScript(value);
  assert.ok(!/[<\u2028\u2029]/.test(json));
  assert.deepEqual(JSON.parse(json), value);
});

test("escapeHtml() escapes the five HTML-special characters", () => {
  assert.equal(escapeHtml(`<a href="x">&'`), "&#60;a href=&#34;x&#34;&#62;&#38;&#39;");
});

test("normalizeScreenshot() keeps image data URIs, takes raw base64 as PNG, rejects the rest", () => {
  assert.deepEqual(normalizeScreenshot("data:image/jpeg;base64,AAAA"), {
    uri: "data:image/jpeg;base64,AAAA",
    mime: "image/jpeg",
  });
  assert.equal(normalizeScreenshot("data:image/jpg;base64,AA").mime, "image/jpeg");
  assert.equal(normalizeScreenshot("iVBORw0K").uri, "data:image/png;base64,iVBORw0K");
  assert.throws(() => normalizeScreenshot("data:image/svg+xml;base64,AA"), TypeError);
  assert.throws(() => normalizeScreenshot("data:image/png;base64,A<A"), /current value starts/);
  assert.throws(() => normalizeScreenshot(42 as unknown as string), TypeError);
});

test("foldExecution() applies a delta onto the previous state and replaces on a full tag", () => {
  const prev = execution({ steps: [step({ title: "a" }), step({ title: "b" })] });
  const delta = {
    ...execution(),
    steps: [step({ title: "B" }), step({ title: "c" })],
    stepsFrom: 1,
  };
  assert.deepEqual(foldExecution(prev, delta).steps.map((s) => s.title), ["a", "B", "c"]);
  assert.equal("stepsFrom" in foldExecution(prev, delta), false);
  const full = execution({ steps: [step({ title: "z" })] });
  assert.deepEqual(foldExecution(prev, full).steps.map((s) => s.title), ["z"]);
});

test("parseReportHtml() reads escaped attributes and skips a cut tag", () => {
  const exec = execution({ id: `a"<b>&` });
  const html = executionTag(exec.id, JSON.stringify(exec)) +
    `<script type="sdk-execution" data-id="x">{"id":"x"`;
  const report = parseReportHtml(html);
  assert.deepEqual(report.executions, [exec]);
});
