// Abuse limits: the per-key request rate and the per-address budget of failed authentications.
// In-process requests have no peer address, so they all share the address "unknown".
import { describe, expect, test } from "bun:test";
import { expectError, expectUnauthorized, unknownKey, withApp } from "../helpers/scenario";


describe("per-key rate limit", () => {
  test("rateLimit 2: a burst of 4 passes, then 429 rate_limited with Retry-After", async () => {
    await withApp({ rateLimit: 2 }, async (a) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await a.request("GET", "/api/v1/reports")).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      const res = await a.request("GET", "/api/v1/reports");
      const body = await expectError(res, 429, "rate_limited");
      expect(body.message).toContain("2");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Every further request in the burst is refused too, whatever the endpoint.
      await expectError(await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "raw" } }), 429, "rate_limited");
      expect(a.app.reportsRepo.countUnfinished()).toBe(0);
    });
  });

  test("the limit is per key: another key (same account or not) is unaffected", async () => {
    await withApp({ rateLimit: 2 }, async (a) => {
      const sameAccount = (await a.app.keys.createForAccount("acme", "second")).value;
      const otherAccount = (await a.app.keys.createForAccount("other", "k")).value;
      for (let i = 0; i < 4; i++) await a.request("GET", "/api/v1/reports");
      await expectError(await a.request("GET", "/api/v1/reports"), 429, "rate_limited");
      expect((await a.request("GET", "/api/v1/reports", { key: sameAccount })).status).toBe(200);
      expect((await a.request("GET", "/api/v1/reports", { key: otherAccount })).status).toBe(200);
    });
  });

  test("tokens come back over time (2 per second)", async () => {
    await withApp({ rateLimit: 2 }, async (a) => {
      for (let i = 0; i < 4; i++) await a.request("GET", "/api/v1/reports");
      await expectError(await a.request("GET", "/api/v1/reports"), 429, "rate_limited");
      await Bun.sleep(600);
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });

  test("requests without a valid key are 401, not counted against a key", async () => {
    await withApp({ rateLimit: 2 }, async (a) => {
      for (let i = 0; i < 10; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: null }));
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });

  test("documentation and health are not rate limited", async () => {
    await withApp({ rateLimit: 1 }, async (a) => {
      for (let i = 0; i < 6; i++) expect((await a.request("GET", "/api/v1/openapi.json")).status).toBe(200);
    });
  });

  test("rateLimit 0 turns it off", async () => {
    await withApp({ rateLimit: 0 }, async (a) => {
      for (let i = 0; i < 30; i++) expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });
});

describe("failed-authentication budget per client address", () => {
  test("authFailLimit 3: three bad keys are 401, the fourth → 429 too_many_failed_authentications", async () => {
    await withApp({ authFailLimit: 3 }, async (a) => {
      for (let i = 0; i < 3; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: unknownKey() }));
      const res = await a.request("GET", "/api/v1/reports", { key: unknownKey() });
      await expectError(res, 429, "too_many_failed_authentications");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Requests with no key at all are throttled as well.
      await expectError(await a.request("GET", "/api/v1/reports", { key: null }), 429, "too_many_failed_authentications");
    });
  });

  test("a valid key already used from the address keeps working while throttled", async () => {
    await withApp({ authFailLimit: 3 }, async (a) => {
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
      for (let i = 0; i < 4; i++) await a.request("GET", "/api/v1/reports", { key: unknownKey() });
      await expectError(await a.request("GET", "/api/v1/reports", { key: unknownKey() }), 429, "too_many_failed_authentications");
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", { body: { html_template: "x", engine: "raw" } })).status).toBe(202);
    });
  });

  test("while throttled, a never-verified key is not checked (no more argon2 work for this address)", async () => {
    await withApp({ authFailLimit: 3 }, async (a) => {
      const fresh = (await a.app.keys.createForAccount("acme", "never-used")).value;
      for (let i = 0; i < 3; i++) await a.request("GET", "/api/v1/reports", { key: unknownKey() });
      await expectError(await a.request("GET", "/api/v1/reports", { key: fresh }), 429, "too_many_failed_authentications");
    });
  });

  test("valid requests do not consume the budget", async () => {
    await withApp({ authFailLimit: 3 }, async (a) => {
      for (let i = 0; i < 10; i++) expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
      for (let i = 0; i < 3; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: unknownKey() }));
    });
  });

  test("without trustProxy, X-Forwarded-For cannot buy a fresh budget", async () => {
    await withApp({ authFailLimit: 3 }, async (a) => {
      for (let i = 0; i < 3; i++) await a.request("GET", "/api/v1/reports", { key: unknownKey(), headers: { "x-forwarded-for": `10.0.0.${i}` } });
      await expectError(await a.request("GET", "/api/v1/reports", { key: unknownKey(), headers: { "x-forwarded-for": "10.0.0.99" } }), 429, "too_many_failed_authentications");
    });
  });

  test("with trustProxy, each X-Forwarded-For address has its own budget", async () => {
    await withApp({ authFailLimit: 3, trustProxy: true }, async (a) => {
      const from = (ip: string) => ({ "x-forwarded-for": `${ip}, 192.0.2.1` });
      for (let i = 0; i < 3; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: unknownKey(), headers: from("203.0.113.7") }));
      await expectError(await a.request("GET", "/api/v1/reports", { key: unknownKey(), headers: from("203.0.113.7") }), 429, "too_many_failed_authentications");
      await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: unknownKey(), headers: from("203.0.113.8") }));
    });
  });

  test("authFailLimit 0 turns it off", async () => {
    await withApp({ authFailLimit: 0 }, async (a) => {
      for (let i = 0; i < 8; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: "garbage" }));
    });
  });
});
