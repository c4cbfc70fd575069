/**
 * The merged report's page (spec 4.6): the report viewer of `viewer.ts` unchanged, plus a small
 * section listing the source reports (one per test: status, duration, title, description) that
 * narrows the viewer's execution list to one source, and, when the sources ran on devices
 * (`testDevice`), a device x title matrix whose cells open each run. It reads the `sdk-source` tags (see
 * `_format.ts`) and, like the viewer, puts data into the DOM only through `textContent`; the page
 * keeps the viewer's Content-Security-Policy, with this script's hash added.
 *
 * It works on what the viewer renders (`#hdr`, `#list .items button.ex[data-id]`, `#detail`) and
 * follows its re-renders with `MutationObserver`s, so the viewer itself needs no change.
 *
 * @module
 */

import { InternalError } from "../errors.ts";
import { viewerPage, viewerScriptHash } from "./viewer.ts";

/** The merged section's stylesheet (uses the viewer's CSS variables). */
const MERGED_STYLE: string = String.raw`
.sources{margin-bottom:12px;padding-bottom:8px;border-bottom:1px solid var(--line);max-height:45vh;overflow:auto}
.src-label{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:600;margin:2px 0 8px}
.src{display:block;width:100%;text-align:left;font:inherit;color:inherit;background:var(--card);border:1px solid var(--line);border-left:4px solid #b0b6bf;border-radius:8px;padding:8px 11px;margin-bottom:6px;cursor:pointer}
.src:hover{border-color:#c5cbd3}.src.sel{box-shadow:0 0 0 2px var(--accent);border-color:var(--accent)}
.src.passed{border-left-color:var(--ok)}.src.failed,.src.timedOut{border-left-color:var(--bad)}.src.interrupted{border-left-color:#e0a400}
.src-all{font-weight:600;border-left-color:var(--accent)}
.src-top{display:flex;align-items:center;gap:8px}
.src-title{font-weight:650;word-break:break-word}
.src .src-title{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
.one-source .ex-src{display:none}
.src-top .spill{margin-left:auto;flex:none}
.src-desc{margin:2px 0 4px;color:#363c44;font-size:12.5px;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden;word-break:break-word}
.spill{display:inline-block;padding:0 8px;border-radius:999px;font-size:11.5px;font-weight:600;line-height:19px;text-transform:uppercase;letter-spacing:.03em;background:#eceef1;color:var(--muted)}
.spill.passed{background:var(--ok-bg);color:var(--ok)}.spill.failed,.spill.timedOut{background:var(--bad-bg);color:var(--bad)}.spill.interrupted{background:var(--run-bg);color:var(--run)}
.ex.src-off{display:none}
.ex-src{margin-top:3px;font-size:11.5px;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.src-head{padding:12px 18px;margin-bottom:12px;border-left:4px solid #b0b6bf}
.src-head.passed{border-left-color:var(--ok)}.src-head.failed,.src-head.timedOut{border-left-color:var(--bad)}.src-head.interrupted{border-left-color:#e0a400}
.src-head .row{display:flex;align-items:center;gap:10px;flex-wrap:wrap}
.src-head .src-title{font-size:15px}
.src-head .src-desc{-webkit-line-clamp:6;font-size:13px}
.matrix{border-collapse:collapse;margin:0 0 10px;font-size:12px}
.matrix th{font-weight:600;color:var(--muted);text-align:left;padding:3px 6px;word-break:break-all}
.matrix td{padding:2px}
.mcell{font:inherit;font-size:11.5px;border:1px solid var(--line);border-radius:6px;padding:3px 6px;cursor:pointer;background:var(--card);white-space:nowrap}
.mcell.passed{background:var(--ok-bg);color:var(--ok)}.mcell.failed,.mcell.timedOut{background:var(--bad-bg);color:var(--bad)}
.mcell.sel{box-shadow:0 0 0 2px var(--accent)}
`;

/**
 * The merged section's script. Plain ES2017, no template literals. Runs after the viewer's
 * `DOMContentLoaded` handler (it comes later in the page) and exposes the sources as
 * `window.__SDK_MERGED__` (a getter that parses again, for tests).
 */
const MERGED_SCRIPT: string = String.raw`
(function () {
"use strict";
var STATUSES = { passed: 1, failed: 1, timedOut: 1, skipped: 1, interrupted: 1 };

function parse() {
  var out = [];
  document.querySelectorAll('script[type="sdk-source"]').forEach(function (el) {
    var p;
    try { p = JSON.parse(el.textContent); } catch (e) { return; }
    if (!p || typeof p !== "object" || typeof p.id !== "string") return;
    p.executionIds = Array.isArray(p.executionIds) ? p.executionIds.filter(function (x) { return typeof x === "string"; }) : [];
    out.push(p);
  });
  return out;
}

function h(tag, cls, text) {
  var el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text != null) el.textContent = String(text);
  for (var i = 3; i < arguments.length; i++) {
    var kid = arguments[i];
    if (kid != null && kid !== false) el.appendChild(typeof kid === "object" ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
function str(v) { return typeof v === "string" ? v : v == null ? "" : String(v); }
function status(s) { return STATUSES[s] ? s : "unknown"; }
function ms(v) {
  if (typeof v !== "number" || !(v >= 0)) return "";
  if (v < 1000) return Math.round(v) + " ms";
  var s = v / 1000;
  if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + " s";
  var m = Math.floor(s / 60);
  return m + " min " + Math.round(s - m * 60) + " s";
}
function pill(s) { return h("span", "spill " + status(s), str(s)); }
function count(n) { return n + (n === 1 ? " execution" : " executions"); }

var sources = [], owner = new Map(), current = null, buttons = new Map(), cells = new Map(), allButton = null;

function sourceButton(s) {
  var b = h("button", "src " + status(s.testStatus), null,
    h("div", "src-top", null, h("span", "src-title", str(s.testTitle) || str(s.testId)), pill(s.testStatus)),
    s.testDescription ? h("div", "src-desc", s.testDescription) : null,
    h("div", "meta", null, h("span", "src-dur", ms(s.testDuration)), h("span", null, count(s.executionIds.length)),
      s.reportName ? null : h("span", null, "no report")));
  b.type = "button";
  b.setAttribute("data-source", s.id);
  if (s.testDescription) b.title = str(s.testDescription);
  b.addEventListener("click", function () { choose(s); });
  return b;
}

function sourceHead(s) {
  return h("section", "card src-head " + status(s.testStatus), null,
    h("div", "row", null, h("span", "src-title", str(s.testTitle) || str(s.testId)), pill(s.testStatus),
      h("span", "dur", ms(s.testDuration))),
    s.testDescription ? h("p", "src-desc", s.testDescription) : null,
    h("div", "meta", null, h("span", null, "test id " + str(s.testId)),
      s.reportName ? h("span", null, "report " + str(s.reportName)) : h("span", null, "no report"),
      h("span", null, count(s.executionIds.length))));
}

// Hides the executions of other sources and labels each execution with its source.
function apply() {
  var items = document.querySelectorAll("#list .items .ex");
  items.forEach(function (b) {
    var s = owner.get(b.getAttribute("data-id"));
    b.classList.toggle("src-off", current !== null && s !== current);
    if (s && !b.querySelector(".ex-src")) b.appendChild(h("div", "ex-src", str(s.testTitle) || str(s.testId)));
  });
  var nav = document.getElementById("list");
  if (nav) nav.classList.toggle("one-source", current !== null);
  buttons.forEach(function (b, s) { b.classList.toggle("sel", s === current); });
  cells.forEach(function (b, s) { b.classList.toggle("sel", s === current); });
  if (allButton) allButton.classList.toggle("sel", current === null);
}

// Puts the source of the shown execution on top of the viewer's detail.
function decorate() {
  var main = document.getElementById("detail");
  if (!main || main.querySelector(".src-head")) return;
  var sel = document.querySelector("#list .items .ex.sel");
  var s = sel ? owner.get(sel.getAttribute("data-id")) : null;
  if (current && !current.executionIds.length) s = current;
  if (s) main.insertBefore(sourceHead(s), main.firstChild);
}

function choose(s) {
  current = s;
  apply();
  if (!s) return;
  var main = document.getElementById("detail");
  if (!s.executionIds.length) {
    main.textContent = "";
    main.appendChild(sourceHead(s));
    main.appendChild(h("div", "empty", s.reportName ? "This report has no executions." : "No report: the test has no report file (" + str(s.testStatus) + ")."));
    return;
  }
  var sel = document.querySelector("#list .items .ex.sel");
  if (sel && owner.get(sel.getAttribute("data-id")) === s) { var head = main.querySelector(".src-head"); if (head) head.remove(); decorate(); return; }
  var first = null;
  document.querySelectorAll("#list .items .ex").forEach(function (b) {
    if (!first && owner.get(b.getAttribute("data-id")) === s) first = b;
  });
  if (first) first.click();
}

// The device x title matrix of a run over several devices (sources with a testDevice).
function matrix() {
  var onDevices = sources.filter(function (s) { return typeof s.testDevice === "string"; });
  if (!onDevices.length) return null;
  var devices = [], titles = [];
  onDevices.forEach(function (s) {
    if (devices.indexOf(s.testDevice) < 0) devices.push(s.testDevice);
    var t = str(s.testTitle) || str(s.testId);
    if (titles.indexOf(t) < 0) titles.push(t);
  });
  var table = h("table", "matrix");
  table.setAttribute("aria-label", "Device matrix");
  var head = h("tr", null, null, h("th", null, "script"));
  devices.forEach(function (d) { head.appendChild(h("th", null, d)); });
  table.appendChild(head);
  titles.forEach(function (t) {
    var row = h("tr", null, null, h("th", null, t));
    devices.forEach(function (d) {
      var s = onDevices.filter(function (x) { return x.testDevice === d && (str(x.testTitle) || str(x.testId)) === t; })[0];
      var td = h("td");
      if (s) {
        var b = h("button", "mcell " + status(s.testStatus), str(s.testStatus) + (s.testDuration ? " " + ms(s.testDuration) : ""));
        b.type = "button";
        b.setAttribute("data-source", s.id);
        b.addEventListener("click", function () { choose(s); });
        cells.set(s, b);
        td.appendChild(b);
      } else td.textContent = "-";
      row.appendChild(td);
    });
    table.appendChild(row);
  });
  return table;
}

function start() {
  sources = parse();
  sources.forEach(function (s) { s.executionIds.forEach(function (id) { owner.set(id, s); }); });
  var nav = document.getElementById("list");
  if (!nav) return;
  var box = h("section", "sources", null, h("div", "src-label", "Source reports (" + sources.length + ")"));
  box.setAttribute("aria-label", "Source reports");
  var grid = matrix();
  if (grid) box.appendChild(grid);
  allButton = h("button", "src src-all", "All sources");
  allButton.type = "button";
  allButton.addEventListener("click", function () { choose(null); });
  box.appendChild(allButton);
  sources.forEach(function (s) { var b = sourceButton(s); buttons.set(s, b); box.appendChild(b); });
  nav.insertBefore(box, nav.firstChild);

  var eyebrow = document.querySelector("#hdr .eyebrow");
  if (eyebrow) eyebrow.textContent = "Merged UI automation report";
  var summary = document.querySelector("#hdr .summary");
  if (summary) {
    var failed = sources.filter(function (s) { return s.testStatus === "failed" || s.testStatus === "timedOut"; }).length;
    summary.insertBefore(h("span", "srcs", null, h("span", "n", sources.length), sources.length === 1 ? " source" : " sources",
      failed ? h("span", "bad", ", " + failed + " failed") : null), summary.firstChild);
  }

  var items = nav.querySelector(".items");
  if (items) new MutationObserver(apply).observe(items, { childList: true });
  var main = document.getElementById("detail");
  if (main) new MutationObserver(decorate).observe(main, { childList: true });
  apply();
  decorate();
}

Object.defineProperty(window, "__SDK_MERGED__", { configurable: true, get: function () { return { sources: parse() }; } });
document.addEventListener("DOMContentLoaded", start);
})();
`;

/** Options of {@link mergedViewerPage}. */
export interface MergedViewerPageOptions {
  /** Page title (the merged report's name); escaped. */
  title: string;
  /** Whether screenshots are external files (`html-and-external-assets`). */
  externalAssets: boolean;
}

/**
 * The merged report's page up to where the data tags start: the viewer page with the merged
 * section's style and script added to its head and the script's hash added to its CSP.
 *
 * @throws {Error} when the viewer page no longer has the places this adds to (a bug, caught by
 * the tests).
 */
export async function mergedViewerPage(options: MergedViewerPageOptions): Promise<string> {
  const viewerHash = await viewerScriptHash();
  let page = viewerPage({
    title: options.title,
    scriptHash: viewerHash,
    externalAssets: options.externalAssets,
  });
  if (viewerHash) {
    const csp = `script-src '${viewerHash}'`;
    if (!page.includes(csp)) throw new InternalError("Viewer page has no script-src with its hash");
    page = page.replace(csp, `${csp} '${await sha256Source(MERGED_SCRIPT)}'`);
  }
  const head = page.indexOf("</head>");
  if (head < 0) throw new InternalError("Viewer page has no </head>");
  return `${
    page.slice(0, head)
  }<style>${MERGED_STYLE}</style>\n<script>${MERGED_SCRIPT}</script>\n` +
    page.slice(head);
}

/** The `sha256-<base64>` CSP source of a script. */
async function sha256Source(script: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)),
  );
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return `sha256-${btoa(bin)}`;
}
