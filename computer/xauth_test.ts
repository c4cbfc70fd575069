import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { cookieFor, createPrivateXAuthority, decodeXAuthority, encodeXAuthority } from "./xauth.ts";

test("a private X authority: a fresh cookie in a 0600 file of a 0700 folder", {
  timeout: 10_000,
}, async () => {
  const a = await createPrivateXAuthority();
  const b = await createPrivateXAuthority();
  try {
    assert.equal(statSync(a.file).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(a.file)).mode & 0o777, 0o700);
    assert.equal(a.cookie.length, 16);
    assert.notDeepEqual(a.cookie, b.cookie);
    const [entry] = decodeXAuthority(readFileSync(a.file));
    assert.equal(entry.name, "MIT-MAGIC-COOKIE-1");
    assert.equal(entry.family, 65535);
    assert.deepEqual(entry.data, a.cookie);
    // Any display number finds it.
    assert.deepEqual(cookieFor(7, a.file), a.cookie);
  } finally {
    await a.remove();
    await b.remove();
  }
  assert.throws(() => statSync(a.file));
});

test("cookieFor matches libXau: this host or any, this display or any", {
  timeout: 10_000,
}, async () => {
  const { hostname } = await import("node:os");
  const cookie = (n: number) => new Uint8Array(16).fill(n);
  const bytes = encodeXAuthority([
    { family: 256, address: "elsewhere", number: "3", name: "MIT-MAGIC-COOKIE-1", data: cookie(1) },
    { family: 256, address: hostname(), number: "4", name: "XDM-AUTHORIZATION-1", data: cookie(2) },
    { family: 256, address: hostname(), number: "3", name: "MIT-MAGIC-COOKIE-1", data: cookie(3) },
  ]);
  const file = `${Deno.makeTempDirSync()}/Xauthority`;
  Deno.writeFileSync(file, bytes);
  assert.deepEqual(cookieFor(3, file), cookie(3));
  assert.equal(cookieFor(4, file), undefined);
  assert.equal(cookieFor(3, "/nonexistent/Xauthority"), undefined);
  assert.equal(decodeXAuthority(bytes.subarray(0, bytes.length - 3)).length, 2);
});
