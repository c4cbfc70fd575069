/**
 * What an agent did, for `agent.exportScript()` (docs/yaml-and-cli.md, "Exported scripts"): every
 * call with the device actions it performed, each located element with its prompt and a locator
 * that finds it again without a model (the locate cache record's fields: xpaths, target, ...),
 * read just before the action ran, while the element was still there. A script run marks which
 * of its items each call came from, so the export keeps the script's own text around them.
 *
 * @module
 */

import type { AbstractInterface, DeviceAction, LocatedElement, Point } from "../device/types.ts";
import type { ActionContext } from "../device/types.ts";
import type { CallCache } from "./cache_store.ts";
import type { ElementLocator } from "./cache_file.ts";
import { errorMessage } from "./execution.ts";

/** A located element of a performed action. */
export interface JournalTarget {
  /** The prompt it was located by (the element's description). */
  prompt: string;
  /** Where it was, logical pixels. */
  at: Point;
  /** How to find it again without a model; unset when the device gives none. */
  locator?: ElementLocator;
  /** Why there is no locator. */
  noLocator?: string;
}

/** A device action that ran. */
export interface JournalAction {
  /** The action's name in the device's action space (`Tap`, `Input`, `MobileABackButton`). */
  action: string;
  /** Its parameters other than located elements. */
  param: Record<string, unknown>;
  /** Its located elements, by parameter name. */
  targets: Record<string, JournalTarget>;
  /** The call's `fileChooserAccept` (absolute paths), for a `Tap`. */
  fileChooserAccept?: readonly string[];
  /** The call's text-entry overrides, for an `Input`. */
  inputOptions?: ActionContext["inputOptions"];
}

/** A script run (`runYaml`, `sdk run`) whose items the journal's calls came from. */
export interface JournalScript {
  /** The script's text. */
  source: string;
  /** Its file name, as the run named it. */
  fileName: string;
  /** The environment variables its `${NAME}` read, with their values. */
  variables: ReadonlyMap<string, string>;
}

/** Which item of a script run a call came from. */
export interface ScriptMark {
  /** The run. */
  script: JournalScript;
  /** Index of the task. */
  task: number;
  /** Index of the item in the task's flow. */
  item: number;
}

/** One call of the agent. */
export class JournalCall {
  /** The API (`aiAct`, `aiTap`, `launch`, ...). */
  readonly api: string;
  /** The call's prompt text: the instruction, the locate prompt or the title. */
  readonly prompt: string;
  /** The script item it came from, when a script ran it. */
  readonly mark: ScriptMark | undefined;
  /** How it ended. */
  status: "running" | "passed" | "failed" = "running";
  /** The actions that ran, in order. */
  readonly actions: JournalAction[] = [];

  constructor(api: string, prompt: string, mark: ScriptMark | undefined) {
    this.api = api;
    this.prompt = prompt;
    this.mark = mark;
  }

  /**
   * Reads how to find each located element of an action about to run (never throws: an element
   * the device cannot describe is kept with its prompt alone). Pass the result to
   * {@link performed} once the action ran.
   */
  async capture(
    device: AbstractInterface,
    cache: CallCache | undefined,
    action: DeviceAction,
    param: Record<string, unknown>,
    context: Omit<ActionContext, "signal">,
  ): Promise<JournalAction> {
    const located = new Set(action.params.filter((p) => p.type === "locate").map((p) => p.name));
    const noted: JournalAction = { action: action.name, param: {}, targets: {} };
    for (const [name, value] of Object.entries(param)) {
      if (!located.has(name)) noted.param[name] = value;
      else if (value) noted.targets[name] = await targetOf(device, cache, value as LocatedElement);
    }
    if (action.name === "Tap" && context.fileChooserAccept?.length) {
      noted.fileChooserAccept = context.fileChooserAccept;
    }
    if (action.name === "Input" && context.inputOptions) {
      const { keyboardTypeDelay, inputStrategy } = context.inputOptions;
      if (keyboardTypeDelay !== undefined || inputStrategy !== undefined) {
        noted.inputOptions = context.inputOptions;
      }
    }
    return noted;
  }

  /** Records an action that ran. */
  performed(action: JournalAction): void {
    this.actions.push(action);
  }
}

/** The most entries a journal keeps: a long-lived agent (a server's) drops its oldest. */
const MAX_JOURNAL_ENTRIES = 10_000;

/** Every call of one agent, and the start of every script run, in order. */
export class ActionJournal {
  /** The calls, and the script runs where they start (a run may make no call). */
  readonly entries: (JournalCall | JournalScript)[] = [];
  /** How many of the oldest entries were dropped (see {@link MAX_JOURNAL_ENTRIES}). */
  dropped = 0;
  #mark: ScriptMark | undefined;

  /** Starts recording a call. */
  begin(api: string, prompt: string): JournalCall {
    const call = new JournalCall(api, prompt, this.#mark && { ...this.#mark });
    this.#add(call);
    return call;
  }

  /** A script run starts: see {@link scriptItem}. */
  startScript(script: JournalScript): void {
    this.#add(script);
  }

  #add(entry: JournalCall | JournalScript): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_JOURNAL_ENTRIES) {
      this.entries.shift();
      this.dropped++;
    }
  }

  /** The calls from now on come from item `item` of task `task` of `script`, until {@link endScript}. */
  scriptItem(script: JournalScript, task: number, item: number): void {
    this.#mark = { script, task, item };
  }

  /** The calls from now on come from no script. */
  endScript(): void {
    this.#mark = undefined;
  }
}

const journals = new WeakMap<object, ActionJournal>();

/** Makes `journal` the journal of `agent` (its constructor does). */
export function attachJournal(agent: object, journal: ActionJournal): void {
  journals.set(agent, journal);
}

/** The journal of `agent`; `undefined` for an object that is no agent (a test's fake). */
export function journalOf(agent: object): ActionJournal | undefined {
  return journals.get(agent);
}

/**
 * How to find `element` again. The call's cache record of its prompt when it is this element's
 * (the cache wrote it for this locate: writing, with a target whose box holds the element's
 * point); else read from the device as the locate cache reads it (`xpathsAt` at the element's
 * point, the identity at the center of what the first xpath selects); else, on a device without
 * xpaths, the cache record as it is (a platform's own locator, such as a fingerprint).
 */
async function targetOf(
  device: AbstractInterface,
  cache: CallCache | undefined,
  element: LocatedElement,
): Promise<JournalTarget> {
  const found: JournalTarget = { prompt: element.description ?? "", at: element.center };
  const record = found.prompt ? cache?.store.findLocate(found.prompt) : undefined;
  const { type: _type, prompt: _prompt, ...cached } = record ?? { type: "", prompt: "" };
  const box = record?.target?.box;
  const [x, y] = element.center;
  if (
    record && cache?.write && box &&
    x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height
  ) {
    return { ...found, locator: cached as ElementLocator };
  }
  if (device.xpathsAt && device.locateByXpath) {
    try {
      const xpaths = await device.xpathsAt(element.center);
      if (xpaths.length === 0) return { ...found, noLocator: "no xpath selects it" };
      const selected = await device.locateByXpath(xpaths[0]);
      const [target] = selected && device.targetsAt
        ? await device.targetsAt([selected.center])
        : [];
      return { ...found, locator: { xpaths, ...(target && { target }) } };
    } catch (e) {
      return { ...found, noLocator: `its xpath could not be read: ${errorMessage(e)}` };
    }
  }
  if (record) return { ...found, locator: cached as ElementLocator };
  return { ...found, noLocator: `this ${device.interfaceType} device gives no locator` };
}
