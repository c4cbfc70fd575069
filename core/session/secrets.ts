/**
 * Secrets an agent typed (docs/security.md, "Secrets typed on screen"): a value typed into a
 * password field, one marked `secret: true`, one read from a `${VAR}` whose name looks secret.
 * Each is typed as given and written as `***` wherever the agent writes what it did: the report,
 * the run log, the plan cache and the history sent to the model.
 *
 * @module
 */

import { runLog } from "../log/run_log.ts";

/** What a secret shows as. */
const SECRET_MASK = "***";

/**
 * Secrets shorter than this are masked only where they stand alone (a typed value, a parameter):
 * cut out of longer text, a short one would take every word that holds it with it.
 */
const MIN_SECRET_IN_TEXT = 4;

/** The secrets of one agent, and how text and records are masked with them. */
export class TypedSecrets {
  readonly #values = new Set<string>();

  /** How many secrets are known. */
  get size(): number {
    return this.#values.size;
  }

  /** Adds a secret; the run log cuts it from every line it writes from now on. */
  add(value: string): void {
    if (value === "" || this.#values.has(value)) return;
    this.#values.add(value);
    runLog().addSecret(value, MIN_SECRET_IN_TEXT);
  }

  /** The secrets known, in the order they were typed. */
  values(): string[] {
    return [...this.#values];
  }

  /** Whether `value` is a known secret. */
  has(value: unknown): boolean {
    return typeof value === "string" && this.#values.has(value);
  }

  /** `text` with each known secret written as `***`. */
  mask(text: string): string {
    if (this.#values.size === 0) return text;
    if (this.#values.has(text)) return SECRET_MASK;
    let out = text;
    for (const secret of this.#values) {
      if (secret.length >= MIN_SECRET_IN_TEXT) out = out.split(secret).join(SECRET_MASK);
    }
    return out;
  }

  /**
   * Masks every string of a record in place (arrays and plain objects, any depth); returns it.
   * The report's records are the agent's own, so they are masked where they are.
   */
  maskInPlace<T>(record: T): T {
    if (this.#values.size === 0) return record;
    const visit = (value: unknown, seen: Set<unknown>): unknown => {
      if (typeof value === "string") return this.mask(value);
      if (typeof value !== "object" || value === null || seen.has(value)) return value;
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) value[i] = visit(value[i], seen);
      } else {
        const object = value as Record<string, unknown>;
        for (const key of Object.keys(object)) object[key] = visit(object[key], seen);
      }
      return value;
    };
    return visit(record, new Set()) as T;
  }
}

/**
 * Whether an environment variable's name looks like it holds a secret (`*PASSWORD*`, `*PASSWD*`,
 * `*TOKEN*`, `*SECRET*`, `*KEY*`): a script's value read from it is typed as a secret.
 */
export function isSecretVariableName(name: string): boolean {
  return /PASSWORD|PASSWD|TOKEN|SECRET|KEY/i.test(name);
}
