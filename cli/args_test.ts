import { test } from "../tests/helpers/test.ts";
import assert from "node:assert/strict";
import { SdkTypeError } from "@sdk/core";
import { CliUsageError, helpText, parseCliArgs, type RunCommand } from "./args.ts";
import { AGENT_OPTION_KINDS, kebabCase } from "./agent_flags.ts";

function run(...argv: string[]): RunCommand {
  const parsed = parseCliArgs(["run", ...argv]);
  assert.equal(parsed.command, "run");
  return parsed as RunCommand;
}

function usageError(argv: string[], pattern: RegExp): void {
  assert.throws(
    () => parseCliArgs(argv),
    (e: unknown) => e instanceof CliUsageError && pattern.test(e.message),
  );
}

test("sdk run takes paths and the run flags, with defaults", () => {
  assert.deepEqual(run("a.yaml", "flows/"), {
    command: "run",
    paths: ["a.yaml", "flows/"],
    concurrent: 1,
    continueOnError: false,
    headed: false,
    keepWindow: false,
    untrusted: false,
    env: [],
    wda: [],
    display: [],
    perDevice: false,
    spread: false,
    agentOptions: {},
    shareBrowserContext: false,
    retry: 0,
    given: new Set(),
  });
  const untrusted = run("a.yaml", "--untrusted", "--env", "LOGIN_USER", "--env=BASE_URL");
  assert.deepEqual([untrusted.untrusted, untrusted.env], [true, ["LOGIN_USER", "BASE_URL"]]);
  const r = run(
    "--concurrent",
    "2",
    "x.feature",
    "--continue-on-error",
    "--headed",
    "--keep-window",
    "--dotenv=.env.ci",
    "--summary",
    "out/summary.json",
  );
  assert.deepEqual(
    [r.paths, r.concurrent, r.continueOnError, r.headed, r.keepWindow, r.dotenv, r.summary],
    [["x.feature"], 2, true, true, true, ".env.ci", "out/summary.json"],
  );
  // A batch file's keys fill only what no flag set.
  assert.deepEqual(
    [...r.given].sort(),
    ["concurrent", "continueOnError", "dotenv", "headed", "keepWindow", "summary"],
  );
  const batch = run("--config", "batch.yaml", "--retry", "2", "--share-browser-context");
  assert.deepEqual([batch.paths, batch.config, batch.retry, batch.shareBrowserContext], [
    [],
    "batch.yaml",
    2,
    true,
  ]);
  assert.throws(() => run("a.yaml", "--retry", "-1"), /--retry takes a whole number >= 0/);
});

test("sdk run reads the device flags, and refuses --per-device with --spread or without --devices", () => {
  const r = run(
    "flows/",
    "--devices",
    "mobilea:all,127.0.0.1:8100",
    "--per-device",
    "--adb-port",
    "5038",
    "--wda",
    "http://127.0.0.1:8100",
    "--wda=http://127.0.0.1:8101",
    "--hdc",
    "/opt/hdc",
  );
  assert.deepEqual(
    [r.devices, r.perDevice, r.spread, r.adbPort, r.wda, r.hdc, r.given.has("concurrent")],
    [
      "mobilea:all,127.0.0.1:8100",
      true,
      false,
      5038,
      ["http://127.0.0.1:8100", "http://127.0.0.1:8101"],
      "/opt/hdc",
      false,
    ],
  );
  usageError(["run", "a.yaml", "--devices", "all", "--per-device", "--spread"], /give one/);
  usageError(["run", "a.yaml", "--spread"], /--spread runs files on a pool of devices/);
  assert.deepEqual(parseCliArgs(["devices", "--wda", "http://h:1", "--json", "--display", ":9"]), {
    command: "devices",
    json: true,
    wda: ["http://h:1"],
    display: [":9"],
    agentOptions: {},
  });
  usageError(["devices", "extra"], /takes flags only/);
  assert.match(helpText("devices"), /--wda URL/);
  assert.match(helpText("run"), /--per-device/);
});

test("every agent option is a kebab-case flag converted to its type", () => {
  const r = run(
    "a.yaml",
    "--wait-after-action",
    "500",
    "--generate-report=false",
    "--screenshot-format",
    "png",
    "--cache",
    '{"id":"login"}',
    "--no-force-same-tab-navigation",
    "--use-device-time",
    "--report-file-name=nightly",
  );
  assert.deepEqual(r.agentOptions, {
    waitAfterAction: 500,
    generateReport: false,
    screenshotFormat: "png",
    cache: { id: "login" },
    forceSameTabNavigation: false,
    useDeviceTime: true,
    reportFileName: "nightly",
  });
  assert.equal(kebabCase("enableTouchEventsInActionSpace"), "enable-touch-events-in-action-space");
  for (const option of Object.keys(AGENT_OPTION_KINDS)) {
    assert.ok(helpText().includes(`--${kebabCase(option)}`), `help lists --${kebabCase(option)}`);
  }
});

test("paths after -- are taken as they are", () => {
  assert.deepEqual(run("--", "--odd-name.yaml").paths, ["--odd-name.yaml"]);
});

test("usage errors name the flag, the value and a fix", () => {
  usageError(
    ["run", "a.yaml", "--wait-after-acton", "5"],
    /unknown flag --wait-after-acton \(did you mean --wait-after-action\?\)/,
  );
  usageError(
    ["run", "a.yaml", "--wait-after-action", "soon"],
    /--wait-after-action takes a number: got "soon"/,
  );
  usageError(
    ["run", "a.yaml", "--screenshot-format", "gif"],
    /--screenshot-format takes one of jpeg, png: got "gif"/,
  );
  usageError(["run", "a.yaml", "--headed=maybe"], /--headed takes true or false/);
  usageError(["run", "a.yaml", "--cache", "{id:"], /--cache takes JSON/);
  usageError(["run", "a.yaml", "--summary"], /--summary needs a value/);
  usageError(
    ["run", "a.yaml", "--concurrent", "0"],
    /--concurrent takes a whole number >= 1: got 0/,
  );
  usageError(["run", "a.yaml", "--no-summary"], /--no-summary is only for true\/false flags/);
  usageError(["run"], /needs at least one \.yaml, \.yml or \.feature file/);
  usageError(["launch"], /unknown command "launch"/);
});

test("help and version", () => {
  assert.deepEqual(parseCliArgs([]), { command: "help" });
  assert.deepEqual(parseCliArgs(["--help"]), { command: "help" });
  assert.deepEqual(parseCliArgs(["--version"]), { command: "version" });
});

test("sdk run --help and -h give the help of sdk run, wherever they stand before --", () => {
  for (
    const argv of [
      ["run", "--help"],
      ["run", "-h"],
      ["run", "flows/", "--help"],
      ["run", "--concurrent", "2", "-h"],
    ]
  ) {
    assert.deepEqual(parseCliArgs(argv), { command: "help", topic: "run" }, argv.join(" "));
  }
  // After --, -h is a path as typed.
  assert.deepEqual(run("--", "-h").paths, ["-h"]);
  const help = helpText("run");
  assert.match(help, /^sdk run: /);
  assert.match(help, /sdk run <file\|dir\|glob>\.\.\. \[flags\]/);
  assert.match(help, /--concurrent N +run N files at once/);
});

test("every agent option flag in the help has a value type and a description", () => {
  for (const topic of [undefined, "run"] as const) {
    const help = helpText(topic);
    for (const [option, kind] of Object.entries(AGENT_OPTION_KINDS)) {
      const flag = `--${kebabCase(option)}`;
      const lines = help.split("\n");
      const at = lines.findIndex((l) => l.trimStart().split(" ")[0] === flag);
      assert.ok(at >= 0, `${topic ?? "sdk"} --help has a line for ${flag}`);
      // The text follows in its column, or on the next line when the flag is too long.
      const line = /\S\s{2,}\S/.test(lines[at]) ? lines[at] : `${lines[at]}  ${lines[at + 1]}`;
      const [, value, description] = /^\s*--[a-z-]+( [A-Z0-9|a-z-]+)?\s{2,}(\S.*)$/.exec(line) ??
        [];
      assert.ok(description && description.length > 10, `${flag} is described: ${line}`);
      if (kind.type === "boolean") assert.equal(value, undefined, `${flag} takes no value`);
      else assert.ok(value, `${flag} shows its value type: ${line}`);
      if (kind.type === "enum") {
        assert.equal(value!.trim(), kind.values.join("|"), `${flag} lists its values`);
      }
    }
  }
});

test("sdk playground takes one URL, its flags and the agent option flags", () => {
  assert.deepEqual(parseCliArgs(["playground", "https://example.com"]), {
    command: "playground",
    url: "https://example.com",
    port: 5800,
    headed: false,
    agentOptions: {},
  });
  assert.deepEqual(
    parseCliArgs([
      "playground",
      "--port=0",
      "http://127.0.0.1:8080/a.html",
      "--host",
      "0.0.0.0",
      "--headed",
      "--dotenv",
      ".env.local",
      "--wait-after-action",
      "100",
    ]),
    {
      command: "playground",
      url: "http://127.0.0.1:8080/a.html",
      port: 0,
      host: "0.0.0.0",
      headed: true,
      dotenv: ".env.local",
      agentOptions: { waitAfterAction: 100 },
    },
  );
  assert.deepEqual(parseCliArgs(["playground", "--help"]), {
    command: "help",
    topic: "playground",
  });
  assert.deepEqual(parseCliArgs(["playground", "x", "-h"]), {
    command: "help",
    topic: "playground",
  });
  assert.match(helpText("playground"), /SDK_PLAYGROUND_HOST/);
  assert.match(helpText(), /sdk playground <url>/);
});

test("sdk playground usage errors say what to write", () => {
  usageError(
    ["playground"],
    /takes one page address, e\.g\. "sdk playground https:\/\/example\.com"/,
  );
  usageError(["playground", "https://a.example", "https://b.example"], /got 2/);
  usageError(["playground", "example.com"], /did you mean https:\/\/example\.com\?/);
  usageError(
    ["playground", "https://a.example", "--port", "70000"],
    /--port takes a whole number 0-65535/,
  );
  usageError(["playground", "https://a.example", "--concurrent", "2"], /unknown flag --concurrent/);
  usageError(["playground", "https://a.example", "--hots", "x"], /did you mean --host\?/);
});

test(
  "a usage error is the command line's SdkTypeError: a TypeError with the code INVALID_ARGUMENT",
  {
    timeout: 5_000,
  },
  () => {
    assert.throws(() => parseCliArgs(["run", "--no-such-flag"]), (e: unknown) => {
      assert.ok(e instanceof CliUsageError, String(e));
      assert.ok(e instanceof SdkTypeError && e instanceof TypeError);
      assert.equal(e.code, "INVALID_ARGUMENT");
      assert.equal(e.name, "CliUsageError");
      return true;
    });
  },
);
