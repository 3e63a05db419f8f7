// A watched browser signed in to the dashboard, and the file-level set-up most page tests share: the
// harness, one such browser for all the file's tests, and after them the page checks and the clean-up.
import { afterAll, beforeAll } from "bun:test";
import { type Harness, startHarness, viewports, Watched } from "./harness";

/** A new watched browser context, signed in with `key` (the operator key unless said). */
export async function openSignedIn(h: Harness, key = h.adminKey, viewport = viewports.desktop): Promise<Watched> {
  const w = await Watched.open(h, viewport);
  await w.signIn(key);
  return w;
}

/**
 * For a test file: the harness and one browser signed in with the operator key, ready before the first
 * test (`prepare` runs in between, e.g. to seed data the pages show); after the last, every page it
 * showed is checked (Watched.check) and all is stopped. Read `h` and `w` inside tests, not at load time.
 */
export function useSignedIn(prepare?: (h: Harness) => Promise<void>): { h: Harness; w: Watched } {
  const s = {} as { h: Harness; w: Watched };
  beforeAll(async () => {
    s.h = await startHarness();
    await prepare?.(s.h);
    s.w = await openSignedIn(s.h);
  }, 180_000);
  afterAll(async () => {
    s.w?.check();
    await s.w?.close();
    await s.h?.cleanup();
  }, 60_000);
  return s;
}
