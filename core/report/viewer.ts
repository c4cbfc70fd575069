/**
 * The report viewer: one self-contained HTML page (inline CSS and vanilla JS, no requests) that
 * reads the data tags appended after it (see `_format.ts`) and renders them. It opens from
 * `file://`. Data only ever reaches the DOM through `textContent` and attributes, never as HTML.
 *
 * It stays fast and small in memory on long runs: a step's body and screenshot exist only while
 * the step is near the viewport (at most a few dozen at a time), timeline thumbnails only while
 * near the strip's view, and the execution list is laid out only where it is seen
 * (`bench/report_viewer.ts` measures a 500-step report).
 *
 * The page's script is this file's core (data, list, detail) plus one fragment per feature, all
 * in one function scope: `viewer_filter.ts` (status, API and search filters), `viewer_timeline.ts`
 * (the strip of thumbnails), `viewer_replay.ts` (the replay with its moving pointer) and
 * `viewer_nav.ts` (the current step, deep links, keys and the help overlay).
 *
 * @module
 */

import { escapeHtml } from "./_format.ts";
import { FILTER_SCRIPT, FILTER_STYLE } from "./viewer_filter.ts";
import { NAV_SCRIPT, NAV_STYLE } from "./viewer_nav.ts";
import { REPLAY_SCRIPT, REPLAY_STYLE } from "./viewer_replay.ts";
import { TIMELINE_SCRIPT, TIMELINE_STYLE } from "./viewer_timeline.ts";

/** Styles of the page, the list and the step cards. */
const BASE_STYLE = String.raw`
:root{--bg:#f3f4f6;--card:#fff;--line:#e3e6ea;--text:#1c2024;--muted:#646b75;--accent:#3b5bdb;
--ok:#1a7f37;--ok-bg:#e6f4ea;--bad:#c9252d;--bad-bg:#fdecec;--run:#9a6700;--run-bg:#fff4d6;
--mark:#ff2d78;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{position:sticky;top:0;z-index:5;display:flex;align-items:center;gap:24px;padding:12px 24px;background:#1d2330;color:#fff;min-height:64px}
header .eyebrow{font-size:11px;letter-spacing:.08em;text-transform:uppercase;color:#9aa4b8}
header h1{margin:0;font-size:17px;font-weight:600;word-break:break-all}
.chips{display:flex;flex-wrap:wrap;gap:6px}
.chip{display:inline-flex;gap:5px;align-items:center;padding:2px 9px;border-radius:999px;background:#2c3446;color:#dfe4ee;font-size:12px;white-space:nowrap}
.chip b{font-weight:600;color:#fff}
.summary{margin-left:auto;display:flex;gap:14px;font-size:13px;color:#cfd6e4;white-space:nowrap}
.summary .n{font-weight:700;color:#fff}.summary .ok{color:#7ee2a0}.summary .bad{color:#ff9a9f}
.layout{display:grid;grid-template-columns:340px minmax(0,1fr);align-items:start;min-height:calc(100vh - 64px)}
aside{align-self:stretch;border-right:1px solid var(--line);background:#fafbfc}
nav{position:sticky;top:64px;max-height:calc(100vh - 64px);overflow:auto;padding:12px}
nav input{width:100%;padding:7px 10px;border:1px solid var(--line);border-radius:8px;font:inherit;margin-bottom:10px;background:#fff}
.ex{display:block;width:100%;text-align:left;font:inherit;color:inherit;background:var(--card);border:1px solid var(--line);border-left:4px solid var(--muted);border-radius:8px;padding:9px 11px;margin-bottom:8px;cursor:pointer;content-visibility:auto;contain-intrinsic-size:auto 86px}
.ex:hover{border-color:#c5cbd3}.ex.sel{box-shadow:0 0 0 2px var(--accent);border-color:var(--accent)}
.ex.passed{border-left-color:var(--ok)}.ex.failed{border-left-color:var(--bad)}.ex.running{border-left-color:#e0a400}
.ex-top{display:flex;align-items:center;gap:8px}
.api{font-family:var(--mono);font-weight:650;font-size:13px}
.ex .prompt{margin:3px 0 5px;color:#363c44;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden;word-break:break-word}
.meta{display:flex;flex-wrap:wrap;gap:4px 12px;font-size:12px;color:var(--muted)}
.pill{display:inline-block;padding:0 8px;border-radius:999px;font-size:11.5px;font-weight:600;line-height:19px;text-transform:uppercase;letter-spacing:.03em;background:#eceef1;color:var(--muted)}
.ex-top .pill,.step-head .pill{margin-left:auto}
.pill.passed{background:var(--ok-bg);color:var(--ok)}.pill.failed{background:var(--bad-bg);color:var(--bad)}.pill.running{background:var(--run-bg);color:var(--run)}
.frozen{display:inline-block;padding:0 7px;border-radius:999px;font-size:11.5px;font-weight:600;line-height:19px;background:#e0f0ff;color:#0b5cad;border:1px solid #b6dcff}
main{padding:20px 24px 48px;min-width:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px}
.exhead{padding:16px 18px;margin-bottom:16px}
.exhead .row{display:flex;align-items:center;gap:10px;flex-wrap:wrap}
.exhead .api{font-size:16px}
.exhead .prompt{margin:8px 0 10px;font-size:15px;white-space:pre-wrap;word-break:break-word}
.facts{display:flex;flex-wrap:wrap;gap:6px 26px;margin:0}
.pimgs{display:flex;flex-wrap:wrap;gap:12px;margin-bottom:10px}.pimgs img{display:block;max-width:160px;max-height:120px;border:1px solid var(--line);border-radius:6px}.pimgs a{font-family:var(--mono);font-size:12px;word-break:break-all}
.facts div{display:flex;flex-direction:column}
.facts dt{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.facts dd{margin:0;font-weight:600}
.err{margin-top:10px;padding:8px 11px;border-radius:7px;background:var(--bad-bg);color:#8c1119;border:1px solid #f5c2c5;white-space:pre-wrap;word-break:break-word;font-family:var(--mono);font-size:12.5px}
.label{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:10px 0 3px;font-weight:600}
pre{margin:0;padding:8px 10px;background:#f6f8fa;border:1px solid #edf0f3;border-radius:7px;font:12px/1.45 var(--mono);white-space:pre-wrap;word-break:break-word;max-height:320px;overflow:auto}
ol.steps{list-style:none;margin:0;padding:0}
.step{margin-bottom:12px;overflow:hidden}
.step.failed{border-color:#f0b4b8}
.step-head{display:flex;align-items:center;gap:10px;padding:9px 14px;border-bottom:1px solid var(--line);background:#fbfbfc}
.idx{flex:none;width:22px;height:22px;border-radius:50%;background:#e9ecf1;color:#4a515b;font-size:11.5px;font-weight:700;display:grid;place-items:center}
.kind{flex:none;font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.05em;padding:1px 7px;border-radius:5px;background:#eef0f3;color:#4a515b}
.k-Planning{background:#efe9ff;color:#5b3cc4}.k-Locate{background:#e5efff;color:#1f5fc9}.k-Action{background:#e2f5ec;color:#17754a}
.k-Extract{background:#fff0e0;color:#a35200}.k-Assert{background:#ffe9f1;color:#b0245c}.k-Observed{background:#e3f6f8;color:#0b6e7a}
.step-head .title{font-weight:600;word-break:break-word}
.dur{font-size:12px;color:var(--muted);white-space:nowrap}
.step-body{display:grid;grid-template-columns:minmax(0,1fr);gap:18px;padding:12px 14px 14px}
.step-body.has-shot{grid-template-columns:minmax(0,1fr) minmax(0,1.35fr)}
.step-body .info>.label:first-child{margin-top:0}
.thought{margin:0;padding:7px 11px;border-left:3px solid #b9c3d3;background:#f7f8fa;border-radius:0 7px 7px 0;white-space:pre-wrap;word-break:break-word}
.usage{display:flex;flex-wrap:wrap;gap:6px}
.usage span{font-size:12px;padding:1px 8px;border-radius:6px;background:#f1f3f5;color:#3d444d}
.usage b{font-weight:650}.usage span.soft{background:none;color:var(--muted);padding:1px 2px}
details{margin-top:10px}
.tries{margin:0;padding-left:22px}.tries li{margin-bottom:6px}.tries .err{margin:0 0 4px}
summary{cursor:pointer;font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:600;margin-bottom:4px}
figure{margin:0;min-width:0}
.shot{position:relative;display:inline-block;max-width:100%;vertical-align:top;cursor:zoom-in;border:1px solid var(--line);border-radius:6px;overflow:hidden;line-height:0}
.shot img{display:block;max-width:100%;max-height:560px;width:auto;height:auto}
.box{position:absolute;border:2px solid var(--mark);background:rgba(255,45,120,.14);box-shadow:0 0 0 1px rgba(255,255,255,.8);border-radius:3px;pointer-events:none}
.pt{position:absolute;width:14px;height:14px;margin:-7px 0 0 -7px;border-radius:50%;background:var(--mark);border:2px solid #fff;box-shadow:0 0 0 1px rgba(0,0,0,.35);pointer-events:none}
figcaption{font-size:12px;color:var(--muted);margin-top:4px;font-family:var(--mono)}
.empty{padding:48px;text-align:center;color:var(--muted)}
.muted{color:var(--muted)}
.lightbox{position:fixed;inset:0;z-index:10;background:rgba(10,12,16,.86);display:grid;place-items:center;cursor:zoom-out}
.lightbox .shot{cursor:zoom-out;border:0}.lightbox .shot img{max-width:96vw;max-height:94vh}
.replay-btn{margin-left:auto;padding:4px 12px;border:1px solid var(--accent);border-radius:7px;background:#fff;color:var(--accent);font:inherit;font-size:13px;font-weight:600;cursor:pointer}
.replay-btn:hover{background:#eef1ff}
.step{scroll-margin-top:80px}
.step.cur{border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}
.step.hit .step-head{background:#fff6d6}
.retry{flex:none;font-size:11px;font-weight:700;padding:1px 7px;border-radius:5px;background:#fff0e0;color:#a35200}
.try{margin-bottom:12px}.try-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap;margin-bottom:2px}.try-n{font-weight:650}
.try .label{margin-top:6px}
[hidden]{display:none!important}
@media (max-width:900px){.layout{grid-template-columns:1fr}aside{border-right:0;border-bottom:1px solid var(--line)}nav{position:static;max-height:40vh}.step-body.has-shot{grid-template-columns:1fr}header{flex-wrap:wrap}.summary{margin-left:0}}
`;

/**
 * The core of the viewer's script: reading the data tags, the header, the execution list and the
 * detail of one execution with its lazily built step cards. Plain ES2017, no template literals
 * (this is a `String.raw` constant); it shares one function scope with the fragments of the
 * `viewer_*.ts` files (see {@link VIEWER_SCRIPT}).
 */
const CORE_SCRIPT = String.raw`
var DATA_SRC = /^data:image\/(png|jpe?g|webp|gif);base64,[A-Za-z0-9+\/=\r\n]*$/i;
var FILE_SRC = /^screenshots\/[A-Za-z0-9._-]+$/;
var STATUSES = { passed: 1, failed: 1, running: 1 };

function parse() {
  var meta = {};
  var metaEl = document.querySelector('script[type="sdk-meta"]');
  if (metaEl) { try { meta = JSON.parse(metaEl.textContent) || {}; } catch (e) { meta = {}; } }
  var shots = new Map();
  document.querySelectorAll('script[type="sdk-screenshot"]').forEach(function (el) {
    var id = el.getAttribute("data-id");
    if (id) shots.set(id, el);
  });
  var byId = new Map();
  document.querySelectorAll('script[type="sdk-execution"]').forEach(function (el) {
    var p;
    try { p = JSON.parse(el.textContent); } catch (e) { return; } // truncated tail
    if (!p || typeof p.id !== "string") return;
    var from = p.stepsFrom, prev = byId.get(p.id);
    delete p.stepsFrom;
    if (!Array.isArray(p.steps)) p.steps = [];
    if (from && prev) p.steps = prev.steps.slice(0, from).concat(p.steps);
    byId.set(p.id, p);
  });
  return { meta: meta, executions: Array.from(byId.values()), shots: shots };
}

function h(tag, props) {
  var el = document.createElement(tag);
  if (props) Object.keys(props).forEach(function (k) {
    var v = props[k];
    if (v == null || v === false) return;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = String(v);
    else if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  });
  for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
  return el;
}
function add(el, kid) {
  if (kid == null || kid === false) return;
  if (Array.isArray(kid)) kid.forEach(function (k) { add(el, k); });
  else el.appendChild(typeof kid === "object" ? kid : document.createTextNode(String(kid)));
}

function status(s) { return STATUSES[s] ? s : "unknown"; }
function fin(v) { return typeof v === "number" && isFinite(v); }
function ms(v) {
  if (!(v >= 0)) return "";
  if (v < 1000) return Math.round(v) + " ms";
  var s = v / 1000;
  if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + " s";
  var m = Math.floor(s / 60);
  return m + " min " + Math.round(s - m * 60) + " s";
}
function duration(o) {
  if (typeof o.endedAt === "number" && typeof o.startedAt === "number") return ms(o.endedAt - o.startedAt);
  return o.status === "running" ? "running" : "";
}
function num(n) { return typeof n === "number" && isFinite(n) ? n.toLocaleString("en-US") : "0"; }
function when(t) {
  if (typeof t !== "number") return "";
  var d = new Date(t);
  return isNaN(d.getTime()) ? "" : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}
function tokens(ex) {
  var t = 0;
  ex.steps.forEach(function (s) { if (s && s.usage && typeof s.usage.totalTokens === "number") t += s.usage.totalTokens; });
  return t;
}
function text(v) { return typeof v === "string" ? v : v == null ? "" : JSON.stringify(v, null, 2); }
function pill(s) { return h("span", { class: "pill " + status(s), text: s == null ? "" : String(s) }); }
function kind(s) { return h("span", { class: "kind k-" + String(s.kind).replace(/[^A-Za-z]/g, ""), text: s.kind }); }
function frozen(ex) {
  return ex.frozenContext ? h("span", { class: "frozen", title: "Ran on a frozen page context (freezePageContext): the model saw one snapshot", text: "\u2744 frozen context" }) : null;
}

function promptImages(ex) {
  if (!Array.isArray(ex.promptImages) || !ex.promptImages.length) return null;
  return [h("div", { class: "label", text: "Prompt images" }), h("div", { class: "pimgs" }, ex.promptImages.map(function (im) {
    im = im || {};
    var src = shotSrc(im.screenshot), link = typeof im.url === "string" && /^https?:\/\//i.test(im.url) ? im.url : null;
    return h("figure", { class: "pimg" },
      src ? h("img", { src: src, alt: "prompt image " + text(im.name) })
        : link ? h("a", { href: link, target: "_blank", rel: "noopener noreferrer", text: link })
        : h("div", { class: "muted", text: "Image not in this report." }),
      h("figcaption", { text: text(im.name) }));
  }))];
}

var data, selected = null;

function shotSrc(id) {
  var el = typeof id === "string" && data.shots.get(id);
  if (!el) return null;
  var src = el.getAttribute("data-src");
  if (src != null) return FILE_SRC.test(src) ? src : null;
  src = el.textContent.trim();
  return DATA_SRC.test(src) ? src : null;
}

// The size of each screenshot by id, from the steps that recorded it: an Action step on its
// Locate step's screenshot records none, and its marks are in that same image's pixels.
var shotSizes = new Map();
function sized(z) { return z && z.width > 0 && z.height > 0 ? z : null; }
function indexSizes() {
  data.executions.forEach(function (ex) {
    ex.steps.forEach(function (s) {
      if (s && typeof s.screenshot === "string" && sized(s.screenshotSize)) shotSizes.set(s.screenshot, s.screenshotSize);
    });
  });
}
function sizeOf(s) { return s && (sized(s.screenshotSize) || shotSizes.get(s.screenshot)) || null; }

function header() {
  var m = data.meta, ex = data.executions;
  var passed = ex.filter(function (e) { return e.status === "passed"; }).length;
  var failed = ex.filter(function (e) { return e.status === "failed"; }).length;
  var tok = ex.reduce(function (a, e) { return a + tokens(e); }, 0);
  var hdr = document.getElementById("hdr");
  hdr.textContent = "";
  add(hdr, [
    h("div", null, h("div", { class: "eyebrow", text: "UI automation report" }), h("h1", { text: m.name || "report" })),
    h("div", { class: "chips" },
      m.sdkVersion ? h("span", { class: "chip" }, "SDK ", h("b", { text: m.sdkVersion })) : null,
      m.interfaceType ? h("span", { class: "chip" }, "interface ", h("b", { text: m.interfaceType })) : null,
      m.createdAt ? h("span", { class: "chip", text: when(m.createdAt) }) : null),
    h("div", { class: "summary" },
      h("span", null, h("span", { class: "n", text: ex.length }), ex.length === 1 ? " execution" : " executions"),
      h("span", { class: "ok" }, h("span", { class: "n", text: passed }), " passed"),
      h("span", { class: failed ? "bad" : "" }, h("span", { class: "n", text: failed }), " failed"),
      h("span", null, h("span", { class: "n", text: num(tok) }), " tokens")),
    h("button", { class: "help-btn", type: "button", title: "Keyboard shortcuts (?)", "aria-label": "Keyboard shortcuts", text: "?", onclick: toggleHelp })
  ]);
  if (m.name) document.title = m.name;
}

// The execution list: built once (and again when a filter changes); selecting only moves the
// mark. Off-screen entries cost no layout (content-visibility), so a list of thousands stays cheap.
var buttons = new Map();
function list() {
  var box = document.querySelector("#list .items");
  box.textContent = "";
  buttons = new Map();
  var shown = 0;
  data.executions.forEach(function (ex) {
    if (!matches(ex)) return;
    shown++;
    var n = ex.steps.length;
    var b = h("button", { class: "ex " + status(ex.status) + (ex === selected ? " sel" : ""), type: "button",
      "data-id": ex.id, onclick: function () { go(ex, -1, true); } },
      h("div", { class: "ex-top" }, h("span", { class: "api", text: ex.apiName }), frozen(ex), pill(ex.status)),
      h("div", { class: "prompt", text: text(ex.prompt), title: text(ex.prompt) }),
      h("div", { class: "meta" }, h("span", { text: duration(ex) }), h("span", { text: num(tokens(ex)) + " tokens" }),
        h("span", { text: n + (n === 1 ? " step" : " steps") })));
    buttons.set(ex, b);
    add(box, b);
  });
  if (!box.firstChild) add(box, h("div", { class: "empty", text: data.executions.length ? "No match." : "No executions recorded yet." }));
  filterCount(shown);
}
function mark(user) {
  buttons.forEach(function (b, ex) { b.classList.toggle("sel", ex === selected); });
  var b = buttons.get(selected);
  if (user && b) b.scrollIntoView({ block: "nearest" });
}

// Draws a step's target box and click point on its screenshot. Marks are in the stored image's
// pixels, so they are placed as fractions of its size and scale with it however it is shown.
function overlay(wrap, img, step, size) {
  function place() {
    var w = size && size.width || img.naturalWidth, hh = size && size.height || img.naturalHeight;
    if (!w || !hh) return;
    var r = step.target;
    if (r && [r.left, r.top, r.width, r.height].every(fin)) {
      var b = h("div", { class: "box" });
      b.style.left = (r.left / w * 100) + "%"; b.style.top = (r.top / hh * 100) + "%";
      b.style.width = (r.width / w * 100) + "%"; b.style.height = (r.height / hh * 100) + "%";
      wrap.appendChild(b);
    }
    var p = step.point;
    if (Array.isArray(p) && fin(p[0]) && fin(p[1])) {
      var d = h("div", { class: "pt" });
      d.style.left = (p[0] / w * 100) + "%"; d.style.top = (p[1] / hh * 100) + "%";
      wrap.appendChild(d);
    }
  }
  if (size) place(); else img.addEventListener("load", place, { once: true });
}

function screenshot(step, big) {
  var src = shotSrc(step.screenshot);
  if (!src) return step.screenshot ? h("div", { class: "muted", text: "Screenshot not in this report." }) : null;
  var size = sizeOf(step);
  var img = h("img", { alt: "screenshot of step", loading: big ? null : "lazy", decoding: "async" });
  var wrap = h("div", { class: "shot" }, img);
  img.src = src;
  overlay(wrap, img, step, size);
  if (big) return wrap;
  wrap.addEventListener("click", function () { lightbox(step); });
  var r = step.target, cap = [];
  if (size) cap.push(size.width + "\u00d7" + size.height);
  if (r) cap.push("target " + Math.round(r.left) + "," + Math.round(r.top) + " " + Math.round(r.width) + "\u00d7" + Math.round(r.height));
  if (Array.isArray(step.point)) cap.push("point " + Math.round(step.point[0]) + "," + Math.round(step.point[1]));
  return h("figure", null, wrap, cap.length ? h("figcaption", { text: cap.join("  \u00b7  ") }) : null);
}

function lightbox(step) {
  var lb = h("div", { class: "lightbox", onclick: function () { lb.remove(); } }, screenshot(step, true));
  document.body.appendChild(lb);
}

function usage(u) {
  function c(label, v) { return h("span", null, label + " ", h("b", { text: num(v) })); }
  return h("div", { class: "usage" }, c("prompt", u.promptTokens), c("completion", u.completionTokens),
    c("cached", u.cachedInputTokens), c("total", u.totalTokens),
    u.modelName ? h("span", { class: "soft", text: u.modelName }) : null,
    typeof u.timeCostMs === "number" ? h("span", { class: "soft", text: ms(u.timeCostMs) }) : null);
}

function retried(s) { return Array.isArray(s.attempts) && s.attempts.length > 1; }

// Every model call of a step whose unusable answer was retried: each raw answer and the problem
// with it. Open when the step failed.
function attempts(s) {
  var calls = Array.isArray(s.attempts) ? s.attempts : [];
  if (!retried(s) && !(calls[0] && calls[0].error)) return null;
  var bad = calls.filter(function (a) { return a && a.error; }).length;
  return h("details", { class: "attempts", open: s.status === "failed" },
    h("summary", { text: "Model calls (" + calls.length + ")" + (bad ? ", " + bad + " unusable" : "") }),
    h("ol", { class: "tries" }, calls.map(function (a, k) {
      a = a || {};
      return h("li", { class: "try " + (a.error ? "bad" : "ok") },
        h("div", { class: "try-head" }, h("span", { class: "try-n", text: "Call " + (k + 1) }),
          h("span", { class: "pill " + (a.error ? "failed" : "passed"), text: a.error ? "unusable" : "used" }),
          a.usage ? usage(a.usage) : null),
        h("div", { class: "label", text: "Raw answer" }), h("pre", { class: "raw", text: text(a.rawResponse) }),
        a.error ? [h("div", { class: "label", text: "Problem" }), h("div", { class: "err", text: text(a.error) })] : null);
    })));
}

function stepBody(s) {
  var shot = screenshot(s, false);
  var info = h("div", { class: "info" },
    s.thought ? [h("div", { class: "label", text: "Thought" }), h("p", { class: "thought", text: text(s.thought) })] : null,
    s.param !== undefined ? [h("div", { class: "label", text: "Params" }), h("pre", { text: text(s.param) })] : null,
    s.usage ? [h("div", { class: "label", text: "Tokens" }), usage(s.usage)] : null,
    s.error ? h("div", { class: "err", text: text(s.error) }) : null,
    s.rawResponse ? h("details", null, h("summary", { text: "Raw response" }), h("pre", { text: text(s.rawResponse) })) : null,
    attempts(s));
  if (!info.firstChild && !shot) info = null;
  return info || shot ? h("div", { class: "step-body" + (shot ? " has-shot" : "") }, info || h("div"), shot) : null;
}

// A long execution stays light: every step gets its head, but its body (text and screenshot) is
// built only near the viewport. Once more than KEEP bodies exist, those far away are dropped
// again, images with them, keeping their height so nothing moves. The first EAGER are built at
// once, so a short execution is complete from the start.
var EAGER = 16, KEEP = 24, NEAR = "150% 0px";
var view = null;

function stepCard(s, i, est) {
  s = s || {};
  var li = h("li", { class: "card step " + status(s.status) + (stepHit(s) ? " hit" : ""), "data-step": i + 1 },
    h("div", { class: "step-head" }, h("span", { class: "idx", text: i + 1 }), kind(s),
      h("span", { class: "title", text: text(s.title) }),
      retried(s) ? h("span", { class: "retry", title: "The model's answer could not be used and was asked for again", text: s.attempts.length + " calls" }) : null,
      pill(s.status), h("span", { class: "dur", text: duration(s) })));
  li.sdkStep = s;
  if (s.screenshot || s.thought || s.param !== undefined || s.usage || s.error || s.rawResponse) {
    var z = sizeOf(s), r = z ? z.height / z.width : 0.625;
    li.style.minHeight = Math.round(s.screenshot ? Math.min(560, est * r) + 90 : 140) + "px";
  }
  return li;
}

function fill(li) {
  if (li.sdkBody !== undefined) return;
  var body = li.sdkBody = stepBody(li.sdkStep);
  if (body) {
    var open = li.sdkOpen || [];
    body.querySelectorAll("details").forEach(function (d, k) { if (k in open) d.open = open[k]; });
    li.appendChild(body);
  }
  li.style.minHeight = "";
  view.filled++;
  view.far.delete(li);
  while (view.filled > KEEP && view.far.size) release(view.far.values().next().value);
}

function release(li) {
  var body = li.sdkBody;
  view.far.delete(li);
  if (body === undefined) return;
  if (body) {
    li.style.minHeight = li.getBoundingClientRect().height + "px";
    li.sdkOpen = Array.prototype.map.call(body.querySelectorAll("details"), function (d) { return d.open; });
    body.querySelectorAll("img").forEach(function (img) { img.removeAttribute("src"); });
    body.remove();
  }
  li.sdkBody = undefined;
  view.filled--;
}

function steps(main, ex) {
  var ol = h("ol", { class: "steps" });
  add(main, ol);
  var est = Math.max(200, (main.clientWidth - 48) * 0.57);
  var cards = view.cards = ex.steps.map(function (s, i) { return stepCard(s, i, est); });
  add(ol, cards);
  cards.slice(0, EAGER).forEach(fill);
  if (typeof IntersectionObserver !== "function") { cards.forEach(fill); return; }
  var v = view;
  v.io = new IntersectionObserver(function (entries) {
    if (view !== v) return;
    entries.forEach(function (e) {
      if (e.isIntersecting) fill(e.target);
      else if (e.target.sdkBody !== undefined) v.far.add(e.target);
    });
    while (v.filled > KEEP && v.far.size) release(v.far.values().next().value);
  }, { rootMargin: NEAR });
  cards.forEach(function (li) { v.io.observe(li); });
}

function detail(filtered) {
  var main = document.getElementById("detail");
  if (view) { if (view.io) view.io.disconnect(); stripStop(view.strip); }
  view = null;
  main.textContent = "";
  var ex = selected;
  if (!ex) {
    add(main, h("div", { class: "empty", text: filtered ? "No execution matches the filters." : "No executions recorded yet." }));
    return;
  }
  function fact(k, v) { return h("div", null, h("dt", { text: k }), h("dd", { text: v })); }
  add(main, h("section", { class: "card exhead" },
    h("div", { class: "row" }, h("span", { class: "api", text: ex.apiName }), pill(ex.status), frozen(ex),
      ex.steps.length ? h("button", { class: "replay-btn", type: "button", title: "Replay the steps (r)", text: "\u25b6 Replay", onclick: replayOpen }) : null),
    h("p", { class: "prompt", text: text(ex.prompt) }),
    promptImages(ex),
    h("dl", { class: "facts" }, fact("Started", when(ex.startedAt)), fact("Duration", duration(ex) || "\u2013"),
      fact("Tokens", num(tokens(ex))), fact("Steps", String(ex.steps.length))),
    ex.error ? h("div", { class: "err", text: text(ex.error) }) : null,
    ex.output !== undefined ? [h("div", { class: "label", text: "Output" }), h("pre", { text: text(ex.output) })] : null));
  var strip = timeline(ex, function (i) { go(ex, i, true); });
  if (strip) add(main, h("section", { class: "card tl" }, h("div", { class: "label", text: "Timeline" }), strip));
  view = { filled: 0, far: new Set(), io: null, cards: [], strip: strip };
  steps(main, ex);
  if (fl.q) showHits();
}

function select(ex, user) {
  selected = ex;
  detail();
  mark(user);
}

function start() {
  data = parse();
  indexSizes();
  var target = fromHash(location.hash);
  selected = target ? target.ex : data.executions[0] || null;
  header();
  add(document.getElementById("list"), [filterBar(), h("div", { class: "items" })]);
  list();
  detail();
  if (target) go(target.ex, target.i, true);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", function () {
    var t = fromHash(location.hash);
    if (t) go(t.ex, t.i, true);
  });
}

Object.defineProperty(window, "__SDK_REPORT__", { configurable: true, get: function () {
  var d = parse();
  return { meta: d.meta, executions: d.executions, screenshotIds: Array.from(d.shots.keys()) };
} });
document.addEventListener("DOMContentLoaded", start);
`;

/** The viewer's stylesheet: the page's own, then each feature's, one rule after another. */
const VIEWER_STYLE: string = (BASE_STYLE + FILTER_STYLE + TIMELINE_STYLE + REPLAY_STYLE +
  NAV_STYLE).replace(/}\n/g, "}");

/**
 * The viewer's script: the core and the feature fragments in one strict-mode function. It parses
 * the data tags once on `DOMContentLoaded` and exposes the data as `window.__SDK_REPORT__` (a
 * getter that parses again, for tests and for reports still growing).
 *
 * Every report carries it, so it is shipped without its whole-line comments, its indentation and
 * the line breaks after `{`, `,`, `(` and `;` (about 5 KB less); the fragments hold no template
 * literal or multi-line string that this could change, and no statement that relies on a line
 * break (the viewer tests parse and run the result).
 */
const VIEWER_SCRIPT: string = `
(function () {
"use strict";
${CORE_SCRIPT}${FILTER_SCRIPT}${TIMELINE_SCRIPT}${REPLAY_SCRIPT}${NAV_SCRIPT}})();
`.replace(/^[ \t]*\/\/.*\n/gm, "").replace(/^[ \t]+/gm, "").replace(/([{,(;])\n/g, "$1");

/** Options of {@link viewerPage}. */
export interface ViewerPageOptions {
  /** Page title (the report name); escaped here. */
  title: string;
  /**
   * `sha256-...` hash of {@link VIEWER_SCRIPT}, for a Content-Security-Policy that lets only the
   * viewer's own script run, so even a data escaping bug could not run injected script. Without
   * it the policy allows inline script.
   */
  scriptHash?: string;
  /** Whether screenshots are external files (`html-and-external-assets`) rather than data URIs. */
  externalAssets?: boolean;
}

/**
 * The viewer page up to where the data tags start. Deliberately left open (no `</body>`): data
 * tags are appended after it and browsers close the document themselves.
 */
export function viewerPage(options: ViewerPageOptions): string {
  const script = options.scriptHash ? `'${options.scriptHash}'` : "'unsafe-inline'";
  const img = options.externalAssets ? "data: file: http: https:" : "data:";
  const csp = `default-src 'none'; script-src ${script}; style-src 'unsafe-inline'; img-src ${img}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="@sdk/core report">
<title>${escapeHtml(options.title)}</title>
<style>${VIEWER_STYLE}</style>
<script>${VIEWER_SCRIPT}</script>
</head>
<body>
<header id="hdr"></header>
<div class="layout"><aside><nav id="list"></nav></aside><main id="detail"></main></div>
`;
}

/** The `sha256-<base64>` CSP source of {@link VIEWER_SCRIPT}, or undefined without Web Crypto. */
export async function viewerScriptHash(): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(
    await subtle.digest("SHA-256", new TextEncoder().encode(VIEWER_SCRIPT)),
  );
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return `sha256-${btoa(bin)}`;
}
