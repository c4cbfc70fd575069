/**
 * The simulator's own screens (private to `@sdk/web/testing`): the home screen (launcher) and the
 * recent-apps screen, as self-contained HTML. Their buttons call the `__simulator` function the
 * phone exposes on its system page.
 *
 * @module
 */

/** One app icon or recents card. */
export interface SystemUiApp {
  /** Package name, passed back to the phone when tapped. */
  packageName: string;
  /** Label shown under the icon or on the card. */
  label: string;
}

const BASE_STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; font: 15px/1.3 sans-serif; color: #fff; }
  button { font: inherit; color: inherit; border: 0; cursor: pointer; }
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, style: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${BASE_STYLE}${style}</style></head>` +
    `<body>${body}</body></html>`;
}

/** The launcher: a grid of app icons; tapping one launches its app. */
export function launcherHtml(apps: readonly SystemUiApp[]): string {
  const icons = apps.map((app) =>
    `<button class="app" data-package="${escapeHtml(app.packageName)}" ` +
    `onclick="__simulator('launch', this.dataset.package)">` +
    `<span class="icon">${escapeHtml(app.label.slice(0, 1).toUpperCase())}</span>` +
    `<span class="label">${escapeHtml(app.label)}</span></button>`
  ).join("");
  return page(
    "Home",
    `body { background: linear-gradient(#203a6b, #0b1730); padding: 48px 16px; }
     h1 { font-size: 18px; font-weight: normal; opacity: .8; margin: 0 0 24px; }
     #apps { display: grid; grid-template-columns: repeat(4, 1fr); gap: 24px 8px; }
     .app { display: flex; flex-direction: column; align-items: center; gap: 6px; background: none; }
     .icon { width: 56px; height: 56px; border-radius: 16px; background: #8ab4f8; color: #0b1730;
       display: flex; align-items: center; justify-content: center; font-size: 26px; }`,
    `<h1 id="home">Home</h1><div id="apps">${icons}</div>`,
  );
}

/** The recent-apps screen: one card per running app, most recent first, and "Clear all". */
export function recentsHtml(apps: readonly SystemUiApp[]): string {
  const cards = apps.map((app) =>
    `<button class="card" data-package="${escapeHtml(app.packageName)}" ` +
    `onclick="__simulator('resume', this.dataset.package)">${escapeHtml(app.label)}</button>`
  ).join("");
  return page(
    "Recents",
    `body { background: #303134; padding: 48px 24px; }
     h1 { font-size: 18px; font-weight: normal; margin: 0 0 24px; }
     .card { display: block; width: 100%; height: 120px; margin-bottom: 16px; border-radius: 16px;
       background: #5f6368; font-size: 20px; }
     #empty { opacity: .7; }
     #clear { margin-top: 16px; padding: 12px 24px; border-radius: 24px; background: #8ab4f8;
       color: #202124; }`,
    `<h1 id="recents">Recent apps</h1>${
      cards || '<p id="empty">No recent items</p>'
    }<button id="clear" onclick="__simulator('clear', '')">Clear all</button>`,
  );
}
