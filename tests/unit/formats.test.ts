// The string formats checked in every response are ours (one regex each), not the slow, looser ones
// Elysia and @elysiajs/openapi register: a listing checks 80 date-times and 20 uuids per request.
import { expect, test } from "bun:test";
import { FormatRegistry } from "@sinclair/typebox";
import "../../src/http/openapi";

const check = (format: string, value: string) => FormatRegistry.Get(format)!(value);

test("date-time is RFC 3339: a JavaScript Date string, which Elysia's check accepts, is refused", () => {
  expect(check("date-time", "2026-11-22T08:23:54.021Z")).toBe(true);
  expect(check("date-time", "Sun Nov 22 2026 08:23:54 GMT+0000 (Coordinated Universal Time)")).toBe(false);
  expect(check("date-time", "2026-11-22")).toBe(false);
});

test("uuid is the lowercase form report ids are minted in", () => {
  expect(check("uuid", crypto.randomUUID())).toBe(true);
  expect(check("uuid", "not-a-uuid")).toBe(false);
});
