/**
 * Parsing Gherkin text into runnable scenarios: the one place that imports `@cucumber/gherkin`,
 * loaded on first use so importing the SDK stays light.
 *
 * The library's own parser and pickle compiler do the work: a `Background` is prepended to each
 * scenario, a `Scenario Outline` gives one scenario per `Examples` row with its `<placeholders>`
 * replaced, `Rule`s are walked, and `# language: xx` selects the keywords of another language.
 * Text with no `Feature:` line (or no `Scenario:` line either: bare steps) is wrapped in the
 * missing headers first; line numbers always refer to the text as given.
 *
 * @module
 */

import { SdkTypeError } from "../errors.ts";
import type {
  Background,
  GherkinDocument,
  Pickle,
  Scenario,
  Step,
  StepKeywordType,
} from "@cucumber/messages";
import { GherkinParseError, type GherkinSyntaxIssue } from "./errors.ts";
import type { GherkinFeature, GherkinKeywordType, GherkinScenario, GherkinStep } from "./types.ts";

type GherkinModule = typeof import("@cucumber/gherkin");
let gherkinModule: Promise<GherkinModule> | undefined;
const loadGherkin = (): Promise<GherkinModule> => gherkinModule ??= import("@cucumber/gherkin");

const LANGUAGE_LINE = /^\s*#\s*language\s*:\s*([a-zA-Z\-_]+)\s*$/;

interface Dialect {
  feature: readonly string[];
  background: readonly string[];
  rule: readonly string[];
  scenario: readonly string[];
  scenarioOutline: readonly string[];
  examples: readonly string[];
  given: readonly string[];
  when: readonly string[];
  then: readonly string[];
  and: readonly string[];
  but: readonly string[];
}

/** Lines to insert so the text parses as one feature, and where (0-based line index). */
interface Wrap {
  at: number;
  lines: string[];
}

/** The `# language:` of the leading comment lines and its line (1-based), else `"en"`. */
function languageOf(lines: readonly string[]): { language: string; line?: number } {
  for (const [i, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    if (!trimmed.startsWith("#")) break;
    const m = LANGUAGE_LINE.exec(line);
    if (m) return { language: m[1], line: i + 1 };
  }
  return { language: "en" };
}

/** Which headers bare text lacks: none, `Feature:`, or `Feature:` and `Scenario:`. */
function wrapFor(lines: readonly string[], dialect: Dialect): Wrap | undefined {
  const isHeader = (trimmed: string, keywords: readonly string[]) =>
    keywords.some((k) => trimmed.startsWith(`${k}:`));
  const scenarioLevel = [
    ...dialect.scenario,
    ...dialect.scenarioOutline,
    ...dialect.background,
    ...dialect.rule,
    ...dialect.examples,
  ];
  let fence: string | undefined;
  let hasScenario = false;
  let first = -1;
  for (const [i, line] of lines.entries()) {
    const trimmed = line.trim();
    if (fence) {
      if (trimmed.startsWith(fence)) fence = undefined;
      continue;
    }
    if (trimmed.startsWith('"""') || trimmed.startsWith("```")) {
      fence = trimmed.slice(0, 3);
      continue;
    }
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (first < 0) first = i;
    if (isHeader(trimmed, dialect.feature)) return undefined;
    if (isHeader(trimmed, scenarioLevel)) hasScenario = true;
  }
  if (first < 0) return undefined;
  const lines2 = [`${dialect.feature[0]}:`];
  if (!hasScenario) lines2.push(`${dialect.scenario.at(-1) ?? dialect.scenario[0]}:`);
  return { at: first, lines: lines2 };
}

/** Maps a line of the wrapped text back to the text as given. */
function lineMapper(wrap: Wrap | undefined): (line: number) => number {
  if (!wrap) return (line) => line;
  const n = wrap.lines.length;
  return (line) => line <= wrap.at ? line : line <= wrap.at + n ? wrap.at + 1 : line - n;
}

/** The library's message without its `(line:column): ` prefix. */
function bareMessage(message: string): string {
  return message.replace(/^\(\d+:\d+\):\s*/, "");
}

function syntaxError(e: unknown, mapLine: (n: number) => number, fileName?: string): unknown {
  const list = (e as { errors?: unknown[] }).errors ?? [e];
  const issues: GherkinSyntaxIssue[] = [];
  for (const item of list) {
    const loc = (item as { location?: { line: number; column?: number } }).location;
    if (!loc) return e; // not a syntax error: rethrow as is
    issues.push({
      line: mapLine(loc.line),
      column: loc.column ?? 1,
      message: bareMessage((item as Error).message ?? String(item)),
    });
  }
  return issues.length ? new GherkinParseError(issues, fileName, { cause: e }) : e;
}

function keywordType(t: StepKeywordType | undefined): GherkinKeywordType {
  switch (t) {
    case "Context":
    case "Action":
    case "Outcome":
    case "Conjunction":
      return t;
    default:
      return "Unknown";
  }
}

/** Every AST node a pickle refers to, by id. */
function indexDocument(doc: GherkinDocument) {
  const steps = new Map<string, Step>();
  const scenarios = new Map<string, Scenario>();
  const rows = new Map<string, number>();
  const addSteps = (b: Background | Scenario) => b.steps.forEach((s) => steps.set(s.id, s));
  const addScenario = (s: Scenario) => {
    scenarios.set(s.id, s);
    addSteps(s);
    for (const ex of s.examples) {
      for (const row of ex.tableBody) rows.set(row.id, row.location.line);
    }
  };
  for (const child of doc.feature?.children ?? []) {
    if (child.background) addSteps(child.background);
    if (child.scenario) addScenario(child.scenario);
    for (const rc of child.rule?.children ?? []) {
      if (rc.background) addSteps(rc.background);
      if (rc.scenario) addScenario(rc.scenario);
    }
  }
  return { steps, scenarios, rows };
}

/** The line (1-based) of the first description line of a scenario, searched from `from` (0-based). */
function descriptionLine(
  lines: readonly string[],
  description: string,
  from: number,
): number | undefined {
  const first = description.split(/\r?\n/).find((l) => l.trim() !== "")?.trim();
  if (first === undefined) return undefined;
  for (let i = from; i < lines.length; i++) if (lines[i].trim() === first) return i + 1;
  return undefined;
}

/**
 * Parses a Gherkin text into runnable scenarios.
 *
 * @param text a `.feature` file's text, a single `Scenario:`, or bare steps (no headers).
 * @param options `fileName` names the text in syntax errors.
 * @throws {GherkinParseError} naming each syntax error's line and column (in the text as given),
 * e.g. an unknown `# language:` or a table row with the wrong number of cells.
 */
export async function parseGherkin(
  text: string,
  options: { fileName?: string } = {},
): Promise<GherkinFeature> {
  if (typeof text !== "string") {
    throw new SdkTypeError(`Gherkin text must be a string, got ${typeof text}`);
  }
  const g = await loadGherkin();
  const lines = text.split(/\r\n|\r|\n/);
  const { language, line: languageLine } = languageOf(lines);
  const dialect = Object.hasOwn(g.dialects, language)
    ? (g.dialects as Readonly<Record<string, Dialect>>)[language]
    : undefined;
  if (!dialect) {
    const column = (lines[(languageLine ?? 1) - 1].indexOf(language) + 1) || 1;
    const message = `Language not supported: ${language}`;
    throw new GherkinParseError([{ line: languageLine ?? 1, column, message }], options.fileName);
  }
  const wrap = wrapFor(lines, dialect);
  const source = wrap
    ? [...lines.slice(0, wrap.at), ...wrap.lines, ...lines.slice(wrap.at)].join("\n")
    : text;
  const mapLine = lineMapper(wrap);

  let next = 0;
  const newId = () => String(next++);
  let doc: GherkinDocument;
  try {
    const parser = new g.Parser(new g.AstBuilder(newId), new g.GherkinClassicTokenMatcher());
    doc = parser.parse(source);
  } catch (e) {
    throw syntaxError(e, mapLine, options.fileName);
  }
  const pickles: readonly Pickle[] = g.compile(doc, options.fileName ?? "", newId);
  const index = indexDocument(doc);

  const scenarios = pickles.map((pickle): GherkinScenario => {
    const scenario = index.scenarios.get(pickle.astNodeIds[0]);
    const rowLine = pickle.astNodeIds[1] === undefined
      ? undefined
      : index.rows.get(pickle.astNodeIds[1]);
    const steps = pickle.steps.map((ps): GherkinStep => {
      const ast = index.steps.get(ps.astNodeIds[0]);
      const step: GherkinStep = {
        line: mapLine(ast?.location.line ?? 0),
        keyword: ast?.keyword ?? "",
        keywordType: keywordType(ast?.keywordType),
        text: ps.text,
      };
      const doc = ps.argument?.docString;
      if (doc) {
        step.docString = doc.mediaType
          ? { content: doc.content, mediaType: doc.mediaType }
          : { content: doc.content };
      }
      const table = ps.argument?.dataTable;
      if (table) step.dataTable = table.rows.map((r) => r.cells.map((c) => c.value));
      return step;
    });
    const headerLine = mapLine(scenario?.location.line ?? pickle.location?.line ?? 0);
    const wrappedScenario = wrap !== undefined && wrap.lines.length === 2;
    const scenarioLine = wrappedScenario && steps.length ? steps[0].line : headerLine;
    const result: GherkinScenario = {
      name: pickle.name,
      line: rowLine === undefined ? scenarioLine : mapLine(rowLine),
      scenarioLine,
      tags: pickle.tags.map((t) => t.name),
      steps,
    };
    if (rowLine !== undefined) result.examplesRowLine = mapLine(rowLine);
    if (!steps.length && scenario) {
      // The description follows the header (for a wrapped header, it starts where it stood).
      const line = descriptionLine(
        lines,
        scenario.description,
        wrappedScenario ? wrap.at : headerLine,
      );
      if (line !== undefined) result.descriptionLine = line;
    }
    return result;
  });

  const all = [...dialect.given, ...dialect.when, ...dialect.then, ...dialect.and, ...dialect.but];
  const stepKeywords = [...new Set(all.map((k) => k.trim()))].filter((k) => k !== "*");
  stepKeywords.push("*");
  return {
    name: doc.feature?.name ?? "",
    language: doc.feature?.language ?? language,
    scenarios,
    stepKeywords,
  };
}
