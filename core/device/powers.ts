/**
 * Actions that reach past the screen (a device shell, a raw request to the device's driver),
 * which a script run as untrusted must not put in the model's hands: each is marked with
 * `beyondScreen`, the option that removes it (docs/security.md, "Running scripts you did not
 * write").
 *
 * @module
 */

import type { AbstractInterface } from "./types.ts";

/**
 * Why an untrusted script may not run on `agent`, or `undefined` when it may: the agent's action
 * space offers actions that reach past the screen, and the message names the options that remove
 * them.
 *
 * @param agent an agent (its `interface` is read); anything else passes.
 */
export function untrustedAgentRefusal(agent: unknown): string | undefined {
  const device = (agent as { interface?: Partial<AbstractInterface> } | null)?.interface;
  if (typeof device?.actionSpace !== "function") return undefined;
  const powers = device.actionSpace().filter((a) => a.beyondScreen);
  if (powers.length === 0) return undefined;
  return `an untrusted script runs only on an agent whose model cannot reach past the screen: ` +
    `this agent offers ${powers.map((a) => a.name).join(", ")}; create it with ${
      [...new Set(powers.map((a) => `${a.beyondScreen}: false`))].join(", ")
    }`;
}
