import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

test("a request without a key is 401 with exactly {error: unauthorized}", async () => {
  const res = await t.request("GET", "/api/v1/reports", { key: null });
  expect(res.status).toBe(401);
  expect(await res.text()).toBe('{"error":"unauthorized"}');
});

test("a valid key lists reports", async () => {
  const res = await t.request("GET", "/api/v1/reports");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: [], next_cursor: null });
});
