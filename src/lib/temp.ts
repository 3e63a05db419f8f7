// Cleans temp directories a killed Chromium left behind (Playwright removes them only on a clean close).
import { readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const LEFTOVER = /^(playwright_chromiumdev_profile-|playwright-artifacts-)/;

/** Removes Playwright temp dirs untouched for `olderThanMs` (a live Chromium keeps touching its own). */
export function removeStaleBrowserTemp(olderThanMs = 10 * 60_000, now = Date.now()): number {
  let removed = 0;
  const dir = tmpdir();
  for (const name of readdirSync(dir)) {
    if (!LEFTOVER.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs < olderThanMs) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // Another process may be removing it at the same time.
    }
  }
  return removed;
}
