import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { xfreerdpErrors } from "./rdp_client.ts";

const OUTPUT = [
  "[11:48:18:524] [26482:26503] [DEBUG][com.freerdp.core] - state CONNECTION_STATE_NLA",
  "[11:48:18:525] [26482:26503] [WARN][com.freerdp.crypto] - CN = vm",
  "[11:48:18:527] [26482:26503] [ERROR][com.freerdp.crypto] - @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
  "[11:48:18:527] [26482:26503] [ERROR][com.freerdp.crypto] - @    WARNING: CERTIFICATE NAME MISMATCH!    @",
  "[11:48:18:527] [26482:26503] [ERROR][com.freerdp.crypto] - BIO_read returned a system error 0: Success",
  "[11:48:18:527] [26482:26503] [ERROR][com.freerdp.crypto] - certificate not trusted, aborting.",
  "[11:48:18:527] [26482:26503] [ERROR][com.freerdp.core] - BIO_read returned a system error 0: Success",
  "[11:48:18:527] [26482:26503] [ERROR][com.freerdp.core] - transport_connect_tls:freerdp_set_last_error_ex ERRCONNECT_TLS_CONNECT_FAILED [0x00020008]",
].join("\n");

test(
  "xfreerdpErrors(): the client's error lines without prefixes, banners, other levels and repeats",
  { timeout: 10_000 },
  () => {
    assert.deepEqual(xfreerdpErrors(OUTPUT), [
      "certificate not trusted, aborting.",
      "BIO_read returned a system error 0: Success",
      "ERRCONNECT_TLS_CONNECT_FAILED",
    ]);
    assert.deepEqual(xfreerdpErrors("[DEBUG][x] - nothing wrong"), []);
  },
);
