// axe-core in the page under test: WCAG 2.0/2.1 A and AA rules, zero violations expected. The source is
// evaluated through the DevTools protocol, which the dashboard's strict CSP does not govern (an injected
// <script> would be refused, as it should be).
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { repoRoot } from "../helpers/process";

const source = readFileSync(join(repoRoot, "node_modules", "axe-core", "axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Runs axe on the page as it is now; fails with each violation's rule, help and elements. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  expect(violations, `axe on ${label}`).toEqual([]);
}
