// Checks the e2e tests run inside a page: axe-core's WCAG 2.1 AA rules (at one width or several), and
// reading the PDF a frame shows (a blob: URL only the page can fetch).
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's WCAG 2.0/2.1 A and AA rules on the page as it is now: no violation. The script goes in
 * through the DevTools protocol (page.evaluate), which the dashboard's CSP does not govern, so the
 * page keeps its real CSP while it is checked.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return r.violations.map((v: any) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n: any) => n.target.join(" ")).slice(0, 5) }));
  });
  expect(violations, `${label}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

/**
 * No axe violation at each width (the phone layout turns tables into cards and wraps the navigation),
 * each checked once the page is laid out at it; the page is left at the desktop width.
 */
export async function expectNoAxeViolationsAt(
  page: Page,
  label: string,
  widths: { desktop: { width: number; height: number } } & Record<string, { width: number; height: number }>,
): Promise<void> {
  for (const [name, vp] of Object.entries(widths)) {
    await page.setViewportSize(vp);
    await page.waitForFunction((width) => window.innerWidth === width, vp.width);
    await expectNoAxeViolations(page, `${label} (${name})`);
  }
  await page.setViewportSize(widths.desktop);
}

/**
 * The PDF of what the Templates editor holds now, from the preview route, asked by the page itself
 * with its own form (session cookie, Origin and token) as its script does. (The frame's blob: URL
 * cannot be fetched back: the CSP's connect-src is 'self' only.)
 */
export async function previewPdf(page: Page): Promise<Uint8Array> {
  const b64 = await page.evaluate(async () => {
    const form = document.querySelector("form[data-template-form]") as HTMLFormElement;
    const body = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string") body.append(k, v);
    const res = await fetch("/dashboard/templates/preview", { method: "POST", body, headers: { accept: "application/json" } });
    const answer = await res.json();
    if (!res.ok) throw new Error(`preview ${res.status}: ${answer.message}`);
    return answer.pdf as string;
  });
  return new Uint8Array(Buffer.from(b64, "base64"));
}
