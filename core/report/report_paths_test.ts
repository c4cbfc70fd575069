import assert from "node:assert/strict";
import { test } from "../../tests/helpers/test.ts";
import { isReportFileName } from "./_report_paths.ts";

test("isReportFileName() takes plain names with or without .html and refuses paths, blanks and dots", () => {
  for (const ok of ["run", "run.html", "my report", ".hidden", "a..b"]) {
    assert.equal(isReportFileName(ok), true, ok);
  }
  for (
    const bad of ["", "  ", "a/b", "a\\b", "a\0b", ".", "..", "..html", "...html", 3, undefined]
  ) {
    assert.equal(isReportFileName(bad), false, String(bad));
  }
});
