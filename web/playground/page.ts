/**
 * The playground's one page: the live screen, the call form, the model in use and the result.
 * Inline HTML, CSS and script (nothing from a CDN); everything that comes from data is set
 * through `textContent` or element properties, never parsed as HTML.
 *
 * @module
 */

const STYLE = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d2330; background: #f3f5f9; }
body { margin: 0; }
header { display: flex; gap: 16px; align-items: baseline; padding: 10px 16px; background: #1d2330; color: #fff; }
header h1 { font-size: 16px; margin: 0; }
header .target { opacity: .8; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(300px, 2fr); gap: 16px; padding: 16px; align-items: start; }
.card { background: #fff; border: 1px solid #d8dde8; border-radius: 8px; padding: 12px; }
.screen { position: relative; line-height: 0; background: #e6e9f0; min-height: 200px; }
.screen img { width: 100%; height: auto; display: block; }
#locate-box { position: absolute; border: 3px solid #e5366f; background: rgba(229, 54, 111, .15); box-sizing: border-box; pointer-events: none; }
#screen-status { font-size: 12px; color: #5d6680; margin-top: 6px; }
form { display: grid; gap: 8px; }
label { font-weight: 600; font-size: 12px; color: #5d6680; }
select, textarea, input, button { font: inherit; padding: 6px 8px; border: 1px solid #c3cad9; border-radius: 6px; }
textarea { min-height: 70px; resize: vertical; }
button { background: #2f6fed; color: #fff; border: 0; cursor: pointer; font-weight: 600; }
button:disabled { background: #9db6ea; cursor: progress; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; }
dt { color: #5d6680; }
dd { margin: 0; overflow-wrap: anywhere; }
.intent { font-weight: 600; margin-top: 6px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f7fb; padding: 8px; border-radius: 6px; margin: 6px 0 0; max-height: 320px; overflow: auto; }
.ok { color: #177a3d; font-weight: 600; }
.failed { color: #c0233b; font-weight: 600; }
.error { color: #c0233b; }
[hidden] { display: none !important; }
aside { display: grid; gap: 16px; align-content: start; }
h2 { font-size: 13px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .04em; color: #5d6680; }
`;

const SCRIPT = `
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const api = (path, init = {}) =>
  fetch(path, { ...init, headers: { ...(init.headers || {}), "x-playground-token": token } });
let apis = [];
let frames = 0;
let locate = null;

function showBox() {
  const box = $("locate-box");
  if (!locate) { box.hidden = true; return; }
  const w = locate.screen.width * locate.screen.dpr, h = locate.screen.height * locate.screen.dpr;
  const r = locate.value.rect;
  box.style.left = (100 * r.left / w) + "%";
  box.style.top = (100 * r.top / h) + "%";
  box.style.width = (100 * r.width / w) + "%";
  box.style.height = (100 * r.height / h) + "%";
  box.hidden = false;
}

function showInfo(info) {
  $("target").textContent = info.target;
  const model = $("model");
  model.replaceChildren();
  if (info.model.error) {
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = info.model.error;
    model.append(p);
  }
  for (const m of info.model.models) {
    const head = document.createElement("div");
    head.className = "intent";
    head.textContent = m.intent === "default" ? "Model" : m.intent + " model";
    const dl = document.createElement("dl");
    for (const [k, v] of [["family", m.family], ["name", m.modelName], ["base URL", m.baseURL]]) {
      const dt = document.createElement("dt");
      dt.textContent = k;
      const dd = document.createElement("dd");
      dd.textContent = v;
      dl.append(dt, dd);
    }
    model.append(head, dl);
  }
}

async function loadInfo() {
  const res = await api("/api/info");
  if (!res.ok) throw new Error((await res.json()).error);
  const info = await res.json();
  if (!apis.length) {
    apis = info.apis;
    for (const a of apis) $("api").append(new Option(a.name, a.name));
    updateForm();
  }
  showInfo(info);
}

function updateForm() {
  const chosen = apis.find((a) => a.name === $("api").value);
  $("value-row").hidden = !(chosen && chosen.value);
}

function showResult(r) {
  $("result").hidden = false;
  $("result-status").textContent = r.ok ? "passed" : "failed";
  $("result-status").className = r.ok ? "ok" : "failed";
  $("result-api").textContent = r.api;
  $("duration").textContent = (r.durationMs / 1000).toFixed(2) + " s";
  $("result-value").hidden = !("value" in r);
  $("result-value").textContent = "value" in r ? JSON.stringify(r.value, null, 2) : "";
  $("result-error").hidden = !r.error;
  $("result-error").textContent = r.error ? r.error.name + ": " + r.error.message : "";
  $("report-link").hidden = !r.reportUrl;
  if (r.reportUrl) $("report-link").href = r.reportUrl;
  locate = r.ok && r.api === "aiLocate" && r.screen ? r : null;
  showBox();
}

async function submit(event) {
  event.preventDefault();
  const body = { api: $("api").value, prompt: $("prompt").value };
  if (!$("value-row").hidden) body.value = $("value").value;
  $("run").disabled = true;
  $("busy").hidden = false;
  try {
    const res = await api("/api/call", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.ok) showResult(answer);
    else showResult({ api: body.api, ok: false, durationMs: 0, error: { name: "HTTP " + res.status, message: answer.error } });
    // The call may have moved the target to another page: refresh its address, without holding
    // the form back for it.
    loadInfo().catch(() => {});
  } catch (e) {
    showResult({ api: body.api, ok: false, durationMs: 0, error: { name: "Error", message: String(e.message || e) } });
  } finally {
    $("run").disabled = false;
    $("busy").hidden = true;
  }
}

function watchScreen() {
  const source = new EventSource("/api/screen?token=" + encodeURIComponent(token));
  source.addEventListener("frame", (event) => {
    const frame = JSON.parse(event.data);
    $("screen").src = "data:image/" + frame.format + ";base64," + frame.data;
    frames += 1;
    $("screen").dataset.frames = String(frames);
    $("screen-status").textContent = "live: frame " + frames + " at " + new Date(frame.timestamp).toLocaleTimeString();
  });
  source.addEventListener("error", () => {
    $("screen-status").textContent = "the screen stream is interrupted; reconnecting...";
  });
}

$("api").addEventListener("change", updateForm);
$("call").addEventListener("submit", submit);
loadInfo().catch((e) => { $("target").textContent = "cannot load: " + e.message; });
watchScreen();
`;

/** The page, as served at `/`. */
export const PLAYGROUND_PAGE: string = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>SDK playground</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>SDK playground</h1><span class="target" id="target">loading...</span></header>
<main>
  <section class="card">
    <h2>Screen</h2>
    <div class="screen"><img id="screen" alt="the target's screen" data-frames="0"><div id="locate-box" hidden></div></div>
    <div id="screen-status">waiting for the first frame...</div>
  </section>
  <aside>
    <section class="card">
      <h2>Call</h2>
      <form id="call">
        <label for="api">API</label>
        <select id="api" name="api"></select>
        <label for="prompt">Prompt</label>
        <textarea id="prompt" name="prompt" required placeholder="e.g. the Sign in button"></textarea>
        <div id="value-row" hidden>
          <label for="value">Value to type</label>
          <input id="value" name="value" autocomplete="off">
        </div>
        <button id="run" type="submit">Run</button>
        <span id="busy" hidden>running...</span>
      </form>
    </section>
    <section class="card" id="result" hidden>
      <h2>Result</h2>
      <div><span id="result-api"></span> <span id="result-status"></span> in <span id="duration"></span></div>
      <pre id="result-value" hidden></pre>
      <pre id="result-error" class="error" hidden></pre>
      <p><a id="report-link" target="_blank" rel="noopener noreferrer" hidden>Open the report of this call</a></p>
    </section>
    <section class="card">
      <h2>Model in use</h2>
      <div id="model"></div>
    </section>
  </aside>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
