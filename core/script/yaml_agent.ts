/**
 * The agent methods a YAML script calls: the seam between the script engine and an agent. Every
 * `Agent` fits it (the agent passes `this`); a test can pass a fake that records calls.
 *
 * @module
 */

import type {
  AiActOptions,
  AiInputOptions,
  AiKeyboardPressOptions,
  AiLocateOptions,
  AiLongPressOptions,
  AiPinchOptions,
  AiScrollOptions,
  AiTapOptions,
  AiWaitForOptions,
  ExtractOptions,
  LocateOptions,
  LocateResultValue,
  RecordToReportOptions,
  TUserPrompt,
} from "../session/options.ts";

/** HTTP methods of a driver request (spec 4.9 `runDriverRequest`). */
export type DriverRequestMethod = "GET" | "POST" | "DELETE" | "PUT";

/**
 * What `runYamlScript` needs of an agent: the shared methods of spec 4.2-4.5 in their
 * locate-first forms, plus platform methods that only some agents have (optional here; a script
 * item that needs one the agent lacks is an error before anything runs).
 */
export interface YamlAgent {
  /** `ai`, `aiAct`, `aiAction` items. */
  aiAct(prompt: TUserPrompt, options?: AiActOptions): Promise<string | undefined>;
  /** `aiTap` items. */
  aiTap(locate: TUserPrompt, options?: AiTapOptions): Promise<void>;
  /** `aiHover` items. */
  aiHover(locate: TUserPrompt, options?: LocateOptions): Promise<void>;
  /** `aiDoubleClick` items. */
  aiDoubleClick(locate: TUserPrompt, options?: LocateOptions): Promise<void>;
  /** `aiRightClick` items. */
  aiRightClick(locate: TUserPrompt, options?: LocateOptions): Promise<void>;
  /** `aiClearInput` items. */
  aiClearInput(locate: TUserPrompt, options?: LocateOptions): Promise<void>;
  /** `aiInput` items. */
  aiInput(locate: TUserPrompt, options: AiInputOptions): Promise<void>;
  /** `aiKeyboardPress` items. */
  aiKeyboardPress(locate: TUserPrompt | undefined, options: AiKeyboardPressOptions): Promise<void>;
  /** `aiScroll` items. */
  aiScroll(locate: TUserPrompt | undefined, options?: AiScrollOptions): Promise<void>;
  /** `aiLongPress` items. */
  aiLongPress(locate: TUserPrompt, options?: AiLongPressOptions): Promise<void>;
  /** `aiPinch` items. */
  aiPinch(locate: TUserPrompt | undefined, options: AiPinchOptions): Promise<void>;
  /** `aiLocate` items. */
  aiLocate(locate: TUserPrompt, options?: AiLocateOptions): Promise<LocateResultValue>;
  /** `aiQuery` items. */
  aiQuery(dataDemand: TUserPrompt, options?: ExtractOptions): Promise<unknown>;
  /** `aiBoolean` items. */
  aiBoolean(prompt: TUserPrompt, options?: ExtractOptions): Promise<boolean>;
  /** `aiNumber` items. */
  aiNumber(prompt: TUserPrompt, options?: ExtractOptions): Promise<number>;
  /** `aiString` items. */
  aiString(prompt: TUserPrompt, options?: ExtractOptions): Promise<string>;
  /** `aiAsk` items. */
  aiAsk(prompt: TUserPrompt, options?: ExtractOptions): Promise<string>;
  /** `aiAssert` items. */
  aiAssert(assertion: TUserPrompt, errorMsg?: string, options?: ExtractOptions): Promise<void>;
  /** `aiWaitFor` items. */
  aiWaitFor(assertion: string, options?: AiWaitForOptions): Promise<void>;
  /** `recordToReport` items. */
  recordToReport(title?: string, options?: RecordToReportOptions): Promise<void>;
  /** `javascript` items; web agents only. */
  evaluateJavaScript?(script: string): Promise<unknown>;
  /** `launch` items; phone agents. */
  launch?(target: string): Promise<void>;
  /** `terminate` items; phone agents. */
  terminate?(uri: string): Promise<void>;
  /** `runBridgeShell` items; MobileA agents. */
  runBridgeShell?(command: string, options?: { timeout?: number }): Promise<string>;
  /** `runDriverRequest` items; MobileB agents (spec 4.9). */
  runDriverRequest?(params: {
    method: DriverRequestMethod;
    endpoint: string;
    data?: unknown;
  }): Promise<unknown>;
  /** `runToolShell` items; MobileC agents (spec 4.10). */
  runToolShell?(command: string): Promise<string>;
  /** `back` items; MobileA and MobileC agents. */
  back?(): Promise<void>;
  /** `home` items; phone agents. */
  home?(): Promise<void>;
  /** `recentApps` items; MobileA and MobileC agents. */
  recentApps?(): Promise<void>;
  /** `appSwitcher` items; MobileB agents. */
  appSwitcher?(): Promise<void>;
  /** `freezePageContext` items (spec 3.2). */
  freezePageContext?(): Promise<void>;
  /** `unfreezePageContext` items (spec 3.2). */
  unfreezePageContext?(): Promise<void>;
  /**
   * The agent's log (spec 4.5): a named `aiAssert` item stores the model's reason from its last
   * `Assert` step.
   */
  _unstableLogContent?(): {
    executions: readonly { steps: readonly { kind: string; thought?: string }[] }[];
  };
}
