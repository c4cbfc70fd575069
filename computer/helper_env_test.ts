import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import process from "node:process";
import { childEnv } from "@sdk/core";
import { HOST_ENV } from "./native.ts";
import { x11ClientEnv } from "./display.ts";

test("the desktop helpers (the nut-js host, X11 clients) get exact variable names: no signing secret under SDK_NUT_JS_ or XDG_ passes", () => {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, {
      SDK_NUT_JS_DIR: "/opt/nut",
      SDK_NUT_JS_SIGNING_PASS: "sign-pass-1",
      SDK_NUT_JS_LICENSE_KEY: "license-2",
      DENO_DIR: "/cache/deno",
      XDG_RUNTIME_DIR: "/run/user/1",
      XDG_SESSION_TOKEN: "xdg-token-3",
      APT_SIGNING_KEY_PASSPHRASE: "apt-4",
    });
    for (
      const env of [
        childEnv(HOST_ENV),
        x11ClientEnv(":7", undefined, HOST_ENV),
        childEnv([/^XDG_/, /^APT_/]),
      ]
    ) {
      for (const name of Object.keys(env)) {
        assert.ok(!/SIGNING|LICENSE_KEY|TOKEN/.test(name), `${name} reached a helper`);
      }
    }
    assert.equal(childEnv(HOST_ENV).SDK_NUT_JS_DIR, "/opt/nut");
    assert.equal(childEnv(HOST_ENV).DENO_DIR, "/cache/deno");
    assert.equal(childEnv([/^XDG_/]).XDG_RUNTIME_DIR, "/run/user/1");
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
});
