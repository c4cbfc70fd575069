/**
 * DevTools-protocol key definitions for the bridge's keyboard (`Input.dispatchKeyEvent`): the
 * named keys `KeyboardEvent.key` knows that the web action space uses, and single characters.
 * Private to the package.
 *
 * @module
 */

/** What `Input.dispatchKeyEvent` needs for one key. */
export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** Text the key inserts, if any. */
  text?: string;
  /** Bit in `modifiers` (Alt 1, Control 2, Meta 4, Shift 8), for modifier keys. */
  modifier?: number;
}

const NAMED: Record<string, [code: string, keyCode: number, text?: string]> = {
  Enter: ["Enter", 13, "\r"],
  Tab: ["Tab", 9],
  Backspace: ["Backspace", 8],
  Delete: ["Delete", 46],
  Escape: ["Escape", 27],
  ArrowUp: ["ArrowUp", 38],
  ArrowDown: ["ArrowDown", 40],
  ArrowLeft: ["ArrowLeft", 37],
  ArrowRight: ["ArrowRight", 39],
  Home: ["Home", 36],
  End: ["End", 35],
  PageUp: ["PageUp", 33],
  PageDown: ["PageDown", 34],
  Insert: ["Insert", 45],
  Space: ["Space", 32, " "],
  " ": ["Space", 32, " "],
  Control: ["ControlLeft", 17],
  Shift: ["ShiftLeft", 16],
  Alt: ["AltLeft", 18],
  Meta: ["MetaLeft", 91],
};

const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

const PUNCTUATION: Record<string, [string, number]> = {
  ";": ["Semicolon", 186],
  "=": ["Equal", 187],
  ",": ["Comma", 188],
  "-": ["Minus", 189],
  ".": ["Period", 190],
  "/": ["Slash", 191],
  "`": ["Backquote", 192],
  "[": ["BracketLeft", 219],
  "\\": ["Backslash", 220],
  "]": ["BracketRight", 221],
  "'": ["Quote", 222],
};

/**
 * The definition of a key name (`"Enter"`, `"F5"`, `"a"`, `"+"`), or undefined for an unknown
 * name. Single characters without a US-keyboard key get keyCode 0 and insert themselves.
 */
export function keyDefinition(name: string): KeyDefinition | undefined {
  const named = NAMED[name];
  if (named) {
    const [code, keyCode, text] = named;
    return {
      key: name === "Space" ? " " : name,
      code,
      keyCode,
      text,
      modifier: MODIFIER_BITS[name],
    };
  }
  const f = /^F([1-9]|1[0-2])$/.exec(name);
  if (f) return { key: name, code: name, keyCode: 111 + Number(f[1]) };
  if ([...name].length !== 1) return undefined;
  if (/^[a-z]$/i.test(name)) {
    return {
      key: name,
      code: `Key${name.toUpperCase()}`,
      keyCode: name.toUpperCase().charCodeAt(0),
      text: name,
    };
  }
  if (/^[0-9]$/.test(name)) {
    return { key: name, code: `Digit${name}`, keyCode: name.charCodeAt(0), text: name };
  }
  const punctuation = PUNCTUATION[name];
  if (punctuation) return { key: name, code: punctuation[0], keyCode: punctuation[1], text: name };
  return { key: name, code: "", keyCode: 0, text: name };
}
