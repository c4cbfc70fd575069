import { test } from "../../tests/helpers/test.ts";
import assert from "node:assert/strict";
import {
  A_CNXN,
  A_VERSION_SKIP_CHECKSUM,
  encodeMessage,
  MessageReader,
  SHELL_EXIT,
  shellPacket,
  ShellPacketReader,
} from "./_adb_wire.ts";

test("transport messages and shell packets survive being split anywhere", () => {
  const banner = new TextEncoder().encode("host::features=shell_v2");
  const bytes = encodeMessage({
    command: A_CNXN,
    arg0: A_VERSION_SKIP_CHECKSUM,
    arg1: 1 << 20,
    payload: banner,
  });
  for (let cut = 0; cut <= bytes.length; cut++) {
    const reader = new MessageReader();
    const messages = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
    assert.equal(messages.length, 1);
    assert.equal(messages[0].command, A_CNXN);
    assert.deepEqual(messages[0].payload, banner);
  }
  // The checksum word is the byte sum of the payload.
  const sum = banner.reduce((a, b) => a + b, 0);
  assert.equal(new DataView(bytes.buffer).getUint32(16, true), sum);
  assert.throws(() => new MessageReader().push(new Uint8Array(24).fill(1)), /magic/);
  const packet = shellPacket(SHELL_EXIT, Uint8Array.of(3));
  const reader = new ShellPacketReader();
  assert.deepEqual(reader.push(packet.subarray(0, 2)), []);
  assert.deepEqual(reader.push(packet.subarray(2)), [{ id: SHELL_EXIT, data: Uint8Array.of(3) }]);
});
