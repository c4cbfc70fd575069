import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { GherkinParseError } from "./errors.ts";
import { parseGherkin } from "./parse.ts";

const summary = (s: { steps: { line: number; keyword: string; text: string }[] }) =>
  s.steps.map((st) => `${st.line}:${st.keyword}${st.text}`);

test("bare steps (no Feature:, no Scenario:) parse as one scenario with their own line numbers", async () => {
  const f = await parseGherkin("\n# a comment\nGiven a\nWhen b\n  And c\nThen d\n* e\n");
  assert.equal(f.scenarios.length, 1);
  const [s] = f.scenarios;
  assert.deepEqual(summary(s), ["3:Given a", "4:When b", "5:And c", "6:Then d", "7:* e"]);
  assert.deepEqual(s.steps.map((st) => st.keywordType), [
    "Context",
    "Action",
    "Conjunction",
    "Outcome",
    "Unknown",
  ]);
  assert.equal(s.line, 3);
  assert.equal(s.name, "");
});

test("a Scenario: without Feature: parses, with its name, tags and lines", async () => {
  const f = await parseGherkin("@smoke\nScenario: add a todo\n  When I add 'x'\n  Then I see 'x'");
  const [s] = f.scenarios;
  assert.equal(s.name, "add a todo");
  assert.equal(s.line, 2);
  assert.deepEqual(s.tags, ["@smoke"]);
  assert.deepEqual(summary(s), ["3:When I add 'x'", "4:Then I see 'x'"]);
});

test("a full feature: Background steps come first in every scenario", async () => {
  const f = await parseGherkin(
    [
      "Feature: todos", // 1
      "  Background:", // 2
      "    Given I sign in", // 3
      "  Scenario: one", // 4
      "    When I add 'x'", // 5
      "  Scenario: two", // 6
      "    Then the list is empty", // 7
    ].join("\n"),
  );
  assert.equal(f.name, "todos");
  assert.deepEqual(f.scenarios.map((s) => [s.name, s.line]), [["one", 4], ["two", 6]]);
  assert.deepEqual(summary(f.scenarios[0]), ["3:Given I sign in", "5:When I add 'x'"]);
  assert.deepEqual(summary(f.scenarios[1]), ["3:Given I sign in", "7:Then the list is empty"]);
});

test("a Scenario Outline gives one scenario per Examples row, values substituted", async () => {
  const f = await parseGherkin(
    [
      "Feature: outline", // 1
      "  Scenario Outline: add <item>", // 2
      "    When I add '<item>' with note <note>", // 3
      "    Then the list shows '<item>'", // 4
      "      | <item> |", // 5
      "  @first", // 6
      "  Examples:", // 7
      "    | item | note |", // 8
      "    | milk | cold |", // 9
      "    | eggs | $1   |", // 10
    ].join("\n"),
  );
  assert.deepEqual(
    f.scenarios.map((s) => [s.name, s.line, s.scenarioLine, s.examplesRowLine, s.tags]),
    [["add milk", 9, 2, 9, ["@first"]], ["add eggs", 10, 2, 10, ["@first"]]],
  );
  assert.deepEqual(summary(f.scenarios[1]), [
    "3:When I add 'eggs' with note $1",
    "4:Then the list shows 'eggs'",
  ]);
  assert.deepEqual(f.scenarios[0].steps[1].dataTable, [["milk"]]);
});

test("# language: fr selects French keywords, with their kinds", async () => {
  const f = await parseGherkin(
    "# language: fr\nSoit je suis connecté\nQuand j'ajoute 'x'\nAlors je vois 'x'\nEt rien d'autre\nMais pas 'y'",
  );
  assert.equal(f.language, "fr");
  const [s] = f.scenarios;
  assert.deepEqual(s.steps.map((st) => [st.line, st.keyword, st.keywordType]), [
    [2, "Soit ", "Context"],
    [3, "Quand ", "Action"],
    [4, "Alors ", "Outcome"],
    [5, "Et ", "Conjunction"],
    [6, "Mais ", "Conjunction"],
  ]);
  assert.ok(f.stepKeywords.includes("Soit") && f.stepKeywords.at(-1) === "*");
});

test("a French Fonctionnalité with Scénario is not wrapped again", async () => {
  const f = await parseGherkin(
    "# language: fr\nFonctionnalité: f\n  Scénario: s\n    Soit a\n    Alors b",
  );
  assert.equal(f.name, "f");
  assert.deepEqual(f.scenarios.map((s) => [s.name, s.line]), [["s", 3]]);
});

test("DocStrings and data tables are kept on their step", async () => {
  const f = await parseGherkin(
    'When I type:\n  """markdown\n  Hello\n    world\n  """\nThen the table is\n  | a | b |\n  | 1 | 2 |',
  );
  const [s] = f.scenarios;
  assert.deepEqual(s.steps[0].docString, { content: "Hello\n  world", mediaType: "markdown" });
  assert.deepEqual(s.steps[1].dataTable, [["a", "b"], ["1", "2"]]);
  assert.equal(s.steps[1].line, 6);
});

test("a step-like line inside a DocString does not count as a header", async () => {
  const f = await parseGherkin('Given a note:\n  """\n  Feature: not a header\n  """\nThen b');
  assert.equal(f.scenarios.length, 1);
  assert.equal(f.scenarios[0].steps[0].docString?.content, "Feature: not a header");
});

test("a syntax error names the line and column of the text as given, also in bare steps", async () => {
  // Line 3 (after the wrapped headers are taken away again) has a table row of the wrong size.
  const e = await parseGherkin("Given a\n  | x | y |\n  | z |\nThen b").catch((e) => e);
  assert.ok(e instanceof GherkinParseError);
  assert.equal(e.line, 3);
  assert.equal(e.column, 3);
  assert.match(e.message, /^Gherkin syntax error at line 3, column 3: inconsistent cell count/);
  assert.deepEqual(e.errors.length, 1);
});

test("a syntax error in a feature names its file when one is given", async () => {
  const e = await parseGherkin("Feature: f\n  Scenario: s\n    Given a\n  Scenario s2\n", {
    fileName: "todo.feature",
  }).catch((e) => e);
  assert.ok(e instanceof GherkinParseError);
  assert.equal(e.line, 4);
  assert.equal(e.fileName, "todo.feature");
  assert.match(
    e.message,
    /^Gherkin syntax error in todo\.feature at line 4, column 3: .*got 'Scenario s2'/,
  );
});

test("several syntax errors are all listed with their lines", async () => {
  const e = await parseGherkin(
    "Feature: f\n  Scenario: a\n    Given x\n      | a |\n      | b | c |\n  Scenario: b\n    Given y\n      | a |\n      | b | c |",
  ).catch((e) => e);
  assert.ok(e instanceof GherkinParseError);
  assert.deepEqual(e.errors.map((i) => i.line), [5, 9]);
  assert.match(e.message, /^Gherkin syntax errors:\n {2}at line 5, column 7: .*\n {2}at line 9/);
});

test("an unknown # language: is a syntax error at its line", async () => {
  const e = await parseGherkin("\n# language: xx\nGiven a").catch((e) => e);
  assert.ok(e instanceof GherkinParseError);
  assert.deepEqual([e.line, e.column], [2, 13]);
  assert.match(e.message, /Language not supported: xx/);
});

test("lines without a step keyword are a description: the scenario has no steps and points at them", async () => {
  const bare = (await parseGherkin("\nI click the button\nI see it")).scenarios;
  assert.equal(bare.length, 1);
  assert.deepEqual([bare[0].steps.length, bare[0].descriptionLine], [0, 2]);
  const [s] = (await parseGherkin("Scenario: s\n\n  I click\n")).scenarios;
  assert.deepEqual([s.steps.length, s.descriptionLine, s.scenarioLine], [0, 3, 1]);
});

test("empty text has no scenario", async () => {
  assert.deepEqual((await parseGherkin("")).scenarios, []);
  assert.deepEqual((await parseGherkin("# only a comment\n")).scenarios, []);
  await assert.rejects(parseGherkin(42 as unknown as string), TypeError);
});

test("only parse.ts loads @cucumber/gherkin, and lazily with import()", async () => {
  const dir = new URL("./", import.meta.url);
  for (const name of await readdir(dir)) {
    if (!name.endsWith(".ts") || name.endsWith("_test.ts")) continue;
    const source = await readFile(new URL(name, dir), "utf8");
    const staticImports = [...source.matchAll(/^import\s[^;]*?from\s+"(@cucumber\/[^"]+)"/gms)]
      .filter((m) => !/^import\s+type\s/.test(m[0]));
    assert.deepEqual(staticImports.map((m) => m[1]), [], `${name} imports @cucumber statically`);
    if (name !== "parse.ts") assert.doesNotMatch(source, /import\("@cucumber/, name);
  }
});

test("CRLF line endings keep their line numbers", async () => {
  const [s] = (await parseGherkin("Given a\r\nWhen b\r\n  | x |\r\nThen c\r\n")).scenarios;
  assert.deepEqual(summary(s), ["1:Given a", "2:When b", "4:Then c"]);
  assert.deepEqual(s.steps[1].dataTable, [["x"]]);
});

test("a Rule's Background follows the feature's Background", async () => {
  const [s] = (await parseGherkin(
    "Feature: f\n  Background:\n    Given bg\n  Rule: r\n    Background:\n      Given rbg\n    Scenario: s\n      Then x\n",
  )).scenarios;
  assert.deepEqual(summary(s), ["3:Given bg", "6:Given rbg", "8:Then x"]);
});
