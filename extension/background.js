// SDK Bridge service worker (MV3, plain JS module; not type-checked by Deno).
//
// Connects as a WebSocket client to the SDK's AgentOverBrowserBridge server
// (ws://127.0.0.1:<port>, port 3766 unless set in the popup). Before it runs anything, the server
// and the extension prove to each other that they hold the pairing token this extension generated
// (shown in the popup), without sending it: the server first, so a program that listens on the
// port in the SDK's place learns nothing and commands nothing. Then it executes the SDK's
// commands on one tab through chrome.debugger and forwards that tab's DevTools-protocol events.
//
// Wire format (JSON text frames); Ne, Ns: 32 random bytes in hex; HMAC: HMAC-SHA256 keyed with
// the pairing token, in hex; <address>: the host and port the extension dialled, 127.0.0.1:<port>
// (the SDK reads them off the connection, so a relay from another address or port breaks them):
//   extension -> SDK  {type:"hello", protocol:3, nonce:Ne, version}
//   SDK -> extension  {type:"challenge", nonce:Ns, proof}  proof = HMAC("sdk-bridge/3 server <address> Ne Ns")
//                     {type:"challenge", nonce:Ns, unpaired:true}  (an SDK without a token)
//   extension -> SDK  {type:"auth", proof}  proof = HMAC("sdk-bridge/3 extension <address> Ns Ne")
//                     {type:"auth", unpaired:true}  (only when the popup allows an unpaired SDK)
//                     {type:"refuse", reason:"proof"|"unpaired"}, then it closes
//   SDK -> extension  {type:"welcome"}             (or the server closes with code 4001..4004)
//   SDK -> extension  {id, method, params}          methods: connectCurrentTab, connectNewTab,
//                                                  cdp, closeTab, detach; the connect methods
//                                                  take {overlay: true} for the water-flow overlay
//   extension -> SDK  {id, result} | {id, error}
//   extension -> SDK  {type:"event", method, params} (CDP events of the driven tab)
//   extension -> SDK  {type:"detached", reason}     (the debugger left the tab)
//   extension -> SDK  {type:"ping"}                 (every 20 s: keeps this worker alive)

const VERSION = "0.1.0";
const PROTOCOL = 3;
// Where the extension dials; the proofs bind this address and the port.
const HOST = "127.0.0.1";
const DEFAULT_PORT = 3766;
const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 3000;
// Chrome stops an idle service worker after 30 s; WebSocket traffic counts as activity
// (Chrome 116+), so a connected worker sends a ping this often.
const KEEPALIVE_MS = 20_000;
let keepalive;

/** @type {WebSocket | undefined} */
let socket;
let backoff = MIN_BACKOFF_MS;
let retryTimer;
/** Status shown by the popup. */
const status = {
  state: "disconnected",
  port: DEFAULT_PORT,
  tabId: undefined,
  tabUrl: undefined,
  tabTitle: undefined,
  error: undefined,
  // Connected to an SDK without the pairing token (the popup allowed it).
  unpaired: false,
};
/** @type {number | undefined} the tab under the debugger */
let tabId;
/** Tabs opened for the SDK (closed on request). */
const createdTabs = new Set();
/** Whether the driven tab shows the water-flow border and pointer overlay. */
let overlayOn = false;

// The water-flow overlay (enableWaterFlowAnimation): a fixed, click-through <sdk-bridge-overlay>
// element on top of the page with an animated blue gradient border and a pointer dot. Injected by
// Runtime.evaluate into the current document and Page.addScriptToEvaluateOnNewDocument into every
// later one (so it survives navigation); idempotent. The element's data-x / data-y hold the
// pointer's CSS position; data-hidden is set while a screenshot is taken.
const OVERLAY_SOURCE = `(() => {
  const mount = () => {
    if (document.querySelector("sdk-bridge-overlay") || !document.documentElement) return;
    const host = document.createElement("sdk-bridge-overlay");
    host.setAttribute("aria-hidden", "true");
    host.style.cssText = "all: initial; position: fixed; inset: 0; pointer-events: none; " +
      "z-index: 2147483647; display: block;";
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = \`<style>
      .edge { position: fixed; overflow: hidden; pointer-events: none; }
      .top { top: 0; left: 0; right: 0; height: 5px; }
      .bottom { bottom: 0; left: 0; right: 0; height: 5px; }
      .left { top: 0; bottom: 0; left: 0; width: 5px; }
      .right { top: 0; bottom: 0; right: 0; width: 5px; }
      .flow { position: absolute; top: 0; left: 0; width: 200%; height: 100%;
        background: linear-gradient(90deg, #0a5cff, #00c8ff, #6a4cff, #0a5cff, #00c8ff, #6a4cff,
          #0a5cff);
        will-change: transform; animation: sdk-flow-x 3s linear infinite; }
      .left .flow, .right .flow { width: 100%; height: 200%;
        background: linear-gradient(180deg, #0a5cff, #00c8ff, #6a4cff, #0a5cff, #00c8ff, #6a4cff,
          #0a5cff);
        animation-name: sdk-flow-y; }
      @keyframes sdk-flow-x { to { transform: translateX(-50%); } }
      @keyframes sdk-flow-y { to { transform: translateY(-50%); } }
      .pointer { position: fixed; left: -9px; top: -9px; width: 18px; height: 18px; box-sizing: border-box;
        border-radius: 50%; background: rgba(10, 92, 255, 0.55); border: 2px solid #fff;
        box-shadow: 0 0 0 2px #0a5cff; opacity: 0; pointer-events: none;
        transition: transform 0.15s ease-out; }
    </style>\${["top", "bottom", "left", "right"].map((side) =>
      \`<div class="edge \${side}"><div class="flow"></div></div>\`
    ).join("")}<div class="pointer"></div>\`;
    document.documentElement.appendChild(host);
  };
  if (document.documentElement) mount();
  else document.addEventListener("DOMContentLoaded", mount, { once: true });
})()`;
const OVERLAY_REMOVE = `document.querySelectorAll("sdk-bridge-overlay").forEach((e) => e.remove())`;
const overlayMove = (x, y) =>
  `(() => { const h = document.querySelector("sdk-bridge-overlay"); if (!h) return;
    h.dataset.x = ${x}; h.dataset.y = ${y};
    const p = h.shadowRoot.querySelector(".pointer");
    p.style.transform = "translate(${x}px, ${y}px)"; p.style.opacity = "1"; })()`;
const overlayVisibility = (hidden) =>
  `(() => { const h = document.querySelector("sdk-bridge-overlay"); if (!h) return;
    h.style.visibility = "${hidden ? "hidden" : "visible"}";
    ${hidden ? 'h.dataset.hidden = ""' : "delete h.dataset.hidden"}; })()`;

/** Runs a script in the driven tab's page; gives up after `ms` (a navigating page may not answer). */
function pageEval(expression, ms = 1000) {
  const id = tabId;
  if (id === undefined) return Promise.resolve();
  return Promise.race([
    chrome.debugger.sendCommand({ tabId: id }, "Runtime.evaluate", { expression }),
    new Promise((resolve) => setTimeout(resolve, ms)),
  ]).catch(() => {});
}

const encoder = new TextEncoder();
const toHex = (bytes) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) =>
  typeof text === "string" && /^([0-9a-f]{2})+$/.test(text)
    ? Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16))
    : undefined;
const randomNonce = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

function hmacKey(token) {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(token),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

async function settings() {
  const stored = await chrome.storage.local.get(["token", "port", "allowUnpaired"]);
  let token = stored.token;
  if (typeof token !== "string" || token.length < 16) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    token = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    await chrome.storage.local.set({ token });
  }
  const port = Number.isInteger(stored.port) && stored.port > 0 && stored.port < 65536
    ? stored.port
    : DEFAULT_PORT;
  return { token, port, allowUnpaired: stored.allowUnpaired === true };
}

function setStatus(patch) {
  Object.assign(status, patch);
  chrome.runtime.sendMessage({ type: "status", status }).catch(() => {});
}

// True while connect() reads the settings (one connection attempt at a time).
let connecting = false;
// The settings of the current socket; a change of either makes a new connection.
let current;

async function connect() {
  clearTimeout(retryTimer);
  if (connecting || (socket && socket.readyState <= WebSocket.OPEN)) return;
  connecting = true;
  let token, port, allowUnpaired;
  try {
    ({ token, port, allowUnpaired } = await settings());
  } finally {
    connecting = false;
  }
  if (socket) return;
  current = { token, port, allowUnpaired };
  // A refusal stays in the popup while the extension retries, until a server proves itself.
  const refused = status.error?.startsWith("refused") ? status.error : undefined;
  setStatus({ state: "connecting", port, error: refused, unpaired: false });
  let ws;
  try {
    ws = new WebSocket(`ws://${HOST}:${port}`);
  } catch (error) {
    scheduleRetry(String(error));
    return;
  }
  socket = ws;
  // The pairing handshake of this socket: hello -> (challenge checked) auth -> ready. Nothing
  // the server sends runs before "ready".
  const session = { ws, port, token, allowUnpaired, nonce: randomNonce(), stage: "hello" };
  ws.onopen = () => {
    ws.send(
      JSON.stringify({ type: "hello", protocol: PROTOCOL, nonce: session.nonce, version: VERSION }),
    );
  };
  ws.onmessage = (event) => onMessage(session, event.data);
  ws.onclose = (event) => {
    if (socket !== ws) return;
    clearInterval(keepalive);
    socket = undefined;
    detachQuietly();
    const reason = session.refusal ??
      (event.code >= 4000 ? `rejected by the SDK: ${event.reason}` : undefined);
    scheduleRetry(reason);
  };
}

/** Says no to the server of `session` (it did not prove it holds the token), and closes. */
function refuse(session, reason, why) {
  session.stage = "refused";
  session.refusal = `refused: ${why}`;
  setStatus({ error: session.refusal });
  try {
    session.ws.send(JSON.stringify({ type: "refuse", reason }));
  } catch {
    // Already closing: nothing to tell.
  }
  session.ws.close(4010, reason);
}

/** Checks the server's challenge; answers with this extension's proof, or refuses. */
async function answerChallenge(session, message) {
  const where = `the SDK on port ${session.port}`;
  if (message.unpaired === true) {
    if (!session.allowUnpaired) {
      return refuse(
        session,
        "unpaired",
        `${where} has no pairing token. Copy this popup's token into its SDK_BRIDGE_TOKEN, or ` +
          `tick "Accept an SDK without the pairing token" below`,
      );
    }
    session.stage = "auth";
    session.unpaired = true;
    session.ws.send(JSON.stringify({ type: "auth", unpaired: true }));
    return;
  }
  const proof = fromHex(message.proof);
  const serverNonce = message.nonce;
  const key = await hmacKey(session.token);
  const valid = proof !== undefined && typeof serverNonce === "string" &&
    /^[0-9a-f]{64}$/.test(serverNonce) &&
    await crypto.subtle.verify(
      "HMAC",
      key,
      proof,
      encoder.encode(`sdk-bridge/3 server ${HOST}:${session.port} ${session.nonce} ${serverNonce}`),
    );
  if (session.ws.readyState !== WebSocket.OPEN || session.stage !== "checking") return;
  if (!valid) {
    return refuse(
      session,
      "proof",
      `${where} did not prove it holds this extension's pairing token: it is not your SDK, or ` +
        `its token differs (copy this popup's token into its SDK_BRIDGE_TOKEN). Nothing was run.`,
    );
  }
  const mine = await crypto.subtle.sign(
    "HMAC",
    key,
    encoder.encode(
      `sdk-bridge/3 extension ${HOST}:${session.port} ${serverNonce} ${session.nonce}`,
    ),
  );
  session.stage = "auth";
  session.ws.send(JSON.stringify({ type: "auth", proof: toHex(mine) }));
}

function scheduleRetry(error) {
  setStatus({
    state: "disconnected",
    error,
    tabId: undefined,
    tabUrl: undefined,
    tabTitle: undefined,
  });
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
}

async function onMessage(session, data) {
  const ws = session.ws;
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return;
  }
  if (session.stage !== "ready") {
    // The handshake; anything else (a command, an early welcome) is dropped unanswered.
    if (session.stage === "hello" && message.type === "challenge") {
      session.stage = "checking";
      await answerChallenge(session, message).catch((error) =>
        refuse(session, "proof", `the pairing check failed: ${error?.message ?? error}`)
      );
    } else if (session.stage === "auth" && message.type === "welcome") {
      session.stage = "ready";
      backoff = MIN_BACKOFF_MS;
      setStatus({ state: "connected", error: undefined, unpaired: session.unpaired === true });
      clearInterval(keepalive);
      keepalive = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, KEEPALIVE_MS);
    }
    return;
  }
  if (typeof message.id !== "number") return;
  try {
    const result = await execute(message.method, message.params ?? {});
    ws.send(JSON.stringify({ id: message.id, result: result ?? null }));
  } catch (error) {
    ws.send(JSON.stringify({ id: message.id, error: error?.message ?? String(error) }));
  }
}

async function execute(method, params) {
  switch (method) {
    case "connectCurrentTab": {
      let [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      if (!tab) [tab] = await chrome.tabs.query({ active: true });
      if (!tab?.id) throw new Error("no active tab to drive");
      return await attach(tab, params.overlay === true);
    }
    case "connectNewTab": {
      const tab = await chrome.tabs.create({ url: params.url, active: true });
      createdTabs.add(tab.id);
      return await attach(tab, params.overlay === true);
    }
    case "cdp": {
      if (tabId === undefined) throw new Error("no tab is connected");
      const command = params.params ?? {};
      if (overlayOn && params.method === "Page.captureScreenshot") {
        // The model sees the page, not the overlay: hidden during the capture.
        await pageEval(overlayVisibility(true));
        try {
          return await chrome.debugger.sendCommand({ tabId }, params.method, command);
        } finally {
          pageEval(overlayVisibility(false));
        }
      }
      const result = await chrome.debugger.sendCommand({ tabId }, params.method, command);
      if (
        overlayOn && params.method === "Input.dispatchMouseEvent" &&
        (command.type === "mouseMoved" || command.type === "mousePressed")
      ) {
        // Not awaited: the page applies it in order, before any later command's effect.
        pageEval(overlayMove(Number(command.x) || 0, Number(command.y) || 0));
      }
      return result;
    }
    case "closeTab": {
      // Closes the driven tab, only when the extension opened it.
      const id = tabId;
      await detachQuietly();
      if (id !== undefined && createdTabs.delete(id)) await chrome.tabs.remove(id).catch(() => {});
      return { closed: id !== undefined };
    }
    case "detach":
      await detachQuietly();
      return {};
    default:
      throw new Error(`unknown method '${method}'`);
  }
}

async function attach(tab, overlay) {
  if (tabId !== undefined) {
    throw new Error(`already driving tab ${tabId}: one tab per bridge agent`);
  }
  if (tab.url && /^(chrome|chrome-extension|devtools|edge):/.test(tab.url)) {
    throw new Error(`cannot drive a browser page (${tab.url}); switch to a web page first`);
  }
  await chrome.debugger.attach({ tabId: tab.id }, "1.3");
  tabId = tab.id;
  overlayOn = overlay;
  if (overlay) {
    await chrome.debugger.sendCommand({ tabId }, "Page.addScriptToEvaluateOnNewDocument", {
      source: OVERLAY_SOURCE,
    });
    await pageEval(OVERLAY_SOURCE);
  }
  setStatus({ tabId: tab.id, tabUrl: tab.pendingUrl || tab.url, tabTitle: tab.title });
  return { tabId: tab.id, url: tab.pendingUrl || tab.url || "" };
}

async function detachQuietly() {
  // The overlay goes first, while the debugger can still reach the page (the script added for new
  // documents ends with the debugger session).
  if (overlayOn) await pageEval(OVERLAY_REMOVE);
  overlayOn = false;
  const id = tabId;
  tabId = undefined;
  setStatus({ tabId: undefined, tabUrl: undefined, tabTitle: undefined });
  if (id !== undefined) await chrome.debugger.detach({ tabId: id }).catch(() => {});
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.tabId !== tabId || !socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: "event", method, params: params ?? {} }));
});

chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId !== tabId) return;
  tabId = undefined;
  overlayOn = false;
  setStatus({ tabId: undefined, tabUrl: undefined, tabTitle: undefined });
  socket?.send(JSON.stringify({ type: "detached", reason }));
});

chrome.tabs.onUpdated.addListener((id, change, tab) => {
  if (id === tabId && (change.url || change.title)) {
    setStatus({ tabUrl: tab.url, tabTitle: tab.title });
  }
});

chrome.runtime.onMessage.addListener((message, _sender, reply) => {
  if (message?.type === "getStatus") {
    settings().then(({ token, port, allowUnpaired }) =>
      reply({ status, token, port, allowUnpaired })
    );
    return true;
  }
  if (message?.type === "reconnect") {
    backoff = MIN_BACKOFF_MS;
    if (socket) socket.close();
    else connect();
    reply({ ok: true });
    return false;
  }
  return false;
});

// A new port, token or unpaired setting (from the popup, or a test): close the socket; its close handler retries at
// once with the new settings. Writing the first generated token changes nothing.
chrome.storage.onChanged.addListener(async (changes, area) => {
  if (area !== "local" || !(changes.port || changes.token || changes.allowUnpaired)) return;
  const { token, port, allowUnpaired } = await settings();
  if (
    current && current.token === token && current.port === port &&
    current.allowUnpaired === allowUnpaired
  ) return;
  backoff = MIN_BACKOFF_MS;
  if (socket) socket.close();
  else connect();
});

// A worker Chrome stopped while no SDK was listening is woken by this alarm (every 30 s, the
// shortest Chrome allows), by the popup, or by the browser starting.
chrome.alarms.create("reconnect", { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === "reconnect" && !socket) connect();
});
chrome.runtime.onStartup.addListener(connect);
chrome.runtime.onInstalled.addListener(connect);
connect();
