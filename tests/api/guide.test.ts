// The user guide served by the app at /docs: the index lists every page, each page renders from its
// Markdown with working links between pages, under the dashboard's strict CSP, and raw HTML in the
// Markdown never reaches the browser as markup.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CSP } from "../../src/dashboard/security";
import { GUIDE_PAGES, titleOf } from "../../src/modules/guide/pages";
import { guideMarkdown } from "../../src/modules/guide/render";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
const pages = new Map<string, string>();
beforeAll(async () => {
  t = await createTestApp();
  for (const path of ["/docs", ...GUIDE_PAGES.map((p) => `/docs/${p.name}`)]) {
    const res = await t.request("GET", path, { key: null });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    pages.set(path, await res.text());
  }
});
afterAll(() => t.close());

test("/docs lists every page of the guide, by its title, and each page links to every other", () => {
  for (const [path, html] of pages) {
    for (const p of GUIDE_PAGES) expect(html).toContain(`<a href="/docs/${p.name}"`);
    expect(html).toContain('<main id="main">');
    if (path !== "/docs") expect(html).toContain(`<title>${titleOf(GUIDE_PAGES.find((p) => `/docs/${p.name}` === path)!.markdown)}`);
  }
});

test("every link between pages of the guide leads to a page and an anchor that exist", () => {
  const ids = new Map<string, Set<string>>();
  for (const [path, html] of pages) ids.set(path, new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!)));
  const broken: string[] = [];
  for (const [path, html] of pages) {
    for (const [, href] of html.matchAll(/<a href="([^"]+)"/g)) {
      if (!href!.startsWith("/docs") && !href!.startsWith("#")) continue;
      const [target = "", anchor] = href!.startsWith("#") ? [path, href!.slice(1)] : href!.split("#");
      if (target.startsWith("/docs/assets/")) continue;
      if (!ids.has(target)) broken.push(`${path}: ${href} (no such page)`);
      else if (anchor && !ids.get(target)!.has(anchor)) broken.push(`${path}: ${href} (no such anchor)`);
    }
  }
  expect(broken).toEqual([]);
});

test("no script, no inline style, and the stylesheet is our own hashed file", async () => {
  for (const [, html] of pages) {
    // Real tags only (the pages show HTML examples as escaped text).
    const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b[^>]*>/gi)].map((m) => m[0]);
    expect(tags.filter((t) => /^<(script|style|iframe|img|object|embed)\b/i.test(t) || /\s(style|on[a-z]+)=/i.test(t))).toEqual([]);
    const css = /<link rel="stylesheet" href="(\/docs\/assets\/guide\.[0-9a-f]{12}\.css)">/.exec(html)![1]!;
    const res = await t.request("GET", css, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
  }
});

test("an unknown page or asset is a 404 page of the guide", async () => {
  for (const path of ["/docs/no-such-page", "/docs/assets/guide.000000000000.css", "/docs/README"]) {
    const res = await t.request("GET", path, { key: null });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-security-policy")).toBe(CSP);
  }
});

test("raw HTML in the Markdown is shown as text, and links to what /docs does not serve are plain text", () => {
  const render = guideMarkdown(new Set(["api"]));
  const html = render(
    [
      "# T",
      "",
      "<script>alert(1)</script>",
      "",
      'Inline <img src=x onerror="alert(1)"> and <b>bold</b>, a <!-- comment -->.',
      "",
      "[api](api.md#errors), [repo file](../deploy/reportgen.service), [bad](javascript:alert(1)), [web](https://example.com).",
    ].join("\n"),
  );
  expect(html).not.toMatch(/<script|<img|<b>|javascript:/);
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  expect(html).toContain('<a href="/docs/api#errors">api</a>');
  expect(html).toContain("repo file");
  expect(html).not.toContain("reportgen.service");
  expect(html).toContain('<a href="https://example.com" rel="noreferrer">web</a>');
  expect(html).toContain('<h1 id="t">T</h1>');
});
