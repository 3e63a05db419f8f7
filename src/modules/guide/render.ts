// Markdown of the user guide (docs/*.md) to HTML for /docs: marked, with our own rules for what it may
// emit. Raw HTML in the Markdown is shown as text, never passed through (the pages are served under
// the dashboard's strict CSP, and a page must not be able to add a script or a style); links between
// pages become /docs links; headings get GitHub's anchor ids, so the same #anchors work on both.
import { Marked, type Tokens } from "marked";

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function slugger() {
  const seen = new Map<string, number>();
  return (text: string): string => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Plain text of a heading's inline Markdown, as GitHub slugs it (code spans and links keep their text). */
const plain = (tokens: Tokens.Generic[] | undefined, raw: string): string =>
  tokens ? tokens.map((t) => ("tokens" in t && t.tokens ? plain(t.tokens as Tokens.Generic[], t.raw) : (t.text ?? t.raw))).join("") : raw;

/**
 * Where a link of the guide goes in /docs: another page (`api.md#errors` → `/docs/api#errors`), an anchor
 * of this page, or an absolute http(s)/mailto URL; undefined for anything else (a file of the
 * repository such as ../deploy/reportgen.service, or a scheme we do not serve), which is shown as text.
 */
export function guideHref(href: string, pages: ReadonlySet<string>): string | undefined {
  if (/^https?:\/\//i.test(href) || /^mailto:/i.test(href)) return href;
  if (href.startsWith("#")) return href;
  const m = /^(?:\.\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/i.exec(href);
  if (m) {
    const [, name = "", anchor = ""] = m;
    if (name === "README") return `/docs${anchor}`;
    return pages.has(name) ? `/docs/${name}${anchor}` : undefined;
  }
  // The repository's README, from a page of docs/.
  if (/^\.\.\/README\.md(#.*)?$/.test(href)) return "/docs";
  return undefined;
}

/** A renderer for the guide's pages, which are named `pages` (their file names without .md). */
export function guideMarkdown(pages: ReadonlySet<string>) {
  return (markdown: string): string => {
    const slug = slugger();
    let tables = 0;
    const md = new Marked({ gfm: true, async: false });
    md.use({
      renderer: {
        // Raw HTML: a comment is dropped, anything else is shown as the text it is.
        html({ text }) {
          return /^\s*<!--[\s\S]*-->\s*$/.test(text) ? "" : escapeHtml(text);
        },
        // Text inside a raw <script> or <pre> tag comes marked as already escaped: escape it all the same.
        text(token) {
          if ("tokens" in token && token.tokens) return this.parser.parseInline(token.tokens);
          return "escaped" in token && token.escaped ? escapeHtml(token.text) : false;
        },
        heading({ tokens, depth, raw }) {
          const id = slug(plain(tokens as Tokens.Generic[], raw));
          return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
        },
        link({ href, tokens }) {
          const text = this.parser.parseInline(tokens);
          const to = guideHref(href, pages);
          if (to === undefined) return text;
          const external = /^https?:/i.test(to);
          return `<a href="${escapeHtml(to)}"${external ? ' rel="noreferrer"' : ""}>${text}</a>`;
        },
        // Screenshots live in the repository (docs/screenshots/); the executable does not carry them.
        image({ text }) {
          return `<span class="image-note">(Screenshot in the repository: ${escapeHtml(text)})</span>`;
        },
        code({ text, lang }) {
          const language = (lang ?? "").split(/\s+/)[0] ?? "";
          const cls = /^[a-z0-9]+$/i.test(language) ? ` class="language-${language}"` : "";
          // Focusable: a wide block scrolls sideways, and keyboard users must reach it.
          return `<pre tabindex="0"><code${cls}>${escapeHtml(text)}</code></pre>\n`;
        },
      },
    });
    const html = md.parse(markdown) as string;
    // Wide tables scroll inside a focusable, named region (axe: scrollable-region-focusable).
    return html
      .replace(/<table>/g, () => `<div class="table-wrap" role="region" tabindex="0" aria-label="Table ${++tables}"><table>`)
      .replace(/<\/table>/g, "</table></div>");
  };
}
