/**
 * What a playground drives, apart from the playground itself so that a target (the web page one
 * here, another platform's) depends on this seam and not on the server.
 *
 * @module
 */

import type { Agent, AgentOptions } from "@sdk/core";

/**
 * What a playground drives: it makes the agent, and the screen comes from the agent's device
 * (its `startFrameStream` capability, else screenshots). Any platform's agent plugs in here.
 */
export interface PlaygroundTarget {
  /**
   * Creates the agent the playground's calls go to; called once, at start.
   *
   * @param options the playground's agent options (`autoPrintReportMsg: false` unless set).
   */
  createAgent(options: AgentOptions): Agent | Promise<Agent>;
  /** Releases what the target opened (a browser it launched), after the agent is destroyed. */
  close?(): Promise<void>;
}
