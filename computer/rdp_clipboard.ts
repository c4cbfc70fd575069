/**
 * Text over RDP that no key types (accents on a US keymap, CJK, emoji) goes through the RDP
 * clipboard channel (cliprdr), and only when that channel is there and confirms each step:
 * FreeRDP 2's X11 client has no Unicode key events, and a paste before the server has the new
 * clipboard pastes the remote's old one.
 *
 * What the client does with its clipboard channel is read from its own log (`/log-level:DEBUG`,
 * component `com.freerdp.channels.cliprdr.client`): `MonitorReady` (the server has the
 * channel), `ClientFormatList` (the client announced the private display's new clipboard),
 * `ServerFormatListResponse` (the server took the announcement). That the session asked for
 * the text shows on the device's own X connection, which the client asks for it.
 *
 * @module
 */

import { SdkTypeError, sleep, ToolError } from "@sdk/core";
import type { X11Connection } from "./x11.ts";

/**
 * How long each confirmation of the clipboard channel may take, ms: a loaded machine (xrdp, its
 * X server and the client share the cores with the session's app) took over 5 s once.
 */
const CLIPBOARD_STEP_MS = 15_000;
/**
 * ms between the client sending the pasted text and the next key: the text and the keys take
 * different ways to the session's app (a virtual channel, the input channel), and an app
 * that waits for the clipboard handles the keys that come meanwhile first (Tk does).
 */
const PASTE_SETTLE_MS = 150;

/** What the client's log said of its clipboard channel so far, counted as lines arrive. */
export class ClipboardChannelLog {
  #partial = "";
  /** The server opened the channel (`MonitorReady`). */
  ready = false;
  /** Format lists the client sent. */
  formatLists = 0;
  /** The server's answers to them. */
  listResponses = 0;
  /** Clipboard data the client sent to the server. */
  dataResponses = 0;

  /** Reads a chunk of the client's output. */
  feed(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.includes("cliprdr")) continue;
      if (/ - MonitorReady\s*$/.test(line)) this.ready = true;
      else if (/ - ClientFormatList:/.test(line)) this.formatLists++;
      else if (/ - ServerFormatListResponse\s*$/.test(line)) this.listResponses++;
      else if (/ - ClientFormatDataResponse\s*$/.test(line)) this.dataResponses++;
    }
  }

  /** Resolves whether `check` held within `ms`. */
  async until(check: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) return false;
      await sleep(25);
    }
    return true;
  }
}

/**
 * Refuses, before anything is typed, characters that no key types when the server has no
 * clipboard channel to paste them through (waiting for the channel until `readyBy`).
 *
 * @throws {SdkTypeError} naming the characters and why.
 */
export async function checkPastable(
  log: ClipboardChannelLog,
  chars: readonly string[],
  target: string,
  readyBy: number,
): Promise<void> {
  if (chars.length === 0) return;
  if (await log.until(() => log.ready, Math.max(0, readyBy - Date.now()))) return;
  throw new SdkTypeError(
    `Cannot type ${chars.map((c) => JSON.stringify(c)).join(", ")} over RDP to ${target}: ` +
      "no key of the keymap types them, and the RDP server offers no clipboard channel " +
      "(cliprdr) to paste them through. Nothing was typed. Leave these characters out, or " +
      "enable clipboard redirection on the server",
  );
}

/**
 * Pastes `text` into the remote session: the device's own X connection takes the private
 * display's clipboard with it (offered as `UTF8_STRING` only, so the client announces Unicode
 * text); once the client asked for its formats, announced them and the server answered,
 * Control+V; then the session must ask for the text through the client, and the client
 * send it.
 *
 * @throws {ToolError} (`xfreerdp`) naming the step the clipboard channel did not confirm.
 */
export async function pasteOverRdp(
  log: ClipboardChannelLog,
  x11: X11Connection,
  pressControlV: () => Promise<void>,
  text: string,
  target: string,
): Promise<void> {
  const fail = (step: string) =>
    new ToolError(
      `Cannot paste ${JSON.stringify(text)} over RDP to ${target}: ${step} within ` +
        `${CLIPBOARD_STEP_MS / 1000} s, so the text may not have arrived`,
      { tool: "xfreerdp", output: step },
    );
  const served = x11.clipboardServed;
  const [targets, lists, responses] = [served.targets, log.formatLists, log.listResponses];
  await x11.setClipboard(text);
  const announced = await log.until(
    () => served.targets > targets && log.formatLists > lists && log.listResponses > responses,
    CLIPBOARD_STEP_MS,
  );
  if (!announced) throw fail("the RDP server did not confirm the new clipboard");
  const [asked, sent] = [served.text, log.dataResponses];
  await pressControlV();
  const pasted = await log.until(
    () => served.text > asked && log.dataResponses > sent,
    CLIPBOARD_STEP_MS,
  );
  if (!pasted) throw fail("the remote session did not ask for the pasted text");
  await sleep(PASTE_SETTLE_MS);
}
