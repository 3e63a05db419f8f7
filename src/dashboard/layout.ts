// The page shell every dashboard page shares: head, skip link, navigation, sign-out, live region.
import { assets } from "./assets";
import { type Html, html } from "./html";

/** A section's entry in the navigation: each module with dashboard pages declares its own (FeatureModule.dashboard). */
export interface NavItem {
  /** What a page passes to layout() as its `section`, to be marked current. */
  id: string;
  href: string;
  label: string;
  /** Its place in the navigation: lower first (the overview is 0). */
  order: number;
}

/** The section a page belongs to: a NavItem's id. */
export type Section = string;

export interface Viewer {
  accountName: string;
  keyName: string;
  csrfToken: string;
  /** The navigation, in order (the dashboard's guards give it: app/modules.ts joins it from the modules). */
  nav: readonly NavItem[];
}

/** `scripts`: extra assets a page needs besides app.js (the Templates editor's bundle). */
function head(title: string, scripts: string[] = []): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · reportgen</title>
<link rel="icon" href="${assets.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.css.url}">
<script src="${assets.js.url}" defer></script>
${scripts.map((src) => html`<script src="${src}" defer></script>`)}
</head>`;
}

/** A signed-in page. */
export function layout(opts: { title: string; section: Section; viewer: Viewer; body: Html; scripts?: string[] }): Html {
  const v = opts.viewer;
  return html`${head(opts.title, opts.scripts)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar">
  <div class="topbar-inner">
    <a class="brand" href="/dashboard"><img src="${assets.icon.url}" alt="" width="26" height="26">reportgen</a>
    <nav class="nav" aria-label="Sections">
      ${v.nav.map((s) => html`<a href="${s.href}"${s.id === opts.section ? html` aria-current="page"` : ""}>${s.label}</a>`)}
    </nav>
    <div class="who">
      <span class="account">Account <strong>${v.accountName}</strong> · key ${v.keyName}</span>
      <form method="post" action="/dashboard/sign-out">
        <input type="hidden" name="_csrf" value="${v.csrfToken}">
        <button class="button small" type="submit">Sign out</button>
      </form>
    </div>
  </div>
</header>
<main id="main" tabindex="-1">
${opts.body}
</main>
<footer>reportgen · <a href="/api/v1/docs">API documentation</a></footer>
<div id="live" class="visually-hidden" role="status" aria-live="polite"></div>
</body>
</html>
`;
}

/** A page outside a session (sign-in, and errors before signing in). */
export function bare(title: string, body: Html): Html {
  return html`${head(title)}
<body>
<main id="main" tabindex="-1">
<div class="signin">
  <a class="brand" href="/dashboard"><img src="${assets.icon.url}" alt="" width="32" height="32">reportgen</a>
  ${body}
</div>
</main>
<footer>reportgen · <a href="/api/v1/docs">API documentation</a></footer>
</body>
</html>
`;
}
