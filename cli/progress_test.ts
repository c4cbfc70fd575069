import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { createProgress, progressOnDevice } from "./progress.ts";
import { formatSummaryTable, type RunSummary } from "./summary.ts";

function capture(isTTY: boolean) {
  let text = "";
  return { out: { isTTY, write: (t: string) => void (text += t) }, text: () => text };
}

test("without a terminal, progress is one plain line per event, no escape codes", () => {
  const { out, text } = capture(false);
  const p = createProgress(out);
  p.start("a.yaml");
  p.step("a.yaml", "aiTap: the login button");
  p.end({ file: "a.yaml", status: "failed", durationMs: 1234, error: "boom", items: [] });
  p.close();
  assert.equal(
    text(),
    "[start] a.yaml\n[step]  a.yaml: aiTap: the login button\n" +
      "[failed]  a.yaml failed in 1.2 s\n    boom\n",
  );
  assert.ok(!text().includes("\x1b"), "no escape codes");
});

test("on a terminal, one file running on two devices keeps a line per device until each ends", () => {
  const { out, text } = capture(true);
  const p = createProgress(out);
  const [one, two] = [progressOnDevice(p, "mobilea:one"), progressOnDevice(p, "mobilea:two")];
  one.start("a.yaml");
  two.start("a.yaml");
  one.step("a.yaml", "aiTap: the login button");
  one.end({ file: "a.yaml", status: "passed", durationMs: 1000, items: [] });
  p.close();
  // Once the first ends, its line is printed and the other device's run is still drawn below.
  assert.match(text(), /a\.yaml @ mobilea:one passed in 1\.0 s\n\S+ a\.yaml @ mobilea:two\n/);
});

test("on a terminal, running files are redrawn in place under the finished ones", () => {
  const { out, text } = capture(true);
  const p = createProgress(out);
  p.start("a.yaml");
  p.start("b.feature");
  p.step("a.yaml", "aiAct: sign in");
  p.end({ file: "a.yaml", status: "passed", durationMs: 500, items: [] });
  p.close();
  const screen = text();
  assert.ok(
    screen.includes("\x1b[2A\x1b[J"),
    "moves up over the two running lines and clears",
  );
  assert.match(screen, /✔ a\.yaml passed in 500 ms\n/);
  assert.match(screen, /b\.feature\n$/, "the still-running file stays last");
});

test("the summary table lists each file with its status, time and items, each failure in full, then totals", () => {
  const summary: RunSummary = {
    startedAt: "2026-11-24T10:00:00.000Z",
    durationMs: 65_000,
    concurrent: 2,
    passed: 1,
    failed: 1,
    skipped: 1,
    mergedReport: "/r/merged.html",
    files: [
      {
        file: "a.yaml",
        status: "passed",
        durationMs: 3000,
        items: [{ name: "t", status: "passed" }],
      },
      {
        file: "b.feature",
        status: "failed",
        durationMs: 900,
        error: "Step failed at line 4\nwith a second line",
        items: [{ name: "s", status: "failed" }],
      },
      { file: "c.yaml", status: "skipped", durationMs: 0, items: [] },
    ],
  };
  assert.equal(
    formatSummaryTable(summary),
    [
      "status   file       time    passed",
      "-------  ---------  ------  ------",
      "PASSED   a.yaml     3.0 s   1/1",
      "FAILED   b.feature  900 ms  0/1",
      "SKIPPED  c.yaml     -       -",
      "",
      "Failures:",
      "  b.feature",
      "    Step failed at line 4\n    with a second line",
      "",
      "1 passed, 1 failed, 1 skipped in 1 min 5 s",
      "report: /r/merged.html",
    ].join("\n"),
  );
});
