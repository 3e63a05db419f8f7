// AppError takes its HTTP status from the one table (API_ERRORS): no call site can restate it wrongly.
import { expect, test } from "bun:test";
import { API_ERRORS, type ApiErrorCode } from "../../src/lib/error-codes";
import { AppError, retryLater, storageRefusal } from "../../src/lib/errors";

test("every code's AppError carries the table's status", () => {
  for (const code of Object.keys(API_ERRORS) as ApiErrorCode[]) {
    expect(new AppError(code, "m").status).toBe(API_ERRORS[code].status);
  }
});

test("retryLater: the code decides 429 or 503, and Retry-After is whole seconds, at least 1", () => {
  const limited = retryLater("rate_limited", "slow down", 0.2);
  expect([limited.status, limited.headers?.["Retry-After"]]).toEqual([429, "1"]);
  const full = retryLater("queue_full", "later", 4.5);
  expect([full.status, full.headers?.["Retry-After"]]).toEqual([503, "5"]);
});

test("storage refusals: a full disk is 507, any other write fault 503", () => {
  expect(storageRefusal("full").status).toBe(507);
  expect(storageRefusal("read_only").status).toBe(503);
  expect(storageRefusal("io").status).toBe(503);
});
