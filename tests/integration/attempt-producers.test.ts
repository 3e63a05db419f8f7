// Every producer of a report's PDF (src/modules/reports/producers.ts: a print, a post-processed print, a
// chunked report, a merge) goes through the attempt's one reservation of its spool file: exactly one per
// attempt, and the stored PDF is whole. The pipeline's work folder is left empty after each. Real
// Chromium, sandboxes and qpdf; the data dir's store is the spool, its reserve() counted where it stands.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { generate, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";

// Real Chromium, sandboxes and qpdf on a shared 2-core machine.
setDefaultTimeout(120_000);

let t: TestApp;
/** Reservations of the spool, by report id and fence. */
const reserved = new Map<string, number>();

useRenderApp((a) => {
  t = a;
  const spool = t.app.services.spool;
  const reserve = spool.reserve.bind(spool);
  spool.reserve = (id: string, fence: string) => {
    reserved.set(`${id}.${fence}`, (reserved.get(`${id}.${fence}`) ?? 0) + 1);
    return reserve(id, fence);
  };
});

/** The report succeeded, its one attempt reserved its file once, and nothing of it is left in the work folder. */
function reservedOnce(report: Record<string, any>): void {
  expect(report.error).toBeNull();
  expect(report.status).toBe("succeeded");
  expect(report.attempts).toBe(1);
  expect(reserved.get(`${report.report_id}.1`)).toBe(1);
  const work = join(t.dir, "post");
  if (existsSync(work)) expect(readdirSync(work).filter((f) => f.startsWith(report.report_id))).toEqual([]);
}

const ROWS = `<% rows.forEach(function (r) { %><p>Row <%= r %>.</p><% }) %>`;
const rows = Array.from({ length: 250 }, (_, i) => i + 1);

test("a print, a post-processed print, a chunked report and a merge each reserve their spool file once", async () => {
  const plain = await generate(t, { engine: "raw", html_template: "<p>Plain print</p>" });
  reservedOnce(plain.report);
  expect(await pdfText(plain.pdf!)).toContain("Plain print");

  const marked = await generate(t, { engine: "raw", html_template: "<p>Marked print</p>", options: { watermark: { text: "DRAFT" } } });
  reservedOnce(marked.report);
  expect(await pdfText(marked.pdf!)).toContain("DRAFT");

  const chunked = await generate(t, {
    engine: "ejs",
    html_template: ROWS,
    data: { rows },
    options: { chunk: { array: "rows", size: 100 } },
  });
  reservedOnce(chunked.report);
  // Three parts joined in order: every row once.
  expect([...(await pdfText(chunked.pdf!)).matchAll(/Row \d+\./g)].map((m) => m[0])).toEqual(rows.map((r) => `Row ${r}.`));

  const res = await t.request("POST", "/api/v1/reports/merge", {
    body: { report_ids: [plain.report.report_id, marked.report.report_id] },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const merged = await waitForReport(t, report_id);
  reservedOnce(merged);
  expect(merged.page_count).toBe(2);
});
