// The user guide, offline, at /docs: the Markdown of docs/ rendered once (on first request) and served
// from the executable beside the API reference (/api/v1/docs), under the dashboard's strict CSP.
import { createHash } from "node:crypto";
import { Elysia } from "elysia";
import { pageHeaders } from "../../dashboard/security";
import { VERSION } from "../../version";
import guideCss from "./guide.css" with { type: "text" };
import { GUIDE_INDEX, GUIDE_PAGES, titleOf } from "./pages";
import { escapeHtml, guideMarkdown } from "./render";

export const GUIDE_PREFIX = "/docs";
const CSS_URL = `${GUIDE_PREFIX}/assets/guide.${createHash("sha256").update(guideCss).digest("hex").slice(0, 12)}.css`;

const names = new Set(GUIDE_PAGES.map((p) => p.name));
const render = guideMarkdown(names);
const cache = new Map<string, string>();

function layout(title: string, current: string | undefined, body: string): string {
  const nav = GUIDE_PAGES.map(
    (p) =>
      `<li><a href="${GUIDE_PREFIX}/${p.name}"${p.name === current ? ' aria-current="page"' : ""}>${escapeHtml(titleOf(p.markdown))}</a></li>`,
  ).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · reportgen user guide</title>
<link rel="stylesheet" href="${CSS_URL}">
</head>
<body>
<a class="skip" href="#main">Skip to the page</a>
<header class="top">
<a class="brand" href="${GUIDE_PREFIX}">reportgen user guide</a>
<nav aria-label="Elsewhere"><ul><li><a href="/api/v1/docs">API reference</a></li><li><a href="/dashboard">Dashboard</a></li></ul></nav>
</header>
<div class="layout">
<nav class="pages" aria-label="Guide pages"><ul>
${nav}
</ul></nav>
<main id="main">
${body}
</main>
</div>
<footer>reportgen ${escapeHtml(VERSION)}: this guide is the docs/ folder of the repository, served by the executable.</footer>
</body>
</html>
`;
}

/** The page's HTML, rendered on first use and kept (the pages are part of the executable: they never change). */
function page(name: string | undefined): string | undefined {
  const key = name ?? "";
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const markdown = name === undefined ? GUIDE_INDEX : GUIDE_PAGES.find((p) => p.name === name)?.markdown;
  if (markdown === undefined) return undefined;
  const html = layout(titleOf(markdown), name, render(markdown));
  cache.set(key, html);
  return html;
}

const htmlAnswer = (body: string, status = 200) =>
  new Response(body, { status, headers: pageHeaders({ "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" }) });

const notFound = () =>
  htmlAnswer(
    layout(
      "Not found",
      undefined,
      `<h1>Not found</h1><p>The guide has no such page. <a href="${GUIDE_PREFIX}">See the list of pages</a>.</p>`,
    ),
    404,
  );

/** GET /docs (the index), /docs/<page>, and the guide's stylesheet. Public: the guide holds no account data. */
export function guideRoutes() {
  return new Elysia({ name: "guide", detail: { hide: true } })
    .get(GUIDE_PREFIX, () => htmlAnswer(page(undefined)!))
    .get(`${GUIDE_PREFIX}/:page`, ({ params }) => {
      const html = names.has(params.page) ? page(params.page) : undefined;
      return html === undefined ? notFound() : htmlAnswer(html);
    })
    .get(`${GUIDE_PREFIX}/assets/:file`, ({ request }) =>
      new URL(request.url).pathname === CSS_URL
        ? new Response(guideCss, {
            headers: {
              "content-type": "text/css; charset=utf-8",
              "cache-control": "public, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
              "cross-origin-resource-policy": "same-origin",
            },
          })
        : notFound(),
    );
}
