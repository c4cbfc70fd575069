/**
 * What never goes into a run log (docs/logs.md, "Redaction"): the configured API keys, the values
 * of `Authorization` / `api-key` headers, and image data, which is replaced by its format and
 * size. Applied to every finished log line, file and console alike, so a key that reaches a log
 * call by any path (an error message, a request body, a header dump) is cut out.
 *
 * @module
 */

/**
 * Secrets shorter than this are not redacted: a placeholder key such as `none` or `EMPTY` (an
 * endpoint without auth) would otherwise cut that word out of every line; real keys are longer.
 */
const MIN_SECRET_LENGTH = 8;

/**
 * How the name of a secret ends: a header or a field such as `Authorization`, `x-api-key`,
 * `X-Auth-Token`, `client_secret`, `Cookie`, `private_key` (not `max_tokens`: the name must end
 * there).
 */
const SECRET_NAME_END =
  "(?:authorization|api[-_]?key|apikey|token|secret|password|passwd|cookie|credentials?|private[-_]?key|access[-_]?key)";

/** Whether a field or header name names a secret. */
function isSecretName(name: string): boolean {
  return new RegExp(`${SECRET_NAME_END}$`, "i").test(name);
}

/**
 * A secret's name followed by `:` or `=` (JSON, HTTP or `key=value`), then the value: a header
 * (`Authorization: Bearer ...`, `X-Auth-Token: ...`) or a field (`"client_secret":"..."`).
 */
const HEADER_VALUE = new RegExp(
  `\\b([\\w-]*${SECRET_NAME_END})(["']?\\s*[:=]\\s*["']?)((?:bearer|basic|token)\\s+)?[^\\s"',;}\\]]+`,
  "gi",
);

/**
 * The string values of `value` (any depth) held under a secret's name ({@link isSecretName}):
 * what a tool adds to its log's secrets from a configured JSON such as the model's extra body.
 */
export function secretFieldValues(value: unknown, under = false): string[] {
  if (typeof value === "string") return under ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => secretFieldValues(v, under));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => secretFieldValues(v, under || isSecretName(k)));
}

/**
 * `text` with each secret of at least `minLength` characters (default {@link MIN_SECRET_LENGTH})
 * replaced by `***`, as written and as it reads inside a JSON string.
 */
export function cutSecrets(
  text: string,
  secrets: Iterable<string>,
  minLength: number = MIN_SECRET_LENGTH,
): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < minLength) continue;
    out = out.split(secret).join("***");
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.split(escaped).join("***");
  }
  return out;
}

/** A base64 data URI; its body is never useful in a log and can be megabytes long. */
const DATA_URI = /data:([\w.+-]+\/[\w.+-]+);base64,[A-Za-z0-9+/=]*/g;

/** A run of base64 characters this long is image or binary data (a frame's body), not text. */
const MIN_BASE64_RUN = 512;

/** Whether a UTF-16 code unit is a base64 character other than `=`. */
function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 ||
    c === 47;
}

/**
 * Replaces each run of at least {@link MIN_BASE64_RUN} base64 characters (with up to two `=`)
 * by its size. A scan, not a regular expression: V8's backtracking engine overflows its stack on
 * a run of millions of such characters, which a model answer can be.
 */
function cutBase64Runs(text: string): string {
  const parts: string[] = [];
  let kept = 0;
  let i = 0;
  while (i < text.length) {
    if (!isBase64Char(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
    const runEnd = end;
    while (end < text.length && end < runEnd + 2 && text.charCodeAt(end) === 61) end++;
    if (runEnd - i >= MIN_BASE64_RUN) {
      parts.push(text.slice(kept, i), `[base64, ${base64Bytes(end - i)} bytes left out]`);
      kept = end;
    }
    i = end;
  }
  if (kept === 0) return text;
  parts.push(text.slice(kept));
  return parts.join("");
}

/** Decoded size of `chars` base64 characters, rounded. */
const base64Bytes = (chars: number): number => Math.floor(chars * 3 / 4);

/**
 * Cuts secrets, header values and base64 data out of one log line.
 *
 * @param text the line.
 * @param secrets the configured API keys; each is also looked for as it reads inside a JSON
 * string.
 * @returns the line with each secret and header value replaced by `***`, and each data URI or
 * long base64 run replaced by `[<mime> base64, N bytes left out]`.
 */
export function redactLogText(text: string, secrets: Iterable<string>): string {
  let out = cutSecrets(text, secrets);
  out = out
    .replace(HEADER_VALUE, (_m, name, sep, scheme) => `${name}${sep}${scheme ?? ""}***`)
    .replace(DATA_URI, (m, mime: string) => {
      const chars = m.length - m.indexOf(",") - 1;
      return `[${mime} base64, ${base64Bytes(chars)} bytes left out]`;
    });
  return cutBase64Runs(out);
}
