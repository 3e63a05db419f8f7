// How many parts of one chunked report Chromium prints at once: --chunk-parallel lanes, of which those
// beyond the first print only while the parts' HTML together stays within --chunk-html-in-flight; and
// how many parts it prints: a chunk whose HTML would pass --chunk-part-html is cut into smaller parts.
// Read from the render pool's own calls (the most in flight at once, the calls) on real Chromium, with
// the PDF checked.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { generate, pdfInfo, type TestApp, useRenderApp } from "../helpers/app";
import { pageText } from "../helpers/pdf";

setDefaultTimeout(120_000);

const TEMPLATE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Ledger</title></head><body>
<table><thead><tr><th>Row</th></tr></thead><tbody>
<% rows.forEach(function (r) { %><tr><td>R<%= r %>R</td></tr><% }) %>
</tbody></table></body></html>`;

const chunked = (size: number) => ({
  engine: "ejs",
  html_template: TEMPLATE,
  data: { rows: Array.from({ length: 1200 }, (_, i) => i + 1) },
  options: { chunk: { array: "rows", size } },
});
const body = chunked(200);

/** Watches the render pool's prints while `run` runs: the most in flight at once, and each one's HTML. */
async function prints(t: TestApp, run: () => Promise<void>): Promise<{ most: number; html: string[] }> {
  const pool = t.app.renderer!.pool;
  const original = pool.render.bind(pool);
  let now = 0;
  let most = 0;
  const html: string[] = [];
  pool.render = async (...args: Parameters<typeof original>) => {
    html.push(args[0].html);
    most = Math.max(most, ++now);
    try {
      return await original(...args);
    } finally {
      now--;
    }
  };
  try {
    await run();
  } finally {
    pool.render = original;
  }
  return { most, html };
}

const mostAtOnce = async (t: TestApp, run: () => Promise<void>) => (await prints(t, run)).most;

async function printsEveryRow(t: TestApp, report_ = body): Promise<void> {
  const { report, pdf } = await generate(t, report_);
  expect(report.error).toBeNull();
  const pages = Number((await pdfInfo(pdf!)).Pages);
  const rows: number[] = [];
  for (let p = 1; p <= pages; p++) for (const m of pageText(pdf!, p).matchAll(/R(\d+)R/g)) rows.push(Number(m[1]));
  expect(rows).toEqual(report_.data.rows);
}

describe("parts within the HTML budget print two at a time (the default lanes)", () => {
  let t: TestApp;
  useRenderApp((a) => (t = a));
  test("six small parts: two in flight at once, every row once and in order", async () => {
    expect(t.app.config.chunkParallel).toBe(2);
    expect(await mostAtOnce(t, () => printsEveryRow(t))).toBe(2);
  });
});

describe("parts whose HTML passes the budget print one at a time", () => {
  let t: TestApp;
  // Each part's HTML (~6 KB) alone passes 1 KB: the first still prints, the second waits for it.
  useRenderApp((a) => (t = a), { chunkHtmlInFlight: 1024 });
  test("six parts, one in flight at a time, every row once and in order", async () => {
    expect(await mostAtOnce(t, () => printsEveryRow(t))).toBe(1);
  });
});

describe("a chunk whose HTML would pass --chunk-part-html prints as several parts", () => {
  let t: TestApp;
  // A row is ~30 bytes of HTML: 1 KB holds ~34 rows, so parts are cut to the smallest chunk size, 100 rows.
  useRenderApp((a) => (t = a), { chunkPartHtml: 1024 });
  const rowsOf = (html: string) => html.match(/R\d+R/g)?.length ?? 0;
  test("one chunk of 1,200 rows prints as 12 parts of 100, every row once and in order", async () => {
    const { html } = await prints(t, () => printsEveryRow(t, chunked(1200)));
    expect(html.map(rowsOf)).toEqual(Array(12).fill(100));
  });
});

describe("the default --chunk-part-html keeps chunks of short rows whole", () => {
  let t: TestApp;
  useRenderApp((a) => (t = a));
  test("1,200 rows in chunks of 600 print as two parts", async () => {
    const { html } = await prints(t, () => printsEveryRow(t, chunked(600)));
    expect(html.map((h) => h.match(/R\d+R/g)?.length)).toEqual([600, 600]);
  });
});
