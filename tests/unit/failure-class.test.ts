// A failure code's class, declared once in src/lib/error-codes.ts: whether it is the service's fault
// (SERVICE_FAULTS) and whether the report is tried again for it (RETRYABLE_FAILURES); and the advice a
// failed report's 409 gives, chosen from the class (modules/reports/failure-advice.ts); and the codes an
// untrusted EJS sandbox child may report (render/sandbox-protocol.ts).
import { expect, test } from "bun:test";
import { isRetryable, isServiceFault, REPORT_FAILURES, RETRYABLE_FAILURES, SERVICE_FAULTS } from "../../src/lib/error-codes";
import { CLIENT_FAULT_ADVICE, failureAdvice, SERVICE_FAULT_ADVICE } from "../../src/modules/reports/failure-advice";
import { childFailureCode } from "../../src/render/sandbox-protocol";

test("timestamp_unavailable is one thing everywhere: a service fault, retried", () => {
  expect(isServiceFault("timestamp_unavailable")).toBe(true);
  expect(isRetryable("timestamp_unavailable")).toBe(true);
});

test("no code of the template's is retried, nor a bug (internal_error)", () => {
  for (const code of [
    "template_error",
    "template_timeout",
    "too_many_pages",
    "signature_page_missing",
    "asset_not_found",
    "internal_error",
  ])
    expect([code, isRetryable(code)]).toEqual([code, false]);
});

test("every retried code is a service fault, but for render_failed (Chromium's unclassified failure, which may be either)", () => {
  expect(RETRYABLE_FAILURES.filter((c) => !SERVICE_FAULTS.includes(c))).toEqual(["render_failed"]);
});

test("unknown codes are neither", () => {
  expect(isServiceFault("no_such_code")).toBe(false);
  expect(isRetryable("no_such_code")).toBe(false);
});

test("a service fault's advice never asks to fix the template; every other code's does", () => {
  for (const code of Object.keys(REPORT_FAILURES)) {
    const advice = failureAdvice(code);
    if (SERVICE_FAULTS.includes(code as never)) {
      expect([code, advice]).toEqual([code, SERVICE_FAULT_ADVICE]);
      expect(advice).not.toMatch(/fix the template/i);
    } else expect([code, advice]).toEqual([code, CLIENT_FAULT_ADVICE]);
  }
  expect(failureAdvice(null)).toBe(CLIENT_FAULT_ADVICE);
});

test("an EJS sandbox child may name only the template's faults: a service code from it (retried or re-queued) is internal_error", () => {
  for (const code of ["template_error", "template_timeout", "template_memory_exceeded", "template_output_too_large"])
    expect(childFailureCode(code)).toBe(code);
  for (const code of ["renderer_unavailable", "postprocess_failed", "timestamp_unavailable", "render_failed", "shutting_down"])
    expect([code, childFailureCode(code)]).toEqual([code, "internal_error"]);
});
