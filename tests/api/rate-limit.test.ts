// Abuse limits: the optional per-key request limits (submissions and reads separately, both off by
// default), and the guarantee that failed authentications never lock out a valid key.
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load";
import { expectError, expectUnauthorized, unknownKey, withApp } from "../helpers/scenario";

const submit = { body: { html_template: "x", engine: "raw" } };

describe("per-key request limits", () => {
  test("defaults: no request limit at all (polling is never refused)", () => {
    const c = loadConfig({}, {});
    expect(c.readRateLimit).toBe(0);
    expect(c.submitRateLimit).toBe(0);
  });

  test("readRateLimit 2: a burst of 4 reads passes, then 429 rate_limited with Retry-After; submissions still pass", async () => {
    await withApp({ readRateLimit: 2 }, async (a) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await a.request("GET", "/api/v1/reports")).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      const res = await a.request("GET", "/api/v1/reports");
      const body = await expectError(res, 429, "rate_limited");
      expect(body.message).toContain("2 reads per second");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await a.request("POST", "/api/v1/generate-pdf-async", submit)).status).toBe(202);
    });
  });

  test("submitRateLimit 1: a burst of 2 submissions, then 429; reads still pass", async () => {
    await withApp({ submitRateLimit: 1 }, async (a) => {
      for (let i = 0; i < 2; i++) expect((await a.request("POST", "/api/v1/generate-pdf-async", submit)).status).toBe(202);
      const res = await a.request("POST", "/api/v1/generate-pdf-async", submit);
      expect((await expectError(res, 429, "rate_limited")).message).toContain("1 submissions per second");
      expect(await a.app.services.repos.reports.countUnfinished()).toBe(2);
      for (let i = 0; i < 20; i++) expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });

  test("the limit is per key: another key (same account or not) is unaffected", async () => {
    await withApp({ readRateLimit: 2 }, async (a) => {
      const sameAccount = (await a.app.services.keys.createForAccount("acme", "second")).value;
      const otherAccount = (await a.app.services.keys.createForAccount("other", "k")).value;
      for (let i = 0; i < 4; i++) await a.request("GET", "/api/v1/reports");
      await expectError(await a.request("GET", "/api/v1/reports"), 429, "rate_limited");
      expect((await a.request("GET", "/api/v1/reports", { key: sameAccount })).status).toBe(200);
      expect((await a.request("GET", "/api/v1/reports", { key: otherAccount })).status).toBe(200);
    });
  });

  test("tokens come back over time (2 per second)", async () => {
    await withApp({ readRateLimit: 2 }, async (a) => {
      for (let i = 0; i < 4; i++) await a.request("GET", "/api/v1/reports");
      await expectError(await a.request("GET", "/api/v1/reports"), 429, "rate_limited");
      await Bun.sleep(600);
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });

  test("requests without a valid key are 401, not counted against a key", async () => {
    await withApp({ readRateLimit: 2 }, async (a) => {
      for (let i = 0; i < 10; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: null }));
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });

  test("documentation and health are not rate limited", async () => {
    await withApp({ readRateLimit: 1 }, async (a) => {
      for (let i = 0; i < 6; i++) expect((await a.request("GET", "/api/v1/openapi.json")).status).toBe(200);
    });
  });
});

describe("failed authentications never lock out a valid key", () => {
  test("after 200 bad, malformed and missing keys from one address, a new key and an old one still get 200", async () => {
    await withApp({}, async (a) => {
      const [, id] = a.key.split("_");
      const bad = [
        () => unknownKey(),
        () => `rg_${id}_${"B".repeat(43)}`,
        () => "nonsense",
        () => null,
        () => a.key.slice(0, -1) + (a.key.endsWith("x") ? "y" : "x"),
      ];
      for (let i = 0; i < 200; i++) await expectUnauthorized(await a.request("GET", "/api/v1/reports", { key: bad[i % bad.length]!() }));
      const fresh = (await a.app.services.keys.createForAccount("acme", "fresh")).value;
      expect((await a.request("GET", "/api/v1/reports", { key: fresh })).status).toBe(200);
      expect((await a.request("GET", "/api/v1/reports")).status).toBe(200);
    });
  });
});
