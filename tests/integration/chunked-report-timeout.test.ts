// --report-timeout bounds a chunked report as a whole: each chunk here prints within --render-timeout,
// but eight of them take longer than the report may, even two at a time (--chunk-parallel's default). It fails render_timeout, saying how far it got.
import { expect, setDefaultTimeout, test } from "bun:test";
import { type TestApp, useRenderApp, waitForReport } from "../helpers/app";

setDefaultTimeout(120_000);

let t: TestApp;
useRenderApp((a) => (t = a), { reportTimeout: 2_500 });

test("a chunked report past --report-timeout fails render_timeout, naming the chunks printed", async () => {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: {
      engine: "ejs",
      // Each chunk's script holds its load for 1.2 s: eight chunks need ~5 s two at a time, the report may take 2.5 s.
      html_template: "<p>rows from <%= chunk.first_row %></p><script>const t = Date.now(); while (Date.now() - t < 1200) {}</script>",
      data: { rows: Array.from({ length: 800 }, (_, i) => i) },
      options: { chunk: { array: "rows", size: 100 } },
    },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const r = await waitForReport(t, report_id, 60_000);
  expect(r.status).toBe("failed");
  expect(r.error.code).toBe("render_timeout");
  expect(r.error.message).toContain("--report-timeout");
  expect(r.error.message).toMatch(/with [1-7] of its 8 chunks printed/);
});
