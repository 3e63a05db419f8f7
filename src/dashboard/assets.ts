// The dashboard's static files, embedded in the executable as text and served under URLs that carry
// a hash of their content: they can be cached forever, and a new build changes the URL.
import { createHash } from "node:crypto";
import appCss from "./assets/app.css" with { type: "text" };
// @ts-expect-error: a .js file imported as text has no type declarations
import appJs from "./assets/app.js" with { type: "text" };
// @ts-expect-error: a .js file imported as text has no type declarations
import editorJs from "./assets/editor.bundle.js" with { type: "text" };
import formsCss from "./assets/forms.css" with { type: "text" };
// @ts-expect-error: an .svg file imported as text has no type declarations
import iconSvg from "./assets/icon.svg" with { type: "text" };
import pagesCss from "./assets/pages.css" with { type: "text" };
import usageCss from "./assets/usage.css" with { type: "text" };

export const ASSETS_PREFIX = "/dashboard/assets";

interface Asset {
  url: string;
  body: string;
  type: string;
}

function asset(name: string, ext: string, body: string, type: string): Asset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { url: `${ASSETS_PREFIX}/${name}.${hash}.${ext}`, body, type };
}

export const assets = {
  js: asset("app", "js", appJs as string, "text/javascript; charset=utf-8"),
  /** The Templates page's code editor and live preview (CodeMirror 6; scripts/build-editor.ts). Only that page loads it. */
  editor: asset("editor", "js", editorJs as string, "text/javascript; charset=utf-8"),
  // One stylesheet for the browser, kept in files by what they style.
  css: asset("app", "css", [appCss, formsCss, pagesCss, usageCss].join("\n"), "text/css; charset=utf-8"),
  icon: asset("icon", "svg", iconSvg as string, "image/svg+xml"),
};

const byUrl = new Map(Object.values(assets).map((a) => [a.url, a]));

/** The asset at this exact (hashed) URL, or undefined: an old hash is a 404, never stale content. */
export function assetResponse(path: string): Response | undefined {
  const a = byUrl.get(path);
  if (!a) return undefined;
  return new Response(a.body, {
    headers: {
      "content-type": a.type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "cross-origin-resource-policy": "same-origin",
    },
  });
}
