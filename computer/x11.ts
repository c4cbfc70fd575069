/**
 * A minimal X11 protocol client in the SDK's own process, for what nut-js cannot do: read the
 * X server's active keymap (`GetKeyboardMapping`, `GetModifierMapping`) and press a key by its
 * keycode through XTEST (`FakeInput`), so that typed text follows the server's layout (shifted
 * punctuation, AltGr characters). nut-js (libnut) presses keys by keysym, takes the first key
 * that carries it and sends it without its Shift or AltGr: `!` arrives as `1`.
 *
 * It speaks the core protocol over the display's Unix socket (or TCP for `host:N`), with the
 * MIT-MAGIC-COOKIE-1 of the display's X authority ({@link cookieFor}). The socket never keeps
 * the process alive by itself; calls hold it open while they wait ({@link holdOpen}).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createConnection, type Socket } from "node:net";
import { ConnectionError, holdOpen, ToolError } from "@sdk/core";
import { cookieFor, MIT_MAGIC_COOKIE } from "./xauth.ts";

/** The server's keyboard mapping: keysyms per keycode, as `GetKeyboardMapping` gives them. */
export interface X11Keymap {
  /** The lowest keycode. */
  minKeycode: number;
  /** Keysyms of each keycode from `minKeycode` on, `keysymsPerKeycode` each (0: none). */
  keysyms: number[][];
  /** The keycodes of each of the 8 modifiers (Shift, Lock, Control, Mod1-Mod5). */
  modifiers: number[][];
}

/** The keyboard's lock and group, as the X server reports them to core clients. */
export interface X11KeyboardState {
  /** Whether the Lock modifier (Caps Lock) is on. */
  capsLock: boolean;
  /** The active group (layout), 0 to 3. */
  group: number;
}

/** An open connection to an X server. */
export interface X11Connection {
  /** The server's keymap, read now. */
  keymap(): Promise<X11Keymap>;
  /**
   * The top-level window with the keyboard focus: the first of the focus window
   * (`GetInputFocus`) and its ancestors that has a `WM_CLASS`, with that class (the application's
   * class, `"Gedit"`, `"Toplevel"`: unlike the title, it does not change with the document); the
   * focus window itself when none has one; `undefined` when nothing has the focus (`None`,
   * `PointerRoot`).
   */
  focusedWindow(): Promise<{ id: number; windowClass?: string } | undefined>;
  /**
   * The keyboard's state now, from the pointer's state field (`QueryPointer`): whether the Lock
   * modifier (Caps Lock) is on, and the active group (0 for the first layout).
   */
  keyboardState(): Promise<X11KeyboardState>;
  /** Presses (`down`) or releases the key `keycode` through XTEST. */
  fakeKey(keycode: number, down: boolean): void;
  /** Resolves once the server has handled every request sent so far (a round trip). */
  sync(): Promise<void>;
  /**
   * Owns the CLIPBOARD selection with `text`, offered as `UTF8_STRING` only, until another
   * client takes it; resolves once the server confirms the ownership.
   */
  setClipboard(text: string): Promise<void>;
  /** What other clients asked of the clipboard while this connection owned it. */
  readonly clipboardServed: { targets: number; text: number };
  /** Closes the connection. Safe to call twice. */
  close(): void;
}

/** The predefined atom `WM_CLASS`. */
const WM_CLASS = 67;
/** The Lock bit of the core protocol's SETofKEYMASK. */
const LOCK_MASK = 0x2;

const pad4 = (n: number) => (4 - (n % 4)) % 4;

function padded(bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(bytes), Buffer.alloc(pad4(bytes.length))]);
}

/** Parses `:1`, `:1.0`, `unix:1`, `host:10.0` into where to connect. */
function target(display: string): { path: string } | { host: string; port: number } {
  const m = /^(?:[^:/]*\/)?([^:/]*):(\d+)(?:\.\d+)?$/.exec(display.trim());
  if (!m) throw new ToolError(`not an X display name: ${display}`, { tool: "x11" });
  const local = m[1] === "" || m[1] === "unix";
  return local ? { path: `/tmp/.X11-unix/X${m[2]}` } : { host: m[1], port: 6000 + Number(m[2]) };
}

/**
 * Connects to the X server at `display` with the cookie of `xauthority` (or the `XAUTHORITY`
 * rules of libXau) and finds its XTEST extension.
 *
 * @throws {ConnectionError} when the server cannot be reached or refuses the connection (its
 *   reason, e.g. "Authorization required"); {ToolError} when it has no XTEST extension.
 */
export async function openX11(display: string, xauthority?: string): Promise<X11Connection> {
  const where = target(display);
  const number = Number(/:(\d+)/.exec(display)![1]);
  const cookie = cookieFor(number, xauthority);
  const socket: Socket = createConnection(where);
  socket.unref();
  let buffer = Buffer.alloc(0);
  let closed: Error | undefined;
  let setup: ((data: Buffer) => void) | undefined;
  let sequence = 0;
  let lastError: Error | undefined;
  const handlers: { selectionRequest?: (event: Buffer) => void } = {};
  const replies = new Map<number, { resolve(reply: Buffer): void; reject(e: Error): void }>();
  const lost = (why: string) =>
    new ConnectionError(
      `Cannot control the desktop: the X connection to DISPLAY=${display} ended (${why})`,
      { kind: "lost", endpoint: display },
    );
  const fail = (error: Error) => {
    closed ??= error;
    for (const pending of replies.values()) pending.reject(closed);
    replies.clear();
  };
  socket.on("error", (e) => fail(lost(e.message)));
  socket.on("close", () => fail(lost("the server closed it")));
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (setup) {
      if (buffer.length < 8) return;
      const total = 8 + buffer.readUInt16LE(6) * 4;
      if (buffer.length < total) return;
      const data = buffer.subarray(0, total);
      buffer = buffer.subarray(total);
      const done = setup;
      setup = undefined;
      done(data);
    }
    while (buffer.length >= 32) {
      const kind = buffer[0];
      const total = kind === 1 || (kind & 0x7f) === 35 ? 32 + buffer.readUInt32LE(4) * 4 : 32;
      if (buffer.length < total) return;
      const packet = buffer.subarray(0, total);
      buffer = buffer.subarray(total);
      const seq = packet.readUInt16LE(2);
      if (kind === 1) {
        const pending = replies.get(seq);
        replies.delete(seq);
        pending?.resolve(packet);
      } else if (kind === 0) {
        const error = new ToolError(
          `Cannot control the desktop at DISPLAY=${display}: the X server answered error ` +
            `${packet[1]} to request ${packet[10]}.${packet.readUInt16LE(8)}`,
          { tool: "x11", output: `X error ${packet[1]}` },
        );
        const pending = replies.get(seq);
        replies.delete(seq);
        if (pending) pending.reject(error);
        else lastError = error;
      } else if ((kind & 0x7f) === 30) handlers.selectionRequest?.(packet);
      // Other events are skipped.
    }
  });
  await holdOpen(
    new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", (e) =>
        reject(
          new ConnectionError(
            `Cannot control the desktop: no X server answers at DISPLAY=${display} (${e.message})`,
            { kind: "refused", endpoint: display },
            { cause: e },
          ),
        ));
    }),
  );
  const name = cookie ? Buffer.from(MIT_MAGIC_COOKIE) : Buffer.alloc(0);
  const data = cookie ?? new Uint8Array(0);
  const head = Buffer.alloc(12);
  head.write("l", 0, "latin1");
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(name.length, 6);
  head.writeUInt16LE(data.length, 8);
  const reply = await holdOpen(
    new Promise<Buffer>((resolve, reject) => {
      setup = resolve;
      socket.once("close", () => reject(closed ?? lost("closed during setup")));
      socket.write(Buffer.concat([head, padded(name), padded(data)]));
    }),
  );
  if (reply[0] !== 1) {
    socket.destroy();
    const reason = reply.subarray(8, 8 + reply[1]).toString("latin1").trim() ||
      "no reason given";
    throw new ConnectionError(
      `Cannot control the desktop: the X server at DISPLAY=${display} refused the SDK's ` +
        `connection (${reason}). Set XAUTHORITY to the display's X authority file`,
      { kind: "refused", endpoint: display },
    );
  }
  const minKeycode = reply[34];
  const maxKeycode = reply[35];
  const idBase = reply.readUInt32LE(12);
  const vendorLength = reply.readUInt16LE(24);
  const formats = reply[29];
  const root = reply.readUInt32LE(40 + vendorLength + pad4(vendorLength) + 8 * formats);

  const send = (request: Buffer) => {
    if (closed) throw closed;
    sequence = (sequence + 1) & 0xffff;
    socket.write(request);
    return sequence;
  };
  const call = (request: Buffer): Promise<Buffer> => {
    if (closed) return Promise.reject(closed);
    return holdOpen(
      new Promise<Buffer>((resolve, reject) => {
        replies.set(send(request), { resolve, reject });
      }),
    );
  };
  const request = (opcode: number, data: number, body: Buffer = Buffer.alloc(0)) => {
    const head = Buffer.alloc(4);
    head[0] = opcode;
    head[1] = data;
    head.writeUInt16LE((4 + body.length) / 4, 2);
    return Buffer.concat([head, body]);
  };

  // XTEST's major opcode (QueryExtension).
  const extension = Buffer.from("XTEST");
  const query = Buffer.alloc(4);
  query.writeUInt16LE(extension.length, 0);
  const found = await call(request(98, 0, Buffer.concat([query, padded(extension)])));
  if (found[8] !== 1) {
    socket.destroy();
    throw new ToolError(
      `Cannot type on DISPLAY=${display}: its X server has no XTEST extension`,
      { tool: "x11", output: "no XTEST" },
    );
  }
  const xtest = found[9];

  const atoms = new Map<string, number>();
  const atom = async (name: string): Promise<number> => {
    const known = atoms.get(name);
    if (known) return known;
    const bytes = Buffer.from(name);
    const head = Buffer.alloc(4);
    head.writeUInt16LE(bytes.length, 0);
    const answer = await call(request(16, 0, Buffer.concat([head, padded(bytes)])));
    atoms.set(name, answer.readUInt32LE(8));
    return answer.readUInt32LE(8);
  };
  const words = (...values: number[]) => {
    const body = Buffer.alloc(values.length * 4);
    values.forEach((v, i) => body.writeUInt32LE(v >>> 0, i * 4));
    return body;
  };
  // The clipboard: an unmapped InputOnly window owns CLIPBOARD and answers SelectionRequest
  // events (TARGETS, UTF8_STRING) by setting the requestor's property and notifying it.
  const served = { targets: 0, text: 0 };
  let clipboardText: string | undefined;
  let owner: number | undefined;
  const answerRequest = async (event: Buffer) => {
    const [time, requestor, selection, targetAtom, property] = [4, 12, 16, 20, 24].map((at) =>
      event.readUInt32LE(at)
    );
    const into = property || targetAtom;
    const [targets, utf8] = [await atom("TARGETS"), await atom("UTF8_STRING")];
    const [string, textAtom] = [await atom("STRING"), await atom("TEXT")];
    const store = (type: number, format: 8 | 32, data: Buffer, units: number) => {
      const body = Buffer.concat([words(requestor, into, type), Buffer.from([format, 0, 0, 0])]);
      send(request(18, 0, Buffer.concat([body, words(units), padded(data)])));
    };
    let answered: "targets" | "text" | undefined;
    const text = clipboardText;
    if (text !== undefined && targetAtom === targets) {
      // Only UTF8_STRING is offered, so that no client picks a Latin-1 format for Unicode.
      store(4, 32, words(targets, utf8), 2);
      answered = "targets";
    } else if (text !== undefined && (targetAtom === utf8 || targetAtom === textAtom)) {
      const data = Buffer.from(text, "utf8");
      store(utf8, 8, data, data.length);
      answered = "text";
    } else if (
      text !== undefined && targetAtom === string &&
      [...text].every((c) => c.codePointAt(0)! <= 0xff)
    ) {
      const data = Buffer.from(text, "latin1");
      store(string, 8, data, data.length);
      answered = "text";
    }
    const notify = Buffer.alloc(32);
    notify[0] = 31; // SelectionNotify
    words(time, requestor, selection, targetAtom, answered ? into : 0).copy(notify, 4);
    send(request(25, 0, Buffer.concat([words(requestor, 0), notify])));
    // Counted once the answer is on its way: keys sent after this reach the server after it.
    if (answered) served[answered]++;
  };
  handlers.selectionRequest = (event) => void answerRequest(event).catch(() => undefined);

  return {
    clipboardServed: served,
    setClipboard: async (text) => {
      if (owner === undefined) {
        owner = idBase | 1;
        // CreateWindow: InputOnly, 1 x 1, on the root, never mapped.
        const body = Buffer.alloc(28);
        body.writeUInt32LE(owner, 0);
        body.writeUInt32LE(root, 4);
        body.writeUInt16LE(1, 12);
        body.writeUInt16LE(1, 14);
        body.writeUInt16LE(2, 18); // InputOnly
        send(request(1, 0, body));
      }
      clipboardText = text;
      const clipboard = await atom("CLIPBOARD");
      send(request(22, 0, words(owner, clipboard, 0))); // SetSelectionOwner, CurrentTime
      const current = await call(request(23, 0, words(clipboard))); // GetSelectionOwner
      if (current.readUInt32LE(8) !== owner) {
        throw new ToolError(
          `Cannot set the clipboard of DISPLAY=${display}: another client kept it`,
          { tool: "x11", output: "selection owner unchanged" },
        );
      }
    },
    keymap: async () => {
      const count = maxKeycode - minKeycode + 1;
      const body = Buffer.alloc(4);
      body[0] = minKeycode;
      body[1] = count;
      const map = await call(request(101, 0, body));
      const per = map[1];
      const keysyms: number[][] = [];
      for (let k = 0; k < count; k++) {
        const row: number[] = [];
        for (let i = 0; i < per; i++) row.push(map.readUInt32LE(32 + (k * per + i) * 4));
        keysyms.push(row);
      }
      const mods = await call(request(119, 0));
      const perModifier = mods[1];
      const modifiers: number[][] = [];
      for (let m = 0; m < 8; m++) {
        const codes: number[] = [];
        for (let i = 0; i < perModifier; i++) {
          const code = mods[32 + m * perModifier + i];
          if (code) codes.push(code);
        }
        modifiers.push(codes);
      }
      return { minKeycode, keysyms, modifiers };
    },
    focusedWindow: async () => {
      const focus = (await call(request(43, 0))).readUInt32LE(8); // GetInputFocus
      if (focus === 0 || focus === 1) return undefined; // None, PointerRoot
      const windowClass = async (window: number) => {
        // GetProperty WM_CLASS, any type, the first 1 KiB: "instance\0class\0".
        const value = await call(request(20, 0, words(window, WM_CLASS, 0, 0, 256)));
        const length = value.readUInt32LE(16);
        if (value[1] !== 8 || length === 0) return undefined;
        const [instance, appClass] = value.subarray(32, 32 + length).toString("latin1").split("\0");
        return appClass || instance || undefined;
      };
      try {
        for (let window = focus; window !== root && window !== 0;) {
          const found = await windowClass(window);
          if (found !== undefined) return { id: window, windowClass: found };
          window = (await call(request(15, 0, words(window)))).readUInt32LE(12); // QueryTree
        }
      } catch (error) {
        // A window closed meanwhile (BadWindow): the focus alone names the screen.
        if (error instanceof ConnectionError) throw error;
      }
      return { id: focus };
    },
    keyboardState: async () => {
      const mask = (await call(request(38, 0, words(root)))).readUInt16LE(24); // QueryPointer
      // XKB reports the group to core clients in bits 13 and 14 of the state.
      return { capsLock: (mask & LOCK_MASK) !== 0, group: (mask >> 13) & 3 };
    },
    fakeKey: (keycode, down) => {
      const body = Buffer.alloc(32);
      body[0] = down ? 2 : 3; // KeyPress, KeyRelease
      body[1] = keycode;
      send(request(xtest, 2, body));
    },
    sync: async () => {
      await call(request(43, 0)); // GetInputFocus: a round trip
      const error = lastError;
      lastError = undefined;
      if (error) throw error;
    },
    close: () => {
      closed ??= lost("closed");
      socket.destroy();
    },
  };
}
