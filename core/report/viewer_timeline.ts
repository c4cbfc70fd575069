/**
 * The viewer's timeline (a fragment of the viewer's script, see `viewer.ts`): a strip of
 * thumbnails, one per step that has a screenshot, in order, with the step's target drawn on it.
 * A click goes to that step. The shown execution has one above its steps and the replay one below
 * its stage.
 *
 * A strip of hundreds stays light: a thumbnail has its image (a background, so the page's `<img>`
 * elements stay the steps' screenshots) only while it is in or near the strip's visible part, and
 * drops it when it leaves. Each thumbnail's frame takes the
 * screenshot's recorded shape, so the strip is laid out before any image exists.
 *
 * Provides `timeline(ex, pick)`, `stripMark(strip, i)` and `stripStop(strip)`; uses the core's
 * `h`, `text`, `status`, `data`, `shotSrc`, `sizeOf` and `overlay`, and the filters' `stepHit`.
 *
 * @module
 */

/** Styles of the strip and its thumbnails. */
export const TIMELINE_STYLE: string = String.raw`
.tl{padding:10px 14px 6px;margin-bottom:16px}
.tl .label{margin:0 0 6px}
.strip{position:relative;display:flex;gap:8px;overflow-x:auto;padding:3px 3px 8px}
.thumb{flex:none;display:flex;flex-direction:column;gap:3px;padding:3px;border:2px solid transparent;border-radius:8px;background:#f3f5f8;cursor:pointer;font:inherit;color:inherit;text-align:left}
.thumb:hover{border-color:#c5cbd3}
.thumb.cur{border-color:var(--accent);background:#e8edff}
.thumb.hit{box-shadow:0 0 0 2px #f5b400}
.tshot{position:relative;display:block;border-radius:4px;overflow:hidden;background:#dde1e7 no-repeat 0 0/100% 100%}
.thumb.failed .tshot{outline:2px solid var(--bad);outline-offset:-2px}
.thumb .box{border-width:1px;box-shadow:none}
.thumb .pt{width:6px;height:6px;margin:-3px 0 0 -3px;border-width:1px}
.tn{font-size:11px;line-height:1.2;color:var(--muted);white-space:nowrap}
.tn .tk{font-weight:600}
`;

/** The timeline's part of the viewer script (plain ES2017, shares the core's scope). */
export const TIMELINE_SCRIPT: string = String.raw`
var THUMB_H = 64, THUMB_NEAR = "0px 240px";

function timeline(ex, pick) {
  var thumbs = [];
  ex.steps.forEach(function (s, i) {
    if (!s || typeof s.screenshot !== "string" || !data.shots.has(s.screenshot)) return;
    var frame = h("span", { class: "tshot" });
    thumbSize(frame, sizeOf(s));
    var b = h("button", { type: "button", class: "thumb " + status(s.status) + (stepHit(s) ? " hit" : ""), "data-step": i + 1,
      title: "Step " + (i + 1) + ": " + text(s.kind) + " \u00b7 " + text(s.title), onclick: function () { pick(i); } },
      frame, h("span", { class: "tn" }, String(i + 1) + " ", h("span", { class: "tk", text: s.kind })));
    b.sdkStep = s;
    thumbs.push(b);
  });
  if (!thumbs.length) return null;
  var strip = h("div", { class: "strip", "aria-label": "Timeline: the screenshot of each step" }, thumbs);
  if (typeof IntersectionObserver !== "function") { thumbs.forEach(function (b) { thumbImage(b, true); }); return strip; }
  strip.sdkIO = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) { thumbImage(e.target, e.isIntersecting); });
  }, { root: strip, rootMargin: THUMB_NEAR });
  thumbs.forEach(function (b) { strip.sdkIO.observe(b); });
  return strip;
}

// A thumbnail's frame has the screenshot's shape before the image exists.
function thumbSize(frame, z) {
  var ratio = z ? Math.min(3, Math.max(0.3, z.width / z.height)) : 1.6;
  frame.style.width = Math.round(THUMB_H * ratio) + "px";
  frame.style.height = THUMB_H + "px";
}

// The image is the frame's background, set only while the thumbnail is near the strip's view. A
// background, not an <img>: the page's images stay the steps' screenshots. The source is a checked
// data URI or file name (shotSrc), so it holds no quote or parenthesis to leave url("...").
function thumbImage(b, on) {
  var frame = b.firstChild, s = b.sdkStep;
  if (!on) { frame.style.backgroundImage = ""; return; }
  if (frame.style.backgroundImage) return;
  var src = shotSrc(s.screenshot);
  if (!src) return;
  frame.style.backgroundImage = 'url("' + src + '")';
  if (b.sdkMarked) return;
  b.sdkMarked = true;
  var z = sizeOf(s);
  if (z) { overlay(frame, null, s, z); return; }
  // No step recorded the screenshot's size: read it from the image.
  var probe = new Image();
  probe.onload = function () {
    var n = { width: probe.naturalWidth, height: probe.naturalHeight };
    thumbSize(frame, n);
    overlay(frame, null, s, n);
  };
  probe.src = src;
}

// Marks step i's thumbnail and scrolls the strip (only the strip) to show it.
function stripMark(strip, i) {
  if (!strip) return;
  var old = strip.querySelector(".thumb.cur");
  if (old) { old.classList.remove("cur"); old.removeAttribute("aria-current"); }
  var b = strip.querySelector('.thumb[data-step="' + (i + 1) + '"]');
  if (!b) return;
  b.classList.add("cur");
  b.setAttribute("aria-current", "step");
  var l = b.offsetLeft, r = l + b.offsetWidth;
  if (l < strip.scrollLeft) strip.scrollLeft = l - 8;
  else if (r > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = r - strip.clientWidth + 8;
}

function stripStop(strip) { if (strip && strip.sdkIO) strip.sdkIO.disconnect(); }
`;
