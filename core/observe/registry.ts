/**
 * The agent's observers (spec 3.3): the one recording, and the observations whose frames still
 * exist, so `agent.destroy()` can end them all.
 *
 * @module
 */

import { errorMessage } from "../session/execution.ts";

// Typed by what the registry calls, so that `observer.ts` and `observation.ts` can both hold it
// without importing each other.
/** A recording observer as the registry sees it: `UIObserver`. */
interface RecordingObserver {
  stop(): Promise<unknown>;
}

/** An observation as the registry sees it: `UIObservation`. */
interface KeptObservation {
  dispose(): Promise<void>;
}

/** The agent's observers: at most one recording, and every observation not yet disposed. */
export class ObserverRegistry {
  /** The observer recording now, if any. */
  active: RecordingObserver | undefined;
  /** Observations whose images still exist. */
  readonly observations: Set<KeptObservation> = new Set();

  /**
   * For `agent.destroy()` (spec 3.1, 3.3): stops the recording observer, then disposes every
   * observation's images. Failures are warned about, never thrown.
   */
  async destroy(): Promise<void> {
    const active = this.active;
    if (active) {
      try {
        await active.stop();
      } catch (e) {
        console.warn(`Could not stop the observer: ${errorMessage(e)}`);
      }
    }
    for (const observation of [...this.observations]) {
      try {
        await observation.dispose();
      } catch (e) {
        console.warn(`Could not remove observed frames: ${errorMessage(e)}`);
      }
    }
  }
}
