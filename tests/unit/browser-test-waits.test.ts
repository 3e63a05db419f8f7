// Tests that drive Chromium await Playwright's promises directly and never hand one to bun's
// `expect(promise).resolves` / `.rejects`. In bun 1.4.5 that matcher waits in a nested run of the event
// loop in which a setImmediate queued by an I/O callback runs only when the loop wakes for something
// else (a due timer, bun's GC timer), and playwright-core passes every DevTools message from Chromium's
// pipe on through setImmediate. A locator read right after a form's 4xx page then waited up to
// Playwright's own 30 s deadline on a page Chromium had received: "the e2e flake" of docs/development.md,
// whose reproduction is in git history (commit 9c5f598).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const testsDir = join(import.meta.dir, "..");

/** The matcher applied to a promise, in code (a comment that names it does not match). */
export const PROMISE_MATCHER = /\)\s*\.(resolves|rejects)\s*\./;

function drivesChromium(path: string, source: string): boolean {
  return path.includes(`${join("tests", "e2e")}/`) || /from "playwright-core"/.test(source);
}

test("no test that drives Chromium waits through expect(promise).resolves or .rejects", () => {
  const offending: string[] = [];
  for (const entry of readdirSync(testsDir, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".ts")) continue;
    const path = join(testsDir, entry);
    if (path === import.meta.path) continue; // its own examples below
    const source = readFileSync(path, "utf8");
    if (!drivesChromium(path, source)) continue;
    source.split("\n").forEach((line, i) => {
      if (PROMISE_MATCHER.test(line)) offending.push(`${relative(join(testsDir, ".."), path)}:${i + 1}: ${line.trim()}`);
    });
  }
  // Write `expect(await p).toBe(x)`, or for a rejection `await p.then(() => undefined, (e) => e)` and check the error.
  expect(offending).toEqual([]);
});

test("the check sees the matcher in the form the flaky tests used, and not in prose", () => {
  expect(PROMISE_MATCHER.test(`await expect(page.getByRole("alert").textContent()).resolves.toContain("x");`)).toBe(true);
  expect(PROMISE_MATCHER.test("await expect(run(cdp)).rejects.toThrow(/page range/);")).toBe(true);
  expect(PROMISE_MATCHER.test("// never through expect(promise).resolves: see docs")).toBe(false);
});
