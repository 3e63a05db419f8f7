// A big chunked report under the default limits: the bench's report template with 20,000 rows (~275
// pages; printed whole, it took 10 s and 2.2 GiB on this machine), in chunks of 5,000. Every row prints once, in order, and the page numbers run across the chunks. The
// 100,000-row report is the bench's (bun scripts/bench.ts --templates report-100k).
import { expect, setDefaultTimeout, test } from "bun:test";
import { CHUNKED_REPORT_TEMPLATE, reportData } from "../../scripts/bench-templates";
import { fetchLink, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";

setDefaultTimeout(180_000);

let t: TestApp;
useRenderApp((a) => (t = a));

test("20,000 rows in chunks of 5,000 on the default limits", async () => {
  const data = { ...reportData(20_000), total_rows: 20_000, grand_total: 1234.5 };
  const res = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: {
      engine: "ejs",
      html_template: CHUNKED_REPORT_TEMPLATE,
      data,
      options: { chunk: { array: "rows", size: 5000 }, page_numbers: { position: "bottom-right" } },
    },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  // ~15 s on an idle 2-core machine; the shared one may be much slower.
  const report = await waitForReport(t, report_id, 150_000);
  expect(report.error).toBeNull();
  expect(report.status).toBe("succeeded");
  const link = ((await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string }).data;
  const pdf = new Uint8Array(await (await fetchLink(t, link)).arrayBuffer());
  const pages: number = report.page_count;
  expect(pages).toBeGreaterThan(300);
  const text = await pdfText(pdf);
  // The amount column's first cell of each row is its number: every row once, in order.
  const rows = [...text.matchAll(/^\s*(\d+)\s+(?:Widget|Gadget|Sprocket|Flange|Bracket|Gasket|Bearing|Spindle|Coupling|Valve)\b/gm)].map(
    (m) => Number(m[1]),
  );
  expect(rows).toEqual(Array.from({ length: 20_000 }, (_, i) => i + 1));
  expect(text.match(/Quarterly parts report/g)?.length).toBe(1);
  expect(text).toContain("20000 lines");
  expect(text).toContain("1234.50");
  const pageNumbers = [...text.matchAll(/Page (\d+) of (\d+)/g)];
  expect(pageNumbers.map((m) => Number(m[1]))).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
  expect(pageNumbers.every((m) => Number(m[2]) === pages)).toBe(true);
  // The table's header row repeats on every page.
  expect(text.match(/#\s+Item\s+Qty\s+Unit price\s+Amount/g)?.length).toBe(pages);
});
