/**
 * The viewer's navigation (a fragment of the viewer's script, see `viewer.ts`): the current step,
 * deep links and keys.
 *
 * - Every move goes through `go(ex, i)` (step `i` of execution `ex`, -1 for its header), which
 *   keeps the list, the detail, the timeline, the replay and the address in step.
 * - The address is `#execution-N` or `#execution-N/step-M` (1-based, N counts every execution of
 *   the report in order); it opens that step on load and follows each move. The older
 *   `#<execution id>` still opens an execution.
 * - Keys: j / Down / Right and k / Up / Left walk through the run in order (an execution's header,
 *   then its steps, then the next execution), over the executions the list shows; n / p jump
 *   between executions; r opens or closes the replay, space plays or pauses it; / searches; ?
 *   shows the keys; Escape closes what is open.
 *
 * Provides `current`, `go`, `reveal`, `visible`, `stepAfter`, `fromHash`, `onKey` and
 * `toggleHelp`; uses the core, the filters' `focusSearch` and the replay.
 *
 * @module
 */

/** Styles of the help overlay and the header's help button. */
export const NAV_STYLE: string = String.raw`
.help-btn{flex:none;width:28px;height:28px;border-radius:50%;border:1px solid #3a4357;background:#2c3446;color:#fff;font:inherit;font-weight:700;cursor:pointer}
.help-btn:hover{background:#3a4357}
.help{position:fixed;inset:0;z-index:30;display:grid;place-items:center;background:rgba(10,12,16,.6)}
.help-card{padding:18px 22px;max-width:560px;width:calc(100% - 32px)}
.help-card h2{margin:0 0 10px;font-size:16px}
.help-card dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 12px}
.help-card dt{white-space:nowrap}.help-card dd{margin:0}
kbd{display:inline-block;padding:0 6px;border:1px solid #c9ced6;border-bottom-width:2px;border-radius:5px;background:#f6f8fa;font:12px/1.6 var(--mono)}
`;

/** The navigation's part of the viewer script (plain ES2017, shares the core's scope). */
export const NAV_SCRIPT: string = String.raw`
var current = -1;

function go(ex, i, user) {
  if (!ex) return;
  i = Math.max(-1, Math.min(i, ex.steps.length - 1));
  if (rp && i < 0 && ex.steps.length) i = 0; // the replay shows steps only
  if (ex !== selected) select(ex, user);
  else if (user) mark(true);
  current = i;
  var old = document.querySelector("#detail li.step.cur");
  if (old) old.classList.remove("cur");
  var card = view && view.cards[i];
  if (card) card.classList.add("cur");
  stripMark(view && view.strip, i);
  if (rp) replayShow(ex, i);
  else if (user) reveal();
  if (user) { try { history.replaceState(null, "", hashOf(ex, i)); } catch (e) { /* file: may refuse */ } }
}

// Shows the current step's card (built at once) under its call's header when both fit in the
// view, else at the top of the view; the page's top for a header.
function reveal() {
  var card = view && view.cards[current];
  if (!card) { window.scrollTo(0, 0); return; }
  fill(card);
  align(card);
  // Bodies the lazy rendering builds around it may change the height of the cards above: align
  // again once they are laid out.
  requestAnimationFrame(function () {
    requestAnimationFrame(function () { if (!rp && view && view.cards[current] === card) align(card); });
  });
}
function align(card) {
  var bottom = card.getBoundingClientRect().bottom + window.scrollY;
  if (bottom <= window.innerHeight) window.scrollTo(0, 0); else card.scrollIntoView({ block: "start" });
}

function hashOf(ex, i) {
  return "#execution-" + (data.executions.indexOf(ex) + 1) + (i >= 0 ? "/step-" + (i + 1) : "");
}

function fromHash(hash) {
  var raw;
  try { raw = decodeURIComponent(hash.slice(1)); } catch (e) { return null; }
  var m = /^execution-(\d+)(?:\/step-(\d+))?$/.exec(raw), ex;
  if (m && (ex = data.executions[Number(m[1]) - 1])) return { ex: ex, i: m[2] ? Number(m[2]) - 1 : -1 };
  ex = raw ? data.executions.filter(function (e) { return e.id === raw; })[0] : null;
  return ex ? { ex: ex, i: -1 } : null;
}

// The executions the list shows: the filters' matches, less any a merged report's source hides.
function visible() {
  return data.executions.filter(function (ex) { var b = buttons.get(ex); return !!b && b.getClientRects().length > 0; });
}

// The step d (1 or -1) away from step i of ex in the run's order, over the executions shown and
// skipping those without steps; null past either end.
function stepAfter(ex, i, d) {
  if (ex && i + d >= 0 && i + d < ex.steps.length) return [ex, i + d];
  var vis = visible(), at = vis.indexOf(ex);
  if (at < 0) at = d > 0 ? -1 : vis.length;
  for (at += d; at >= 0 && at < vis.length; at += d) {
    if (vis[at].steps.length) return [vis[at], d > 0 ? 0 : vis[at].steps.length - 1];
  }
  return null;
}

// j / k outside the replay: each execution's header, then its steps, then the next execution.
function stepBy(d) {
  var ex = selected, i = current + d;
  if (ex && i >= -1 && i < ex.steps.length) { go(ex, i, true); return; }
  var vis = visible(), at = vis.indexOf(ex);
  var next = vis[at < 0 ? (d > 0 ? 0 : vis.length - 1) : at + d];
  if (next) go(next, d > 0 ? -1 : next.steps.length - 1, true);
}

function execBy(d) {
  var vis = visible(), at = vis.indexOf(selected);
  var next = vis[at < 0 ? 0 : at + d];
  if (next) go(next, -1, true);
}

var KEYS = [
  ["j  \u2193  \u2192", "Next step; after an execution's last step, the next execution"],
  ["k  \u2191  \u2190", "Previous step"],
  ["n  p", "Next / previous execution"],
  ["r", "Open or close the replay"],
  ["Space", "Play or pause the replay"],
  ["/", "Search prompts and answers"],
  ["?", "Show or hide these keys"],
  ["Esc", "Close the replay, an enlarged screenshot or this help"]
];

function toggleHelp() {
  var old = document.querySelector(".help");
  if (old) { old.remove(); return; }
  var box = h("div", { class: "help", role: "dialog", "aria-label": "Keyboard shortcuts", onclick: function (e) { if (e.target === box) box.remove(); } },
    h("div", { class: "card help-card" }, h("h2", { text: "Keyboard shortcuts" }),
      h("dl", null, KEYS.map(function (k) { return [h("dt", null, h("kbd", { text: k[0] })), h("dd", { text: k[1] })]; })),
      h("p", { class: "muted", text: "The address links to the step shown, e.g. #execution-3/step-2 (the third execution's second step), and follows as you move." })));
  document.body.appendChild(box);
}

function closeTop() {
  var top = document.querySelector(".help") || document.querySelector(".lightbox");
  if (top) top.remove(); else replayClose();
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  var k = e.key;
  if (k === "Escape") { closeTop(); return; }
  var tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (k === "?") toggleHelp();
  else if (k === "j" || k === "ArrowDown" || k === "ArrowRight") { if (rp) replayStep(1); else stepBy(1); }
  else if (k === "k" || k === "ArrowUp" || k === "ArrowLeft") { if (rp) replayStep(-1); else stepBy(-1); }
  else if (k === "n" || k === "p") { if (rp) replayExec(k === "n" ? 1 : -1); else execBy(k === "n" ? 1 : -1); }
  else if (k === "r") { if (rp) replayClose(); else replayOpen(); }
  else if (k === " " && rp) replayToggle();
  else if (k === "/") focusSearch();
  else return;
  e.preventDefault();
}
`;
