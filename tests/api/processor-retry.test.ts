// Whether a failed attempt is tried again is a property of its error code (RETRYABLE_FAILURES in
// src/lib/error-codes.ts), read by the report processor, not a flag set where the error is thrown: a
// retryable code is tried up to --max-attempts (3 here) and then fails saying it gave up; any other code
// fails at once. The 409 of each failed report gives the advice of the code's class. The render pool is
// a stand-in that fails with the code named in the page; the processor and queue are real.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ReportFailureCode } from "../../src/lib/error-codes";
import { RenderError } from "../../src/lib/errors";
import type { ReportProcessor } from "../../src/modules/reports/processor";
import { createTestApp, type TestApp, waitForReport } from "../helpers/app";
import { expectError } from "../helpers/scenario";
import { standInProcessor } from "../helpers/stand-in-processor";

let t: TestApp;
let processor: ReportProcessor;

beforeAll(async () => {
  t = await createTestApp();
  processor = standInProcessor(t, (html) => {
    const code = /data-fail="(\w+)"/.exec(html)?.[1] as ReportFailureCode;
    // Thrown as the sign step throws it: no flag of its own.
    return Promise.reject(new RenderError(code, `failed with ${code}`));
  });
});

afterAll(async () => {
  await processor.stop(1_000);
  await t.close();
});

async function failedWith(code: string) {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "raw", html_template: `<p data-fail="${code}">x</p>` },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  // Two backoffs (1 s and 2 s) for a retried code: well within the wait, however busy the machine.
  const report = await waitForReport(t, report_id, 30_000);
  const body = await expectError(await t.request("GET", `/api/v1/reports/${report_id}/download`), 409, "report_failed");
  return { report, message: body.message as string };
}

test.each([
  ["timestamp_unavailable", true],
  ["postprocess_failed", true],
  ["template_error", false],
  ["signature_page_missing", false],
  ["passwords_unavailable", false],
])("%s: retried %p", async (code, retried) => {
  const { report, message } = await failedWith(code);
  expect(report.status).toBe("failed");
  expect(report.error?.code).toBe(code);
  expect(report.attempts).toBe(retried ? 3 : 1);
  expect(report.error?.message).toBe(retried ? `failed with ${code} (gave up after 3 attempts)` : `failed with ${code}`);
  expect(message).toContain(report.error!.message);
});

test("the 409 of a service fault does not blame the template; a template fault's asks to fix it", async () => {
  const service = await failedWith("timestamp_unavailable");
  expect(service.message).not.toMatch(/fix the template/i);
  expect(service.message).toContain("not of the template or data: submit it again later");
  const client = await failedWith("template_error");
  expect(client.message).toContain("Fix the template or data and submit it again.");
});
