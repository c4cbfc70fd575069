import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { UnsupportedActionError } from "@sdk/core";
import { parsePlatformScriptFile } from "@sdk/core/script";
import { MobileBDevice } from "./device.ts";
import { MobileBAgent } from "./agent.ts";
import { MOBILEB_SCRIPT_SECTION } from "./yaml.ts";

// Port 9 (discard): nothing answers there, so a request that went out would fail otherwise.
const options = { driverHost: "127.0.0.1", driverPort: 9, driverMjpegPort: 9 };

test("exposeRunDriverRequestAction: false: no RunDriverRequest for the planner; runDriverRequest throws UnsupportedActionError before any request", async () => {
  const device = new MobileBDevice({ ...options, exposeRunDriverRequestAction: false });
  assert.ok(!device.actionSpace().some((a) => a.name === "RunDriverRequest"));
  assert.ok(device.actionSpace().some((a) => a.name === "MobileBHomeButton"));
  const agent = new MobileBAgent(device, { generateReport: false, autoPrintReportMsg: false });
  try {
    for (
      const call of [
        () => agent.runDriverRequest({ method: "GET", endpoint: "/status" }),
        () => device.runDriverRequest("GET", "/status"),
      ]
    ) {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(e instanceof UnsupportedActionError, String(e));
        assert.equal(e.action, "runDriverRequest");
        assert.match(e.message, /exposeRunDriverRequestAction: false/);
        return true;
      });
    }
  } finally {
    await agent.destroy();
  }
});

test("exposeRunDriverRequestAction: the default keeps RunDriverRequest (spec 4.9), marked as reaching past the screen; a non-boolean is a TypeError", () => {
  const action = new MobileBDevice(options).actionSpace().find((a) =>
    a.name === "RunDriverRequest"
  );
  assert.equal(action?.beyondScreen, "exposeRunDriverRequestAction");
  assert.throws(
    // @ts-expect-error: a wrong type on purpose
    () => new MobileBDevice({ ...options, exposeRunDriverRequestAction: "no" }),
    /exposeRunDriverRequestAction.*boolean/,
  );
});

test("the mobileb section takes exposeRunDriverRequestAction", async () => {
  const script = await parsePlatformScriptFile(
    MOBILEB_SCRIPT_SECTION,
    "mobileb:\n  exposeRunDriverRequestAction: false\ntasks:\n  - name: t\n    flow:\n      - home:\n",
    "s.yaml",
  );
  assert.equal(script.section.exposeRunDriverRequestAction, false);
});
