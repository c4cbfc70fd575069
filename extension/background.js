// SDK Bridge service worker (MV3, plain JS module; not type-checked by Deno).
//
// Connects as a WebSocket client to the SDK's AgentOverBrowserBridge server
// (ws://127.0.0.1:<port>, port 3766 unless set in the popup), says hello with the pairing token
// this extension generated (shown in the popup), then executes the SDK's commands on one tab
// through chrome.debugger and forwards that tab's DevTools-protocol events.
//
// Wire format (JSON text frames):
//   extension -> SDK  {type:"hello", token, version}
//   SDK -> extension  {type:"welcome"}             (or the server closes with code 4001..4003)
//   SDK -> extension  {id, method, params}          methods: connectCurrentTab, connectNewTab,
//                                                  cdp, closeTab, detach; the connect methods
//                                                  take {overlay: true} for the water-flow overlay
//   extension -> SDK  {id, result} | {id, error}
//   extension -> SDK  {type:"event", method, params} (CDP events of the driven tab)
//   extension -> SDK  {type:"detached", reason}     (the debugger left the tab)
//   extension -> SDK  {type:"ping"}                 (every 20 s: keeps this worker alive)

const VERSION = "0.1.0";
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

async function settings() {
  const stored = await chrome.storage.local.get(["token", "port"]);
  let token = stored.token;
  if (typeof token !== "string" || token.length < 16) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    token = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    await chrome.storage.local.set({ token });
  }
  const port = Number.isInteger(stored.port) && stored.port > 0 && stored.port < 65536
    ? stored.port
    : DEFAULT_PORT;
  return { token, port };
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
  let token, port;
  try {
    ({ token, port } = await settings());
  } finally {
    connecting = false;
  }
  if (socket) return;
  current = { token, port };
  setStatus({ state: "connecting", port, error: undefined });
  let ws;
  try {
    ws = new WebSocket(`ws://127.0.0.1:${port}`);
  } catch (error) {
    scheduleRetry(String(error));
    return;
  }
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", token, version: VERSION }));
    clearInterval(keepalive);
    keepalive = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, KEEPALIVE_MS);
  };
  ws.onmessage = (event) => onMessage(ws, event.data);
  ws.onclose = (event) => {
    if (socket !== ws) return;
    clearInterval(keepalive);
    socket = undefined;
    detachQuietly();
    const reason = event.code >= 4000 ? `rejected by the SDK: ${event.reason}` : undefined;
    scheduleRetry(reason);
  };
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

async function onMessage(ws, data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return;
  }
  if (message.type === "welcome") {
    backoff = MIN_BACKOFF_MS;
    setStatus({ state: "connected" });
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
    settings().then(({ token, port }) => reply({ status, token, port }));
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

// A new port or token (from the popup, or a test): close the socket; its close handler retries at
// once with the new settings. Writing the first generated token changes nothing.
chrome.storage.onChanged.addListener(async (changes, area) => {
  if (area !== "local" || !(changes.port || changes.token)) return;
  const { token, port } = await settings();
  if (current && current.token === token && current.port === port) return;
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
