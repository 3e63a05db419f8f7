// Hostile EJS: each runaway template fails with a clear reason within its deadline + 1 s, while
// the API keeps its latency and other reports keep rendering.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp, waitForReport } from "../helpers/app";

const DEADLINE = 1000;
let t: TestApp;
beforeAll(
  async () =>
    (t = await createTestApp({
      render: true,
      config: { templateTimeout: DEADLINE, templateMemory: 64 * 1024 ** 2, templateOutputMax: 1024 ** 2 },
    })),
);
afterAll(() => t.close());

const attacks: [string, string, RegExp][] = [
  ["infinite loop", "<% while(true){} %>", /template_timeout/],
  ["one long native call", "<% for (;;) { 'x'.repeat(3e7).split('').reverse() } %>", /template_(timeout|memory_exceeded|error)/],
  ["huge string", "<% 'x'.repeat(2**29) %>", /template_(memory_exceeded|error)/],
  ["string doubling", "<% var s = 'x'; while (true) s += s %>", /template_(memory_exceeded|error)/],
  ["giant array", "<% var a = []; while (true) a.push(new Array(1e6).fill(1)) %>", /template_(memory_exceeded|error)/],
  ["unbounded recursion", "<% function f(n) { return f(n + 1) + 1 } f(0) %>", /template_error/],
  ["output bomb", "<%- 'y'.repeat(3 * 1024 * 1024) %>", /template_output_too_large/],
];

test.each(attacks)("%s: fails with a clear reason within deadline + 1 s", async (_name, html_template, code) => {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "ejs", html_template, data: {} } });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const r = await waitForReport(t, report_id, 15_000);
  expect(r.status).toBe("failed");
  expect(r.error.code).toMatch(code);
  expect(r.error.message.length).toBeGreaterThan(10);
  expect(Date.parse(r.finished_at) - Date.parse(r.started_at)).toBeLessThan(DEADLINE + 1000);
});

async function listLatencies(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    expect((await t.request("GET", "/api/v1/reports?limit=5")).status).toBe(200);
    out.push(performance.now() - t0);
    await Bun.sleep(10);
  }
  return out.sort((a, b) => a - b);
}

test("while templates run away, the API answers promptly and other reports still render", async () => {
  const baseline = await listLatencies(30);
  const hostile = await Promise.all(
    [0, 1].map(
      async () =>
        (await (
          await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "ejs", html_template: "<% while(true){} %>", data: {} } })
        ).json()) as { report_id: string },
    ),
  );
  // Both sandboxes are now busy with loops: a normal report must still finish, after them at worst.
  const normal = (await (
    await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "ejs", html_template: "<p><%= ok %></p>", data: { ok: "fine" } },
    })
  ).json()) as { report_id: string };
  const raw = (await (
    await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>raw meanwhile</p>" } })
  ).json()) as { report_id: string };
  // The sandboxes are separate processes: the server's event loop does not feel them.
  const during = await listLatencies(30);
  const median = (xs: number[]) => xs[xs.length >> 1]!;
  expect(median(during)).toBeLessThan(median(baseline) * 3 + 10);
  // Raw reports need no sandbox: they print while both sandboxes are stuck.
  const rawDone = await waitForReport(t, raw.report_id, 10_000);
  expect(rawDone.status).toBe("succeeded");
  expect(Date.parse(rawDone.finished_at)).toBeLessThan(Date.now());
  expect((await waitForReport(t, normal.report_id, 10_000)).status).toBe("succeeded");
  for (const h of hostile) expect((await waitForReport(t, h.report_id, 10_000)).error.code).toBe("template_timeout");
});
