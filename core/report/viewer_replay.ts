/**
 * The viewer's replay (a fragment of the viewer's script, see `viewer.ts`): the run one step at a
 * time, full screen, through the executions the list shows, in order. Each step's screenshot is
 * shown large with its target box, and a pointer moves to the step's target (its click point, else
 * the middle of its box). Play advances on a timer; prev and next step by hand. The view behind
 * follows, so closing the replay leaves the page at that step.
 *
 * Marks are in the stored image's pixels (the screenshot the model saw, which may be shrunk or in
 * device pixels, unlike the page's CSS pixels): they are placed as fractions of that image's own
 * size (its decoded size once loaded, the recorded size before), so they land on the same spot
 * however large the image is shown.
 *
 * Provides `rp` (the open replay or null), `replayOpen()`, `replayClose()`, `replayShow(ex, i)`,
 * `replayToggle()`, `replayStep(d)` and `replayExec(d)`; uses the core's helpers and the nav's
 * `go`, `visible` and `stepAfter`.
 *
 * @module
 */

/** Styles of the replay overlay. */
export const REPLAY_STYLE: string = String.raw`
body.replaying{overflow:hidden}
.replay{position:fixed;inset:0;z-index:20;display:grid;grid-template-rows:auto minmax(0,1fr) auto auto;background:#11151d;color:#e6e9ef}
.rp-top{display:flex;align-items:center;gap:12px;padding:10px 18px;border-bottom:1px solid #262d3b;min-width:0}
.rp-top .eyebrow{font-size:11px;letter-spacing:.08em;text-transform:uppercase;color:#9aa4b8}
.rp-pos{display:flex;align-items:baseline;gap:10px;min-width:0;flex:1}
.rp-pos .rp-prompt{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:#cfd6e4;min-width:0}
.rp-count{margin-left:auto;white-space:nowrap;color:#9aa4b8;font-size:13px}
.rp-main{display:grid;grid-template-columns:minmax(0,1fr) 340px;gap:16px;padding:14px 18px;min-height:0}
.rp-stage{display:grid;place-items:center;min-width:0;min-height:0}
.rp-shot{cursor:default;border-color:#2c3446}
.rp-shot img{max-height:calc(100vh - 250px)}
.rp-none{color:#9aa4b8}
.rp-side{background:var(--card);color:var(--text);border-radius:10px;overflow:auto;padding:0 0 12px}
.rp-side .step-head{border-radius:10px 10px 0 0}
.rp-side .rp-info{padding:4px 14px}
.pointer{position:absolute;left:50%;top:50%;width:24px;height:24px;margin:-12px 0 0 -12px;border-radius:50%;border:3px solid #fff;background:rgba(255,45,120,.82);box-shadow:0 0 0 2px rgba(0,0,0,.4),0 3px 10px rgba(0,0,0,.45);transition:left .6s cubic-bezier(.3,.7,.2,1),top .6s cubic-bezier(.3,.7,.2,1),opacity .2s;pointer-events:none;z-index:2}
.pointer.idle{opacity:0}
.pointer.click::after{content:"";position:absolute;inset:-3px;border-radius:50%;border:2px solid var(--mark);animation:sdk-ripple .6s .6s ease-out both}
@keyframes sdk-ripple{from{transform:scale(1);opacity:1}to{transform:scale(3);opacity:0}}
@media (prefers-reduced-motion:reduce){.pointer{transition:none}.pointer.click::after{animation:none}}
.rp-controls{display:flex;align-items:center;gap:8px;padding:6px 18px}
.rp-controls button,.rp-controls select,.rp-close{padding:5px 12px;border:1px solid #3a4357;border-radius:7px;background:#232a38;color:#fff;font:inherit;font-size:13px;cursor:pointer}
.rp-controls button:hover,.rp-close:hover{background:#2f3849}
.rp-controls .rp-play{min-width:96px;font-weight:600;background:var(--accent);border-color:var(--accent)}
.rp-progress{flex:1;height:4px;border-radius:2px;background:#2c3446;overflow:hidden}
.rp-progress div{height:100%;width:0;background:var(--accent);transition:width .3s}
.rp-strip{padding:0 18px 10px;min-width:0}
.rp-strip .strip{background:#181d28;border-radius:8px;padding:6px}
.rp-strip .thumb{background:#232a38;color:#cfd6e4}.rp-strip .thumb.cur{background:#2c3a66}
.rp-strip .tn{color:#9aa4b8}
@media (max-width:900px){.rp-main{grid-template-columns:1fr}.rp-side{max-height:30vh}}
`;

/** The replay's part of the viewer script (plain ES2017, shares the core's scope). */
export const REPLAY_SCRIPT: string = String.raw`
var REPLAY_MS = 1600, rp = null;

function replayOpen() {
  if (rp) return;
  // The call shown, unless the list no longer shows it: then the first call listed.
  var ex = selected && visible().indexOf(selected) >= 0 ? selected : null;
  var at = ex && current >= 0 ? [ex, current] : stepAfter(ex, -1, 1);
  if (!at) return;
  function btn(label, title, fn, cls) { return h("button", { type: "button", class: cls, title: title, "aria-label": title, text: label, onclick: fn }); }
  var img = h("img", { alt: "screenshot of the step" });
  // A chosen speed gives the keys back to the replay (a focused select would take space).
  var speed = h("select", { class: "rp-speed", "aria-label": "Speed", onchange: function () { speed.blur(); if (rp.playing) schedule(); } });
  [["0.5", "0.5\u00d7"], ["1", "1\u00d7"], ["2", "2\u00d7"], ["4", "4\u00d7"]].forEach(function (o) {
    var opt = h("option", { text: o[1] });
    opt.value = o[0];
    speed.appendChild(opt);
  });
  speed.value = "1";
  rp = { img: img, box: h("div", { class: "box" }), pointer: h("div", { class: "pointer idle", "aria-hidden": "true" }),
    none: h("div", { class: "rp-none", text: "No screenshot for this step." }), side: h("div", { class: "rp-side" }),
    pos: h("div", { class: "rp-pos" }), bar: h("div"), stripBox: h("div", { class: "rp-strip" }),
    play: btn("\u25b6 Play", "Play or pause (space)", replayToggle, "rp-play"), speed: speed, strip: null, ex: null, i: -1, playing: false, timer: 0 };
  rp.shot = h("div", { class: "shot rp-shot" }, img, rp.box, rp.pointer);
  rp.root = h("div", { class: "replay", role: "dialog", "aria-modal": "true", "aria-label": "Replay" },
    h("div", { class: "rp-top" }, h("span", { class: "eyebrow", text: "Replay" }), rp.pos, h("button", { type: "button", class: "rp-close", title: "Close (Esc)", "aria-label": "Close the replay", text: "\u00d7", onclick: replayClose })),
    h("div", { class: "rp-main" }, h("div", { class: "rp-stage" }, rp.shot, rp.none), rp.side),
    h("div", { class: "rp-controls" }, btn("\u2039 Prev", "Previous step (k)", function () { replayStep(-1); }, "rp-prev"), rp.play,
      btn("Next \u203a", "Next step (j)", function () { replayStep(1); }, "rp-next"), speed, h("div", { class: "rp-progress" }, rp.bar)),
    rp.stripBox);
  img.addEventListener("load", replayPlace);
  document.body.appendChild(rp.root);
  document.body.classList.add("replaying");
  go(at[0], at[1], true);
  rp.play.focus();
}

function replayClose() {
  if (!rp) return;
  clearTimeout(rp.timer);
  stripStop(rp.strip);
  rp.img.removeAttribute("src");
  rp.root.remove();
  rp = null;
  document.body.classList.remove("replaying");
  reveal();
  var b = document.querySelector("#detail .replay-btn");
  if (b) b.focus({ preventScroll: true });
}

function replayShow(ex, i) {
  var s = ex.steps[i] || {};
  if (rp.ex !== ex) {
    stripStop(rp.strip);
    rp.strip = timeline(ex, function (k) { go(ex, k, true); });
    rp.stripBox.textContent = "";
    add(rp.stripBox, rp.strip);
  }
  rp.ex = ex;
  rp.i = i;
  rp.pos.textContent = "";
  add(rp.pos, [h("span", { class: "api", text: ex.apiName }), h("span", { class: "rp-prompt", text: text(ex.prompt) }),
    h("span", { class: "rp-count", text: "execution " + (data.executions.indexOf(ex) + 1) + " of " + data.executions.length +
      " \u00b7 step " + (i + 1) + " of " + ex.steps.length })]);
  rp.side.textContent = "";
  add(rp.side, [
    h("div", { class: "step-head" }, h("span", { class: "idx", text: i + 1 }), kind(s), h("span", { class: "title", text: text(s.title) }), pill(s.status)),
    h("div", { class: "rp-info" },
      h("div", { class: "dur", text: duration(s) }),
      s.thought ? [h("div", { class: "label", text: "Thought" }), h("p", { class: "thought", text: text(s.thought) })] : null,
      s.error ? h("div", { class: "err", text: text(s.error) }) : null,
      s.param !== undefined ? [h("div", { class: "label", text: "Params" }), h("pre", { text: text(s.param) })] : null,
      retried(s) ? h("p", { class: "muted", text: s.attempts.length + " model calls: the first answer could not be used (see the step's model calls)." }) : null)
  ]);
  var src = shotSrc(s.screenshot);
  rp.shot.hidden = !src;
  rp.none.hidden = !!src;
  if (src && rp.img.getAttribute("src") !== src) rp.img.src = src;
  replayPlace();
  stripMark(rp.strip, i);
  rp.bar.style.width = ((i + 1) / ex.steps.length * 100) + "%";
  if (rp.playing) schedule();
}

// Draws the box and moves the pointer for the shown step (again once its image has decoded).
function replayPlace() {
  if (!rp || !rp.ex) return;
  var s = rp.ex.steps[rp.i] || {}, img = rp.img;
  var z = img.complete && img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : sizeOf(s);
  var r = s.target, p = s.point;
  var box = !!z && !!r && [r.left, r.top, r.width, r.height].every(fin);
  rp.box.hidden = !box;
  if (box) {
    rp.box.style.left = (r.left / z.width * 100) + "%"; rp.box.style.top = (r.top / z.height * 100) + "%";
    rp.box.style.width = (r.width / z.width * 100) + "%"; rp.box.style.height = (r.height / z.height * 100) + "%";
  }
  var pt = Array.isArray(p) && fin(p[0]) && fin(p[1]) ? p : box ? [r.left + r.width / 2, r.top + r.height / 2] : null;
  var on = !!z && !!pt;
  rp.pointer.classList.toggle("idle", !on);
  if (!on) return;
  var x = (pt[0] / z.width * 100) + "%", y = (pt[1] / z.height * 100) + "%";
  if (rp.pointer.style.left === x && rp.pointer.style.top === y) return;
  rp.pointer.style.left = x;
  rp.pointer.style.top = y;
  // The ripple of a click, once the pointer arrives (the animation waits for the move).
  rp.pointer.classList.remove("click");
  if (s.kind === "Action") { void rp.pointer.offsetWidth; rp.pointer.classList.add("click"); }
}

function replayToggle() {
  if (!rp) return;
  rp.playing = !rp.playing;
  rp.play.textContent = rp.playing ? "\u25ae\u25ae Pause" : "\u25b6 Play";
  rp.play.setAttribute("aria-pressed", String(rp.playing));
  clearTimeout(rp.timer);
  if (!rp.playing) return;
  // At the end, play starts over from the run's first step.
  if (!stepAfter(rp.ex, rp.i, 1)) { var first = stepAfter(null, -1, 1); if (first) go(first[0], first[1], true); }
  schedule();
}

function schedule() {
  clearTimeout(rp.timer);
  rp.timer = setTimeout(function () {
    if (!rp || !rp.playing) return;
    var next = stepAfter(rp.ex, rp.i, 1);
    if (next) go(next[0], next[1], true); else replayToggle();
  }, REPLAY_MS / (Number(rp.speed.value) || 1));
}

function replayStep(d) {
  var at = stepAfter(rp.ex, rp.i, d);
  if (at) go(at[0], at[1], true);
}

// The first step of the next (d = 1) or previous (d = -1) execution that has steps.
function replayExec(d) {
  var at = stepAfter(rp.ex, d > 0 ? rp.ex.steps.length - 1 : 0, d);
  if (at) go(at[0], 0, true);
}
`;
