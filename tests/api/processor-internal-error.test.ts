// An unexpected exception inside the render worker reaches the processor as internal_error carrying the
// exception's own text. The client must see only the generic message (no paths, no stack), the cause goes
// to the log, and the report is not retried as if rendering had been interrupted. The pool is a stand-in
// (pure logic of the processor); the queue is the real SQLite one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { REPORT_FAILURES } from "../../src/lib/error-codes";
import { RenderError } from "../../src/lib/errors";
import type { ReportProcessor } from "../../src/modules/reports/processor";
import { createTestApp, type TestApp, waitForReport } from "../helpers/app";
import { standInProcessor } from "../helpers/stand-in-processor";

let t: TestApp;
let processor: ReportProcessor;
const logged: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const capture = (msg: string, fields?: unknown) => void logged.push({ msg, fields });
  const base = t.app.logger;
  const logger = { ...base, error: capture, child: (f: Record<string, unknown>) => ({ ...base.child(f), error: capture }) } as typeof base;
  const internal = new RenderError(
    "internal_error",
    "an internal error stopped this render: TypeError at /srv/reportgen/src/render/browser.ts:123",
  );
  processor = standInProcessor(t, () => Promise.reject(internal), logger);
});

afterAll(async () => {
  await processor.stop(1_000);
  await t.close();
});

test("a render worker's internal_error is failed at once with the generic message; its text is only logged", async () => {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>" } });
  const { report_id } = (await res.json()) as { report_id: string };
  const r = await waitForReport(t, report_id);
  expect(r.status).toBe("failed");
  expect(r.error).toEqual({ code: "internal_error", message: REPORT_FAILURES.internal_error });
  expect(JSON.stringify(r)).not.toContain("/srv/reportgen");
  expect(r.attempts).toBe(1);
  const cause = (logged as { fields: { error: Error } }[]).map((l) => l.fields.error.message).join("\n");
  expect(cause).toContain("/srv/reportgen/src/render/browser.ts");
});
