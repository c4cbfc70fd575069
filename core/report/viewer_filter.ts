/**
 * The viewer's filters (a fragment of the viewer's script, see `viewer.ts`): which executions the
 * list shows, by status, by API and by a search through the text of prompts and answers (the
 * prompt, output and error of the execution; the title, thought, raw answer, error and every
 * retried model call of its steps). Steps that match the search are marked in the shown
 * execution and on its timeline.
 *
 * When the filters hide the call shown, the detail moves to the first call the list shows (the
 * replay then starts there), or shows nothing when no call is listed.
 *
 * Provides `filterBar()`, `matches(ex)`, `stepHit(step)`, `filterCount(n)`, `showHits()` and
 * `focusSearch()`;
 * uses the core's `h`, `text`, `data`, `view`, `list`, `mark`, `detail` and `selected`, and the
 * navigation's `go`, `current` and `visible`.
 *
 * @module
 */

/** Styles of the filter bar above the execution list. */
export const FILTER_STYLE: string = String.raw`
.filters{margin-bottom:10px}
.filters input{margin-bottom:6px}
.frow{display:flex;gap:6px}
.frow select{flex:1;min-width:0;padding:6px 8px;border:1px solid var(--line);border-radius:8px;font:inherit;font-size:13px;background:#fff;color:inherit}
.fcount{font-size:12px;color:var(--muted);margin-top:6px}
.hits{font-size:12px;font-weight:600;color:#8a6100;background:#fff6d6;border-radius:999px;padding:0 8px}
`;

/** The filters' part of the viewer script (plain ES2017, shares the core's scope). */
export const FILTER_SCRIPT: string = String.raw`
var fl = { status: "", api: "", q: "" };
var hays = new WeakMap();

// The searchable text of a step or an execution, lower-cased once, on the first search.
function stepHay(s) {
  if (!s || typeof s !== "object") return "";
  var t = hays.get(s);
  if (t === undefined) {
    var parts = [s.title, s.thought, s.rawResponse, s.error];
    if (Array.isArray(s.attempts)) s.attempts.forEach(function (a) { if (a) parts.push(a.rawResponse, a.error); });
    t = parts.map(text).join("\n").toLowerCase();
    hays.set(s, t);
  }
  return t;
}
function hay(ex) {
  var t = hays.get(ex);
  if (t === undefined) {
    t = [ex.apiName, ex.prompt, ex.error, ex.output].map(text).join("\n").toLowerCase() + "\n" + ex.steps.map(stepHay).join("\n");
    hays.set(ex, t);
  }
  return t;
}

function matches(ex) {
  return (!fl.status || ex.status === fl.status) && (!fl.api || String(ex.apiName) === fl.api) &&
    (!fl.q || hay(ex).indexOf(fl.q) >= 0);
}
function stepHit(s) { return !!fl.q && stepHay(s).indexOf(fl.q) >= 0; }

// Options with counts, in order of first appearance.
function counted(key) {
  var n = new Map();
  data.executions.forEach(function (ex) { var v = String(ex[key]); n.set(v, (n.get(v) || 0) + 1); });
  return Array.from(n.keys()).map(function (v) { return [v, v + " (" + n.get(v) + ")"]; });
}

function filterBar() {
  function choice(name, label, all) {
    var sel = h("select", { name: name, "aria-label": label, onchange: function () { fl[name] = sel.value; refilter(); } });
    [["", all]].concat(counted(name === "api" ? "apiName" : "status")).forEach(function (o) {
      var opt = h("option", { text: o[1] });
      opt.value = o[0];
      sel.appendChild(opt);
    });
    return sel;
  }
  return h("div", { class: "filters" },
    h("input", { type: "search", name: "q", placeholder: "Search prompts and answers", "aria-label": "Search prompts and answers",
      oninput: function (e) { fl.q = e.target.value.trim().toLowerCase(); refilter(); } }),
    h("div", { class: "frow" }, choice("status", "Status", "All statuses"), choice("api", "API", "All APIs")),
    h("div", { class: "fcount", "aria-live": "polite" }));
}

function filterCount(shown) {
  var el = document.querySelector("#list .fcount"), all = data.executions.length;
  if (el) el.textContent = fl.status || fl.api || fl.q ? shown + " of " + all + " executions" : "";
}

function refilter() {
  list();
  mark(false);
  showHits();
  // After the list's observers (a merged report hides other sources' executions) have run.
  Promise.resolve().then(keepShown);
}

// The detail (and so the replay) shows a call the list shows: when the filters hide the shown
// one, the first call listed, or nothing when none is.
function keepShown() {
  if (selected && visible().indexOf(selected) >= 0) return;
  var first = visible()[0];
  if (first) { go(first, -1, true); return; }
  if (!selected) return;
  selected = null;
  current = -1;
  detail(true);
}

// Marks the shown execution's steps that match the search, on their cards and thumbnails.
function showHits() {
  if (!view) return;
  var hits = 0;
  view.cards.forEach(function (li) { var on = stepHit(li.sdkStep); li.classList.toggle("hit", on); if (on) hits++; });
  if (view.strip) view.strip.querySelectorAll(".thumb").forEach(function (b) { b.classList.toggle("hit", stepHit(b.sdkStep)); });
  var row = document.querySelector("#detail .exhead .row"), old = row && row.querySelector(".hits");
  if (old) old.remove();
  if (row && fl.q) row.insertBefore(h("span", { class: "hits", text: hits + (hits === 1 ? " step matches" : " steps match") }), row.querySelector(".replay-btn"));
}

function focusSearch() {
  var q = document.querySelector('#list input[name="q"]');
  if (q) { q.focus(); q.select(); }
}
`;
