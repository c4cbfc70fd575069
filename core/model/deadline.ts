/**
 * The deadline of one model call's attempt (issue 36, "every model call ends"): the `openai` client's
 * own timeout stops when the response headers arrive, so an endpoint that answers its headers and
 * then trickles the body (an empty delta chunk every second, a byte of whitespace) would hold a call
 * open forever. The SDK's `fetch` arms this deadline when an attempt starts and lets its body run
 * only until `SDK_MODEL_TIMEOUT` after that start: the whole answer of an attempt, headers to last
 * byte, must arrive within the timeout.
 *
 * @module
 */

/** A timer per call: the attempt's start plus the timeout; aborts {@link signal} when it passes. */
export class CallDeadline {
  readonly #timeoutMs: number;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired = false;
  /** HTTP attempts made through the SDK's `fetch`. */
  attempts = 0;

  /** A deadline of `timeoutMs` per attempt. */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Aborted when an attempt's answer did not arrive in time. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether an attempt ran past its deadline. */
  get expired(): boolean {
    return this.#expired;
  }

  /** The timeout of an attempt, ms. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Starts the clock of an attempt that started `startedAt` (ms since the epoch). */
  arm(startedAt: number = Date.now()): void {
    this.disarm();
    const left = Math.max(0, startedAt + this.#timeoutMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#expired = true;
      this.#controller.abort(
        new DOMException(`the answer took longer than ${this.#timeoutMs} ms`, "TimeoutError"),
      );
    }, left);
  }

  /** Stops the clock: the attempt's answer arrived whole, or the call ended. */
  disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * `response` with its body passed through a stream that stops `deadline`'s clock when the body
 * ends or is cancelled; the clock runs while it is read.
 */
export function bodyUnderDeadline(response: Response, deadline: CallDeadline): Response {
  if (!response.body) {
    deadline.disarm();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          deadline.disarm();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (e) {
        deadline.disarm();
        controller.error(e);
      }
    },
    cancel(reason) {
      deadline.disarm();
      return reader.cancel(reason);
    },
  });
  const wrapped = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(wrapped, "url", { value: response.url });
  return wrapped;
}
