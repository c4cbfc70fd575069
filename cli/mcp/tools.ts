/**
 * The MCP tools of `sdk mcp` (docs/mcp.md): their names, descriptions and JSON Schema inputs. The
 * `ai_*` tools take `prompt` as the SDK's methods do, plus each method's own fields in snake_case.
 *
 * @module
 */

/** A JSON Schema of a tool's input: an object of named properties. */
export interface ToolInputSchema {
  /** Always `"object"`. */
  type: "object";
  /** The arguments, each with its type and description. */
  properties: Record<string, Record<string, unknown>>;
  /** The arguments that must be given. */
  required?: string[];
  /** No argument beyond `properties`. */
  additionalProperties: false;
}

/** One tool as `tools/list` shows it. */
export interface ToolDefinition {
  /** The tool's name, snake_case. */
  name: string;
  /** What it does, for the assistant. */
  description: string;
  /** Its arguments. */
  inputSchema: ToolInputSchema;
}

const str = (description: string) => ({ type: "string", description });
const int = (description: string) => ({ type: "integer", description });
const bool = (description: string) => ({ type: "boolean", description });
const schema = (
  properties: ToolInputSchema["properties"],
  required: string[] = [],
): ToolInputSchema => ({
  type: "object",
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: false,
});

const PROMPT = str("What to act on or ask, in plain words, as the SDK's ai* methods take it.");

/** Every tool of the server, in the order `tools/list` gives them. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "web_open",
    description:
      "Open a web page in headless Chromium (or in the browser at cdp_endpoint) and drive it. Once it is open, the session's previous target is closed; when it fails, that target stays open.",
    inputSchema: schema({
      url: str("The page's address, absolute (https://...)."),
      cdp_endpoint: str(
        "A Chromium DevTools endpoint (http://127.0.0.1:9222) to open the page in instead of launching Chromium.",
      ),
    }, ["url"]),
  },
  {
    name: "android_connect",
    description:
      "Drive an Android device through adb. Once it is open, the session's previous target is closed; when it fails, that target stays open.",
    inputSchema: schema({
      device_id: str(
        "The device's serial as `adb devices` lists it; the first device when left out.",
      ),
      adb_host: str("Host of a remote adb server."),
      adb_port: int("Port of the adb server (5037 by default)."),
    }),
  },
  {
    name: "ios_connect",
    description:
      "Drive an iPhone or iPad through its WebDriverAgent. Once it is open, the session's previous target is closed; when it fails, that target stays open.",
    inputSchema: schema({
      host: str("WebDriverAgent's host (localhost by default)."),
      port: int("WebDriverAgent's port (8100 by default)."),
    }),
  },
  {
    name: "harmony_connect",
    description:
      "Drive a HarmonyOS device through hdc. Once it is open, the session's previous target is closed; when it fails, that target stays open.",
    inputSchema: schema({
      device_id: str(
        "The device's connect key as `hdc list targets` lists it; the first device when left out.",
      ),
    }),
  },
  {
    name: "desktop_connect",
    description:
      "Drive a desktop: the server's display, a headless one of its own, or a remote one over RDP (the password comes from the server's SDK_RDP_PASSWORD, never from here). Once it is open, the session's previous target is closed; when it fails, that target stays open.",
    inputSchema: schema({
      headless: bool("Start a private virtual display (Linux) instead of using the server's."),
      display: str("The X display to drive, e.g. :1 (the server's DISPLAY by default)."),
      display_id: str("A monitor of that display, as listed by the desktop's ListDisplays."),
      rdp_host: str("A remote desktop's host: connects over RDP."),
      rdp_port: int("The RDP port (3389 by default)."),
      rdp_user: str("The RDP user name."),
      ignore_certificate: bool("Accept the RDP server's certificate without checking it."),
    }),
  },
  {
    name: "ai_act",
    description: "Plan and perform a task of several steps on the target; returns its output text.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
  },
  {
    name: "ai_tap",
    description: "Tap (click) the element the prompt describes.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
  },
  {
    name: "ai_input",
    description: "Type value into the field the prompt describes (replacing what it holds).",
    inputSchema: schema({
      prompt: PROMPT,
      value: str("The text to type."),
      mode: {
        type: "string",
        enum: ["replace", "typeOnly", "clear"],
        description: "replace (default), typeOnly or clear.",
      },
    }, ["prompt", "value"]),
  },
  {
    name: "ai_scroll",
    description:
      "Scroll at the element the prompt describes (or where the pointer is, without a prompt).",
    inputSchema: schema({
      prompt: PROMPT,
      direction: {
        type: "string",
        enum: ["down", "up", "left", "right"],
        description: "Which content to reveal (down by default).",
      },
      scroll_type: {
        type: "string",
        enum: ["singleAction", "scrollToBottom", "scrollToTop", "scrollToRight", "scrollToLeft"],
        description: "One scroll (default) or all the way to an edge.",
      },
      distance: int("Pixels to scroll; left out, the SDK chooses."),
    }),
  },
  {
    name: "ai_keyboard_press",
    description:
      "Press a key (Enter, Tab, Escape, a combination such as Control+A on web and desktop), on the element the prompt describes or the focused one.",
    inputSchema: schema({ prompt: PROMPT, key_name: str("The key's name.") }, ["key_name"]),
  },
  {
    name: "ai_query",
    description: "Read data from the screen in the shape the prompt describes; returns it as JSON.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
  },
  {
    name: "ai_assert",
    description:
      "Check that the statement in the prompt holds on the screen; an error says why when it does not.",
    inputSchema: schema({ prompt: PROMPT }, ["prompt"]),
  },
  {
    name: "ai_wait_for",
    description: "Wait until the statement in the prompt holds on the screen.",
    inputSchema: schema({
      prompt: PROMPT,
      timeout_ms: int("How long to wait, ms (15000 by default)."),
    }, ["prompt"]),
  },
  {
    name: "screenshot",
    description: "A screenshot of the target, as an image.",
    inputSchema: schema({}),
  },
  {
    name: "report",
    description: "The path of the session's report so far (an HTML file a person opens).",
    inputSchema: schema({}),
  },
  {
    name: "close",
    description:
      "Close the target: its report is finalized, and what the server opened for it ends.",
    inputSchema: schema({}),
  },
];
