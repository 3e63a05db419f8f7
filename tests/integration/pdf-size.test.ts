// The cap on PDF size: a report whose PDF is larger fails with pdf_too_large and stores nothing.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { generate, type TestApp, useRenderApp } from "../helpers/app";

setDefaultTimeout(60_000);
let t: TestApp;
useRenderApp((a) => (t = a), { maxPdfSize: 40_000 });

const rows = (n: number) =>
  `<table>${Array.from({ length: n }, (_, i) => `<tr><td>row ${i}</td><td>${"lorem ipsum ".repeat(8)}</td></tr>`).join("")}</table>`;

test("a PDF over --max-pdf-size fails with pdf_too_large, and nothing is stored", async () => {
  const { report } = await generate(t, { engine: "raw", html_template: rows(1500) });
  expect(report.status).toBe("failed");
  expect(report.error.code).toBe("pdf_too_large");
  expect(report.error.message).toContain("40000");
  expect(readdirSync(join(t.dir, "reports"))).not.toContain(`${report.report_id}.pdf`);
});

test("a PDF under the cap prints", async () => {
  const { report, pdf } = await generate(t, { engine: "raw", html_template: rows(5) });
  expect(report.status).toBe("succeeded");
  expect(pdf!.length).toBeLessThan(40_000);
});
