// How many parts of one chunked report Chromium prints at once: --chunk-parallel lanes, of which those
// beyond the first print only while the parts' HTML together stays within --chunk-html-in-flight. Read
// from the render pool's own calls (the most in flight at once) on real Chromium, with the PDF checked.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { generate, pdfInfo, type TestApp, useRenderApp } from "../helpers/app";
import { pageText } from "../helpers/pdf";

setDefaultTimeout(120_000);

const TEMPLATE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Ledger</title></head><body>
<table><thead><tr><th>Row</th></tr></thead><tbody>
<% rows.forEach(function (r) { %><tr><td>R<%= r %>R</td></tr><% }) %>
</tbody></table></body></html>`;

const body = {
  engine: "ejs",
  html_template: TEMPLATE,
  data: { rows: Array.from({ length: 1200 }, (_, i) => i + 1) },
  options: { chunk: { array: "rows", size: 200 } },
};

/** Counts the render pool's prints in flight while `run` runs; returns the most at once. */
async function mostAtOnce(t: TestApp, run: () => Promise<void>): Promise<number> {
  const pool = t.app.renderer!.pool;
  const original = pool.render.bind(pool);
  let now = 0;
  let most = 0;
  pool.render = async (...args: Parameters<typeof original>) => {
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
  return most;
}

async function printsEveryRow(t: TestApp): Promise<void> {
  const { report, pdf } = await generate(t, body);
  expect(report.error).toBeNull();
  const pages = Number((await pdfInfo(pdf!)).Pages);
  const rows: number[] = [];
  for (let p = 1; p <= pages; p++) for (const m of pageText(pdf!, p).matchAll(/R(\d+)R/g)) rows.push(Number(m[1]));
  expect(rows).toEqual(body.data.rows);
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
