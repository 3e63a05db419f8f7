// Chunked reports (options.chunk, docs/big-reports.md): a multi-chunk report printed in parts and joined,
// read back with poppler and qpdf: continuous page numbers, the table header on every page, one outline
// whose entries open the right pages, every row once and in order; the whole report held to
// --max-pages; progress while it renders; and the refusals of options.chunk that cannot work.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, treeOf } from "../../src/lib/process-tree";
import { generate, pdfInfo, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { pageText, pdfFonts } from "../helpers/pdf";

// Real Chromium, sandboxes and qpdf on a shared 2-core machine.
setDefaultTimeout(120_000);

let t: TestApp;
// Two chunks print at once here (--chunk-parallel 2, the default on two cores or more): the parts still join in order.
useRenderApp((a) => (t = a), { maxPages: 200, chunkParallel: 2 });

const TEMPLATE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title><%= title %></title>
<style>body{font:10px sans-serif} th{background:#ddd} td,th{padding:2px 4px}</style></head><body>
<% if (chunk.index === 0) { %><h1>Ledger</h1><% } %>
<h2>Rows <%= chunk.first_row + 1 %> to <%= chunk.first_row + rows.length %></h2>
<table><thead><tr><th>Row</th><th>Item</th></tr></thead><tbody>
<% rows.forEach(function (r) { %><tr><td>R<%= r.n %>R</td><td><%= r.name %></td></tr><% }) %>
</tbody></table></body></html>`;

const data = (n: number) => ({ title: "Chunked ledger", rows: Array.from({ length: n }, (_, i) => ({ n: i + 1, name: `item ${i + 1}` })) });

const body = (n: number, chunk: Record<string, unknown>, options: Record<string, unknown> = {}) => ({
  engine: "ejs",
  html_template: TEMPLATE,
  data: data(n),
  options: { margin: { top: "12mm", bottom: "15mm" }, outline: true, chunk, ...options },
});

function outline(pdf: Uint8Array): { title: string; page: number; kids: number }[] {
  const f = join(tmpdir(), `rg-chunk-${Math.random().toString(36).slice(2)}.pdf`);
  Bun.write(f, pdf);
  try {
    const p = Bun.spawnSync(["qpdf", "--json=2", "--json-key=outlines", f]);
    const flat: { title: string; page: number; kids: number }[] = [];
    type O = { title: string; destpageposfrom1: number; kids: O[] };
    const walk = (os: O[]) => {
      for (const o of os) {
        flat.push({ title: o.title, page: o.destpageposfrom1, kids: o.kids.length });
        walk(o.kids);
      }
    };
    walk((JSON.parse(p.stdout.toString()) as { outlines: O[] }).outlines);
    return flat;
  } finally {
    rmSync(f, { force: true });
  }
}

describe("a chunked report", () => {
  test("3,000 rows in chunks of 1,000: continuous page numbers, headers on every page, one outline, every row in order", async () => {
    const { report, pdf } = await generate(t, body(3000, { array: "rows", size: 1000 }, { page_numbers: {} }));
    expect(report.error).toBeNull();
    expect(report.status).toBe("succeeded");
    expect(report.progress).toBeUndefined();
    const pages = Number((await pdfInfo(pdf!)).Pages);
    expect(report.page_count).toBe(pages);
    expect(pages).toBeGreaterThan(30);
    expect((await pdfInfo(pdf!)).Title).toBe("Chunked ledger");
    const rows: number[] = [];
    for (let p = 1; p <= pages; p++) {
      const text = pageText(pdf!, p);
      expect(text).toContain(`Page ${p} of ${pages}`);
      expect(text).toContain("Row");
      expect(text).toContain("Item");
      for (const m of text.matchAll(/R(\d+)R/g)) rows.push(Number(m[1]));
    }
    expect(rows).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    // One outline: the first chunk's title, then each chunk's section at the page its first row prints on.
    const o = outline(pdf!);
    expect(o.map((e) => e.title)).toEqual(["Ledger", "Rows 1 to 1000", "Rows 1001 to 2000", "Rows 2001 to 3000"]);
    expect(o[0]!.page).toBe(1);
    for (const [i, e] of o.slice(1).entries()) expect(pageText(pdf!, e.page)).toContain(`R${i * 1000 + 1}R`);
    expect(o[2]!.page).toBeGreaterThan(o[1]!.page);
    expect(o[3]!.page).toBeGreaterThan(o[2]!.page);
  });

  test("shows its progress while it renders, and none once done", async () => {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: body(2000, { array: "rows", size: 200 }) });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const seen: { done: number; total: number }[] = [];
    for (const end = Date.now() + 60_000; Date.now() < end; ) {
      const r = ((await (await t.request("GET", `/api/v1/reports/${report_id}`)).json()) as { data: Record<string, any> }).data;
      if (r.progress) seen.push(r.progress);
      if (r.status !== "queued" && r.status !== "processing") break;
      await Bun.sleep(20);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.total === 10 && s.done >= 0 && s.done <= 10)).toBe(true);
    expect(seen.some((s) => s.done > 0 && s.done < 10)).toBe(true);
    const done = await waitForReport(t, report_id);
    expect(done.status).toBe("succeeded");
    expect(done.progress).toBeUndefined();
  });

  test("--max-pages holds for the whole report, not each chunk", async () => {
    // Each chunk of 1,000 rows is well under 200 pages; the 12,000 rows together are not.
    const { report } = await generate(t, body(12_000, { array: "rows", size: 1000 }, { outline: false }));
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("too_many_pages");
    expect(report.error.message).toContain("200");
  });

  test("post-processing applies to the joined report: a watermark, and PDF/A with the page numbers in an embedded font", async () => {
    const { report, pdf } = await generate(
      t,
      body(600, { array: "rows", size: 200 }, { page_numbers: {}, watermark: { text: "DRAFT" }, pdfa: "2b" }),
    );
    expect(report.error).toBeNull();
    const pages = Number((await pdfInfo(pdf!)).Pages);
    expect(pages).toBeGreaterThan(3);
    const last = pageText(pdf!, pages);
    expect(last).toContain(`Page ${pages} of ${pages}`);
    expect(last).toContain("DRAFT");
    expect(pdfFonts(pdf!).every((f) => f.embedded)).toBe(true);
    expect(pdfFonts(pdf!).some((f) => f.name.includes("LiberationSans-Bold"))).toBe(true);
    // The joined outline rode in the page numbers' overlay run (PDF/A embeds their font): each chunk's section opens its first row's page.
    const o = outline(pdf!);
    expect(o.map((e) => e.title)).toEqual(["Ledger", "Rows 1 to 200", "Rows 201 to 400", "Rows 401 to 600"]);
    for (const [i, e] of o.slice(1).entries()) expect(pageText(pdf!, e.page)).toContain(`R${i * 200 + 1}R`);
  });

  test("a nested array and a custom page number at the top right", async () => {
    const { report, pdf } = await generate(t, {
      engine: "ejs",
      html_template: "<p>first <%= ledger.rows[0] %> of <%= chunk.count %></p><div style='page-break-before:always'>next</div>",
      data: { ledger: { rows: Array.from({ length: 300 }, (_, i) => i) } },
      options: {
        margin: { top: "15mm" },
        chunk: { array: "ledger.rows", size: 100 },
        page_numbers: { template: "{page}/{pages}", position: "top-right" },
      },
    });
    expect(report.status).toBe("succeeded");
    expect(report.page_count).toBe(6);
    expect(pageText(pdf!, 3)).toContain("first 100 of 3");
    expect(pageText(pdf!, 3)).toContain("3/6");
  });
});

/** This process's Chromium renderers (one per open page). */
const renderers = () => new Set(treeOf(process.pid).filter((pid) => commandLine(pid).includes("--type=renderer")));

test("a page that printed a big document is replaced; one that printed a small one is kept (src/render/browser.ts)", async () => {
  const small = await generate(t, { engine: "raw", html_template: "<p>small</p>" });
  expect(small.report.status).toBe("succeeded");
  const before = renderers();
  expect((await generate(t, { engine: "raw", html_template: "<p>small again</p>" })).report.status).toBe("succeeded");
  expect(renderers()).toEqual(before);
  const big = `<p>${"big document ".repeat(25_000)}</p>`; // 325 KB of HTML
  expect((await generate(t, { engine: "raw", html_template: big })).report.status).toBe("succeeded");
  let after = renderers();
  for (const end = Date.now() + 10_000; Date.now() < end && [...before].every((p) => after.has(p)); after = renderers())
    await Bun.sleep(100);
  expect([...before].filter((p) => !after.has(p)).length).toBe(1);
});

describe("options.chunk refused as sent", () => {
  const cases: { name: string; body: Record<string, unknown>; field: string }[] = [
    { name: "an array that is not there", body: body(10, { array: "lines", size: 100 }), field: "options.chunk.array" },
    { name: "a key that is not an array", body: body(10, { array: "title", size: 100 }), field: "options.chunk.array" },
    { name: "a size under 100", body: body(10, { array: "rows", size: 10 }), field: "options.chunk.size" },
    { name: "a size over 20,000", body: body(10, { array: "rows", size: 50_000 }), field: "options.chunk.size" },
    {
      name: "a raw template",
      body: { engine: "raw", html_template: "<p>x</p>", options: { chunk: { array: "rows", size: 100 } } },
      field: "options.chunk",
    },
    {
      name: "Chromium's per-part page numbers",
      body: body(10, { array: "rows", size: 100 }, { footer_template: '<span class="pageNumber"></span>' }),
      field: "options.footer_template",
    },
    { name: "a tagged PDF", body: body(10, { array: "rows", size: 100 }, { tagged: true }), field: "options.tagged" },
    {
      name: "an e-invoice",
      body: body(10, { array: "rows", size: 100 }, { e_invoice: { profile: "en16931", invoice: {} } }),
      field: "options.e_invoice",
    },
    { name: "page ranges", body: body(10, { array: "rows", size: 100 }, { page_ranges: "1-2" }), field: "options.page_ranges" },
  ];
  for (const c of cases)
    test(c.name, async () => {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: c.body });
      expect(res.status).toBe(422);
      const e = (await res.json()) as { error: string; details: { field: string }[] };
      expect(e.error).toBe("validation_failed");
      expect(JSON.stringify(e.details)).toContain(c.field);
      expect(JSON.stringify(e.details)).not.toContain("should be one of");
    });

  test("each chunk's data is held to --data-max-keys, and the rows to --chunk-max-rows", async () => {
    // 300,000 rows of one value: 300,000 items, over the 200,000 keys of the whole data, yet fine per chunk.
    const rows = Array.from({ length: 300_000 }, () => 1);
    const over = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "ejs", html_template: "<p>x</p>", data: { rows }, options: { chunk: { array: "rows", size: 20_000 } } },
    });
    expect(over.status).toBe(422);
    expect(JSON.stringify(await over.json())).toContain("--chunk-max-rows");
    const wide = { rows: Array.from({ length: 200 }, () => Object.fromEntries(Array.from({ length: 2000 }, (_, k) => [`k${k}`, k]))) };
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "ejs", html_template: "<p>x</p>", data: wide, options: { chunk: { array: "rows", size: 150 } } },
    });
    expect(res.status).toBe(422);
    const e = (await res.json()) as { message: string };
    expect(e.message).toContain("chunk 1 of 2");
  });
});
