// The pages of one Chromium are elastic (src/render/page-slots.ts): an idle Chromium keeps only
// --render-idle-pages renderer processes, opens more (up to --render-pages) when reports find every
// page busy, and closes the extra ones after a quiet period. Counted as real renderer processes, since
// they are what an idle page costs.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { settings } from "../../src/config/settings";
import { commandLine } from "../../src/lib/process-tree";
import { defaultPdfOptions } from "../../src/pdf/options";
import { BrowserHost } from "../../src/render/browser";
import { pageText } from "../helpers/pdf";
import { descendants } from "../helpers/process";

setDefaultTimeout(60_000);

const TRIM_MS = 1_500;
const host = new BrowserHost({
  executablePath: settings.chromiumPath.default,
  pages: 4,
  idlePages: 2,
  pagesIdleTrimMs: TRIM_MS,
  renderTimeoutMs: 20_000,
  javascript: true,
  allowHosts: [],
  creator: "reportgen test",
});
beforeAll(() => host.start());
afterAll(() => host.close());

/** Renderer processes of this test's Chromium (the only one this process starts). */
const renderers = () =>
  descendants(process.pid).filter((pid) => {
    const cmd = commandLine(pid);
    return cmd.startsWith(`${settings.chromiumPath.default} `) && cmd.includes("--type=renderer");
  }).length;

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** A report that holds its page for `ms` (a delay before the print). */
const slow = (i: number, ms: number) =>
  host.render({ html: `<h1>elastic ${i}</h1>`, options: { ...defaultPdfOptions, waitFor: { delayMs: ms } } });

test("an idle Chromium keeps the idle page count; reports that find every page busy open more, up to the most", async () => {
  await until("the idle pages", () => host.openPages === 2 && renderers() === 2);
  // One report at a time needs no extra page.
  for (let i = 0; i < 3; i++) expect(pageText(await slow(i, 0), 1)).toContain(`elastic ${i}`);
  expect(host.openPages).toBe(2);
  expect(renderers()).toBe(2);

  // Six at once: the two idle pages are taken, then two more open; never more than four.
  let most = 0;
  const watch = setInterval(() => (most = Math.max(most, renderers())), 20);
  const pdfs = await Promise.all(Array.from({ length: 6 }, (_, i) => slow(10 + i, 600)));
  clearInterval(watch);
  for (const [i, pdf] of pdfs.entries()) expect(pageText(pdf, 1)).toContain(`elastic ${10 + i}`);
  expect(host.openPages).toBe(4);
  expect(most).toBe(4);
  expect(renderers()).toBe(4);
});

test("after a quiet period the extra pages close (their renderer processes end), and the next burst opens them again", async () => {
  await until("the extra pages to close", () => host.openPages === 2 && renderers() === 2, TRIM_MS + 10_000);
  // A report keeps the idle pages working, and resets the quiet period.
  expect(pageText(await slow(20, 0), 1)).toContain("elastic 20");
  const pdfs = await Promise.all(Array.from({ length: 4 }, (_, i) => slow(30 + i, 400)));
  for (const [i, pdf] of pdfs.entries()) expect(pageText(pdf, 1)).toContain(`elastic ${30 + i}`);
  expect(host.openPages).toBeGreaterThan(2);
  await until("the pages to shrink again", () => host.openPages === 2 && renderers() === 2, TRIM_MS + 10_000);
});
