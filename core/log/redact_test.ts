import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { redactLogText } from "./redact.ts";

const KEY = "sk-proj-Abc123XYZ987_secretpart";

test("a configured key is cut out wherever it appears, as is and JSON-escaped", () => {
  const quoted = 'k"ey\\with-quotes';
  const text = `key=${KEY} in ${JSON.stringify({ v: `x${KEY}y`, q: quoted })} and ${quoted}`;
  const out = redactLogText(text, [KEY, quoted]);
  assert.ok(!out.includes(KEY));
  assert.ok(!out.includes(quoted) && !out.includes(JSON.stringify(quoted).slice(1, -1)));
  assert.equal((out.match(/\*\*\*/g) ?? []).length, 4);
});

test("secrets shorter than 8 characters (placeholder keys) are left alone", () => {
  assert.equal(redactLogText("(none) EMPTY", ["none", "EMPTY"]), "(none) EMPTY");
  assert.equal(redactLogText("k=12345678", ["12345678"]), "k=***");
});

test("Authorization and api-key header values are cut out, the scheme kept", () => {
  const cases: [string, string][] = [
    ['{"Authorization":"Bearer tok-123"}', '{"Authorization":"Bearer ***"}'],
    ["authorization: Basic dXNlcjpwYXNz", "authorization: Basic ***"],
    ['{"api-key":"abcd1234"}', '{"api-key":"***"}'],
    ["x-api-key=zzz999, next", "x-api-key=***, next"],
    ["Proxy-Authorization: Bearer q", "Proxy-Authorization: Bearer ***"],
  ];
  for (const [text, expected] of cases) assert.equal(redactLogText(text, []), expected);
  assert.equal(redactLogText("authorization failed", []), "authorization failed");
});

test("data URIs and long base64 runs are replaced by format and size", () => {
  const body = "A".repeat(4000);
  assert.equal(
    redactLogText(`{"url":"data:image/jpeg;base64,${body}"}`, []),
    '{"url":"[image/jpeg base64, 3000 bytes left out]"}',
  );
  assert.equal(
    redactLogText(`frame ${"QUJD".repeat(200)} end`, []),
    "frame [base64, 600 bytes left out] end",
  );
  const word = "a".repeat(100);
  assert.equal(redactLogText(word, []), word, "short runs are text");
});

test("a model answer of 50 MB in one base64 run is cut to its size (a scan: no stack overflow)", () => {
  const answer = `{"bbox": "${"A".repeat(50_000_000)}"}`;
  assert.equal(
    redactLogText(answer, ["sk-test-secret-key"]),
    `{"bbox": "[base64, ${Math.floor(50_000_000 * 3 / 4)} bytes left out]"}`,
  );
});
