/// <reference lib="dom" />
/**
 * The four traps of a plan of several actions (issue 34) on `tests/fixtures/app/todos.html`, and
 * the scripted model that walks into them: it answers every action still to do whose target it
 * can see, in one answer (as the planning prompt invites), with boxes measured in the browser, and
 * answers each later call from the page as it is then. Used by `tests/e2e/plan_traps_test.ts` and
 * `bench/plan.ts`.
 *
 * - `row added`: the Enter that adds a todo pushes the filter links down, and the new row takes
 *   the place of "Active";
 * - `cleared`: "Clear completed" removes a row, and the one below takes the place of the todo to
 *   tick;
 * - `filtered`: the "Active" filter hides a row, with the same effect;
 * - `popover`: typing a todo opens its suggestions over the "Note" field.
 *
 * What happened on the page is the app's own record (`appState.events`): each pointer press with
 * the element it hit. {@link wrongTargets} pairs those with the actions the agent performed.
 *
 * @module
 */

import type { PlanCall, PlanReply, TargetBox } from "../../core/testing/mod.ts";

/** Runs a self-contained function in the page (a Playwright page or an `E2ePage`). */
export interface PageReader {
  /** Runs `fn(arg)` in the page. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

/** A todo as the app holds it. */
export interface Todo {
  /** Its text. */
  text: string;
  /** Whether it is completed. */
  done: boolean;
  /** Its note ("" when none). */
  note: string;
}

/** One event the app recorded: a pointer press on an element, or text typed into one. */
export type AppEvent = { hit: string } | { typed: string; text: string };

/** The page as the scripted model sees it: the app's state and every keyed element's box. */
export interface TodosView {
  /** The todos, shown or not. */
  items: Todo[];
  /** The filter shown. */
  filter: "all" | "active" | "completed";
  /** The "New todo" field's value. */
  title: string;
  /** The "Note" field's value. */
  note: string;
  /** The suggestions shown under "New todo" ([] when the list is closed). */
  suggestions: string[];
  /** What the app recorded so far. */
  events: AppEvent[];
  /**
   * Each element with a `data-key`: its box in CSS pixels, and whether it is seen (rendered,
   * inside the viewport, and the element at its center is it or inside it).
   */
  targets: Record<string, { box: TargetBox; seen: boolean }>;
}

/** Reads a {@link TodosView} in the page; self-contained. */
export function readTodosView(): TodosView {
  const app = (globalThis as unknown as { appState: Omit<TodosView, "targets"> }).appState;
  const targets: TodosView["targets"] = {};
  for (const el of document.querySelectorAll<HTMLElement>("[data-key]")) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const inside = r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x < innerWidth &&
      y < innerHeight;
    const top = inside ? document.elementFromPoint(x, y) : null;
    targets[el.dataset.key!] = {
      box: { left: r.left, top: r.top, width: r.width, height: r.height },
      seen: !!top && el.contains(top),
    };
  }
  return { ...app, targets };
}

/** One action still to do, on the element keyed `key` (none for a key press). */
export interface TrapStep {
  /** The device action. */
  type: "Tap" | "Input" | "KeyboardPress";
  /** The `data-key` of its target. */
  key?: string;
  /** Input's text, or KeyboardPress's key. */
  value?: string;
  /** What it does: the action's `log` in the answer and in the agent's history. */
  log: string;
}

/** One trap: a task whose batched first plan holds an action the page moves from under it. */
export interface Trap {
  /** Short name. */
  name: string;
  /** The fixture page with its initial todos. */
  path: string;
  /** The `aiAct` instruction. */
  instruction: string;
  /** What is still to do on the page as it is, in order. */
  steps(view: TodosView): TrapStep[];
  /** Whether the page ended as asked. */
  ended(view: TodosView): boolean;
  /** The first plan's action whose target changed under it, by its log. */
  dropped: string;
  /** What is at that action's planned point once the actions before it ran. */
  intruder: string;
}

const tap = (key: string, log: string): TrapStep => ({ type: "Tap", key, log });
const input = (key: string, value: string, log: string): TrapStep => ({
  type: "Input",
  key,
  value,
  log,
});
const enter = (log: string): TrapStep => ({ type: "KeyboardPress", value: "Enter", log });

/** Adds `text` (its Input unless it is typed already, then Enter) when it is not a todo yet. */
function add(view: TodosView, text: string, typedFirst: boolean): TrapStep[] {
  if (view.items.some((i) => i.text === text)) return [];
  const typed = typedFirst && view.title === text;
  return [...typed ? [] : [input("field:title", text, `type ${text}`)], enter(`add ${text}`)];
}

const tick = (view: TodosView, text: string): TrapStep[] =>
  view.items.find((i) => i.text === text)?.done ? [] : [tap(`toggle:${text}`, `complete ${text}`)];

const showActive = (view: TodosView): TrapStep[] =>
  view.filter === "active" ? [] : [tap("filter:Active", "show the Active ones")];

/** Whether the todos are exactly `expected` (text and done; `+` marks a completed one). */
function todosAre(view: TodosView, expected: string[]): boolean {
  const now = view.items.map((i) => `${i.done ? "+" : ""}${i.text}`);
  return JSON.stringify(now) === JSON.stringify(expected);
}

const START = "Walk the dog|*Buy milk|Write the report|Call mum";
const NEW = ["Book flights", "Pack bags", "Water plants"];

/** The four traps. */
export const TRAPS: readonly Trap[] = [
  {
    name: "row added",
    path: `todos.html?items=${START}`,
    instruction: `add three todos (${NEW.join(", ")}), complete "Walk the dog", ` +
      `then show the Active ones`,
    steps: (view) => {
      const missing = NEW.filter((t) => !view.items.some((i) => i.text === t));
      return [
        ...missing.flatMap((t, i) => add(view, t, i === 0)),
        ...tick(view, "Walk the dog"),
        ...showActive(view),
      ];
    },
    ended: (view) =>
      view.filter === "active" &&
      todosAre(view, ["+Walk the dog", "+Buy milk", "Write the report", "Call mum", ...NEW]),
    dropped: "show the Active ones",
    intruder: "row:Water plants",
  },
  {
    name: "cleared",
    path: `todos.html?items=${START}`,
    instruction: `clear the completed todos, complete "Write the report", then add "Pack bags"`,
    steps: (view) => [
      // Completed before the task completes "Write the report", which stays.
      ...view.items.some((i) => i.done && i.text !== "Write the report")
        ? [tap("button:clear-completed", "clear the completed ones")]
        : [],
      ...tick(view, "Write the report"),
      ...add(view, "Pack bags", true),
    ],
    ended: (view) =>
      view.filter === "all" &&
      todosAre(view, ["Walk the dog", "+Write the report", "Call mum", "Pack bags"]),
    dropped: "complete Write the report",
    intruder: "toggle:Call mum",
  },
  {
    name: "filtered",
    path: `todos.html?items=${START}`,
    instruction: `show the Active todos, complete "Write the report", then add "Pack bags"`,
    steps: (view) => [
      ...showActive(view),
      ...tick(view, "Write the report"),
      ...add(view, "Pack bags", true),
    ],
    ended: (view) =>
      view.filter === "active" &&
      todosAre(view, ["Walk the dog", "+Buy milk", "+Write the report", "Call mum", "Pack bags"]),
    dropped: "complete Write the report",
    intruder: "toggle:Call mum",
  },
  {
    name: "popover",
    path: `todos.html?items=${START}`,
    instruction: `add "Pay rent" with the note "before Friday", then complete "Walk the dog"`,
    steps: (view) => [
      ...view.items.some((i) => i.text === "Pay rent") ? [] : [
        ...view.title === "Pay rent" ? [] : [input("field:title", "Pay rent", "type Pay rent")],
        // The suggestions cover the note: pick the one typed, which closes them.
        ...view.suggestions.includes("Pay rent")
          ? [tap("option:Pay rent", "pick the suggestion Pay rent")]
          : [],
        ...view.note === "before Friday"
          ? []
          : [input("field:note", "before Friday", "type the note before Friday")],
        tap("button:add", "add Pay rent"),
      ],
      ...tick(view, "Walk the dog"),
    ],
    ended: (view) =>
      todosAre(view, ["+Walk the dog", "+Buy milk", "Write the report", "Call mum", "Pay rent"]) &&
      view.items.at(-1)!.note === "before Friday",
    dropped: "type the note before Friday",
    intruder: "option:Pay rent online",
  },
];

/** How the scripted model names the element keyed `key` in a locate prompt. */
export function promptOf(key: string): string {
  const [kind, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  switch (kind) {
    case "field":
      return name === "title" ? 'the "New todo" field' : 'the "Note" field';
    case "toggle":
      return `the checkbox of "${name}"`;
    case "filter":
      return `the "${name}" filter link`;
    case "option":
      return `the suggestion "${name}"`;
    default:
      return `the "${name}" button`;
  }
}

/** A scripted model for one run of `trap` on `page`, and what it planned. */
export interface TrapModel {
  /** Answers a planning call from the page as it is now. */
  plan(call: PlanCall): Promise<PlanReply>;
  /** The key of the element a locate prompt of this model names. */
  keyOf(prompt: string): string | undefined;
  /** Every answer given, in order, with the steps it carried. */
  readonly answers: { reply: PlanReply; steps: TrapStep[] }[];
}

/**
 * The scripted model of a trap: each call, the steps still to do, cut before the first whose
 * target is not seen (it cannot be planned on this screenshot), at most `call.maxActions` of them,
 * `finished` when they are all of them; one `action` when the call asks for one.
 */
export function trapModel(page: PageReader, trap: Trap): TrapModel {
  const keys = new Map<string, string>();
  const answers: TrapModel["answers"] = [];
  return {
    answers,
    keyOf: (prompt) => keys.get(prompt),
    async plan(call) {
      const view = await page.evaluate(readTodosView, undefined);
      const all = trap.steps(view);
      const seen = all.findIndex((s) => s.key !== undefined && !view.targets[s.key]?.seen);
      const steps = (seen < 0 ? all : all.slice(0, seen)).slice(0, call.maxActions);
      if (all.length > 0 && steps.length === 0) {
        const at = await page.evaluate((key: string) => {
          const el = document.querySelector(`[data-key="${key}"]`);
          const r = el?.getBoundingClientRect();
          const top = r && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return top ? top.outerHTML.slice(0, 200) : "nothing";
        }, all[0].key!);
        return {
          log: "stuck",
          error: `cannot see the target of "${all[0].log}": ${at} is on top of it`,
        };
      }
      const actions = steps.map((s) => {
        const param: Record<string, unknown> = {};
        if (s.key) {
          const prompt = promptOf(s.key);
          keys.set(prompt, s.key);
          param.locate = { prompt, box: view.targets[s.key].box };
        }
        if (s.type === "Input") param.value = s.value;
        if (s.type === "KeyboardPress") param.keyName = s.value;
        return { type: s.type, param, log: s.log };
      });
      const log = steps.map((s) => s.log).join("; ") || "done";
      const finished = steps.length === all.length;
      const reply: PlanReply = call.maxActions === 1
        ? { log, action: actions[0] ?? null, finished }
        : { log, actions, finished };
      answers.push({ reply, steps });
      return reply;
    },
  };
}

/** The keys the app's pointer presses hit, in order. */
export function hits(events: readonly AppEvent[]): string[] {
  return events.flatMap((e) => "hit" in e ? [e.hit] : []);
}

/** An action performed on another element than the one it was planned on. */
export interface WrongTarget {
  /** The element planned (its key). */
  planned: string;
  /** The element the app saw hit, or `"(none)"`. */
  hit: string;
}

/**
 * The performed actions whose press hit another element than planned: the agent's performed
 * actions with a target (`planned`, their keys in order; each presses once: Tap clicks, Input
 * clicks its field before typing) paired in order with the app's pointer presses. A press
 * missing or left over counts too.
 */
export function wrongTargets(
  planned: readonly string[],
  pressed: readonly string[],
): WrongTarget[] {
  const wrong: WrongTarget[] = [];
  for (let i = 0; i < Math.max(planned.length, pressed.length); i++) {
    if (planned[i] !== pressed[i]) {
      wrong.push({ planned: planned[i] ?? "(none)", hit: pressed[i] ?? "(none)" });
    }
  }
  return wrong;
}

/** A report step, as far as {@link performedKeys} reads it. */
interface StepLike {
  kind: string;
  param?: unknown;
}

/** The keys of the targets of the performed actions of a run's report steps, in order. */
export function performedKeys(model: TrapModel, steps: readonly StepLike[]): string[] {
  return steps.flatMap((s) => {
    if (s.kind !== "Action") return [];
    const locate = (s.param as { locate?: { description?: string } } | undefined)?.locate;
    if (!locate?.description) return [];
    return [model.keyOf(locate.description) ?? `(unknown: ${locate.description})`];
  });
}
