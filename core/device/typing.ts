/**
 * Typing text one code point at a time: how every platform sends `'sequential'` input, and
 * `'legacy'` input where a `keyboardTypeDelay` asks for pauses (spec 4.2, `aiInput`). The
 * platform gives the send of one code point (a key event, a shell command, a driver call).
 *
 * @module
 */

import { sleep } from "../runtime/runtime.ts";

/**
 * Sends `text` one code point at a time, so that a surrogate pair (an emoji) stays whole, with
 * `delayMs` between two sends and none before the first.
 *
 * @param text the text to type; `""` sends nothing.
 * @param delayMs the pause between two sends, ms (0: none).
 * @param signal stops the typing: checked before each send, and it ends a pause early.
 * @param send types one code point.
 * @throws the signal's reason once it is aborted (what was sent before stays typed).
 */
export async function typeCodePoints(
  text: string,
  delayMs: number,
  signal: AbortSignal | undefined,
  send: (codePoint: string) => Promise<unknown>,
): Promise<void> {
  let first = true;
  for (const codePoint of text) {
    if (!first && delayMs > 0) await sleep(delayMs, signal);
    first = false;
    signal?.throwIfAborted();
    await send(codePoint);
  }
}
