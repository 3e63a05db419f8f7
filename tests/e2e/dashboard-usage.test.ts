// The dashboard's usage views end to end: the compiled executable, real HTTP, real SQLite, Debian's
// Chromium. The Overview chart shows the numbers of seeded reports (rendered today through the API, and
// earlier days written into the database as the server runs); the Access Keys page shows each key's
// scopes, expiry, last use and usage; the audit page lists events. axe-core finds no WCAG 2.1 AA
// violation on each page at desktop and phone widths.
import { Database } from "bun:sqlite";
import { describe, expect } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { ALL_SCOPES } from "../../src/app/modules";
import { api } from "../helpers/process";
import { screenshots, test, viewports } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";
import { useSignedIn } from "./signed-in";

let base: string;
const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY);
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
/** Element screenshots go to the harness's folder, and also to REPORTGEN_SCREENSHOTS when set (a folder to keep them in). */
const extraShots = process.env.REPORTGEN_SCREENSHOTS;

/**
 * Reports of earlier days, written into the running server's database as a submission and a finished
 * render would: inserted queued (held back, so the server does not claim them), then finished in the
 * same transaction. The roll-up's triggers count them as they count the server's own.
 */
function seedDay(db: Database, accountId: string, keyId: string, day: number, o: { ok: number[]; failed: number; pending: number }) {
  const insert = db.prepare(
    `INSERT INTO reports (id, account_id, key_id, engine, status, template, attempts, created_at, not_before)
     VALUES (?1, ?2, ?3, 'raw', 'queued', '<p>x</p>', 0, ?4, ?5)`,
  );
  const finish = db.prepare(
    `UPDATE reports SET status = ?2, started_at = ?3, finished_at = ?4, page_count = ?5, size_bytes = ?6, template = NULL, not_before = NULL WHERE id = ?1`,
  );
  db.transaction(() => {
    const at = day * DAY + 9 * 3_600_000;
    const statuses = [...o.ok.map((p) => ["succeeded", p] as const), ...Array.from({ length: o.failed }, () => ["failed", 0] as const)];
    for (const [status, pages] of statuses) {
      const id = crypto.randomUUID();
      insert.run(id, accountId, keyId, at, null);
      finish.run(id, status, at + 10, at + 310, status === "succeeded" ? pages : null, status === "succeeded" ? 20_000 * pages : null);
    }
    for (let i = 0; i < o.pending; i++) insert.run(crypto.randomUUID(), accountId, keyId, at, Date.now() + 365 * DAY);
  })();
}

const e2e = useSignedIn(async (h) => {
  base = h.server.baseUrl;
  // Today, through the API and the real renderer: two PDFs and one template that throws.
  const ids = [
    (await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<h1>One</h1>" })).body.report_id,
    (await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<h1>Two</h1>" })).body.report_id,
    (await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "ejs", html_template: "<%= missing.field %>", data: {} })).body
      .report_id,
  ];
  for (const id of ids) expect((await api(base, h.adminKey, "GET", `/reports/${id}?wait=30`)).status).toBeLessThan(500);
  const db = new Database(join(h.dataDir, "reportgen.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  const keyId = h.adminKey.split("_")[1]!;
  const accountId = db.query<{ id: string }, []>("SELECT id FROM accounts WHERE name = 'acme'").get()!.id;
  seedDay(db, accountId, keyId, today - 3, { ok: [2, 2, 2, 2], failed: 1, pending: 0 });
  seedDay(db, accountId, keyId, today - 10, { ok: [5, 1], failed: 0, pending: 1 });
  db.close();
});

/** The chart's value of a series on a day (0 when the day has no such bar). */
async function bar(chart: string, day: number, series: string): Promise<number> {
  const rect = e2e.w.page.locator(`#${chart} g[data-date="${iso(day)}"] rect[data-series="${series}"]`);
  return (await rect.count()) ? Number(await rect.getAttribute("data-value")) : 0;
}

/** A screenshot of one element, for people to look at (like Watched.shoot, it asserts nothing). */
async function shootElement(el: Locator, name: string): Promise<void> {
  for (const dir of [screenshots, extraShots]) {
    if (!dir) continue;
    mkdirSync(dir, { recursive: true });
    await el
      .screenshot({ path: join(dir, `${name}.png`), timeout: 10_000 })
      .catch((e: Error) => console.error(`screenshot ${name}: ${e.message}`));
  }
}

const accessibleAtBothWidths = (label: string) => expectNoAxeViolationsAt(e2e.w.page, label, viewports);

describe("overview chart", () => {
  test("reports per day stacked by status, and pages, with the seeded numbers; a text alternative and a table", async () => {
    const { page } = e2e.w;
    await page.goto("/dashboard");
    const chart = page.locator("section.usage");
    await chart.waitFor();
    // Today: 2 rendered (1 page each), 1 failed. 3 days ago: 4 × 2 pages, 1 failed. 10 days ago: 5 + 1 pages, 1 still queued.
    expect([await bar("chart-reports-svg", today, "succeeded"), await bar("chart-reports-svg", today, "failed")]).toEqual([2, 1]);
    expect([await bar("chart-reports-svg", today - 3, "succeeded"), await bar("chart-reports-svg", today - 3, "failed")]).toEqual([4, 1]);
    expect([await bar("chart-reports-svg", today - 10, "succeeded"), await bar("chart-reports-svg", today - 10, "pending")]).toEqual([
      2, 1,
    ]);
    expect(await bar("chart-pages-svg", today, "pages")).toBe(2);
    expect(await bar("chart-pages-svg", today - 3, "pages")).toBe(8);
    expect(await bar("chart-pages-svg", today - 10, "pages")).toBe(6);
    expect(await page.locator("#chart-reports-svg g[data-date]").count()).toBe(30);
    // Bar heights are proportional to the numbers: 4 succeeded is twice as tall as 2.
    const height = async (day: number) =>
      Number(await page.locator(`#chart-reports-svg g[data-date="${iso(day)}"] rect[data-series="succeeded"]`).getAttribute("height"));
    expect((await height(today - 3)) / (await height(today))).toBeCloseTo(2, 1);
    // The text alternative says the totals; the table has every day.
    const desc = await page.locator("#chart-reports-desc").textContent();
    expect(desc).toContain("11 reports submitted, 8 succeeded, 2 failed, 16 pages");
    expect(await page.locator("svg#chart-reports-svg").getAttribute("role")).toBe("img");
    await shootElement(chart, "overview-chart");
    await page.getByText("Show the numbers").click();
    const row = page.locator(".usage-table tr", { hasText: iso(today - 3) });
    expect((await row.locator("td").allTextContents()).map(Number)).toEqual([4, 1, 0, 8]);
    expect(await page.locator(".usage-table tbody tr").count()).toBe(30);
    await accessibleAtBothWidths("overview");
    await e2e.w.shoot("overview-chart");
  });

  test("the chart agrees with GET /usage", async () => {
    const u = await api(base, e2e.h.adminKey, "GET", "/usage");
    expect(u.status).toBe(200);
    expect(u.body.totals.reports).toEqual({ submitted: 11, succeeded: 8, failed: 2 });
    expect(u.body.totals.pages).toBe(16);
    const day = u.body.data.find((d: { date: string }) => d.date === iso(today - 3));
    expect(day).toMatchObject({ reports: { submitted: 5, succeeded: 4, failed: 1 }, pages: 8, bytes: 160_000, render_ms: 1200 });
  });
});

describe("access keys page", () => {
  test("each key's scopes, expiry, last use and last 30 days of usage", async () => {
    const expires = new Date(Date.now() + 7 * DAY);
    expires.setUTCMilliseconds(0);
    const reader = await api(base, e2e.h.adminKey, "POST", "/access-keys", {
      name: "reader",
      scopes: ["reports:read"],
      expires_at: expires.toISOString(),
    });
    expect(reader.status).toBe(201);
    const writer = await api(base, e2e.h.adminKey, "POST", "/access-keys", { name: "writer", scopes: ["reports:write", "reports:read"] });
    expect(writer.status).toBe(201);
    // The reader reads (so it has been used); the writer submits one report that renders.
    expect((await api(base, reader.body.data, "GET", "/usage")).status).toBe(200);
    const writerKey: string = writer.body.data;
    const sub = await api(base, writerKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<h1>Writer</h1>" });
    expect(sub.status).toBe(202);
    expect((await api(base, writerKey, "GET", `/reports/${sub.body.report_id}?wait=30`)).body.data.status).toBe("succeeded");

    const { page } = e2e.w;
    await page.goto("/dashboard/keys");
    const row = (name: string) =>
      page.locator("tbody tr", { has: page.locator("td[data-label='Name'] strong", { hasText: new RegExp(`^${name}$`) }) });
    const cell = (name: string, label: string) => row(name).locator(`td[data-label='${label}']`).textContent();
    expect(await row("reader").locator("td[data-label='Scopes'] li").allTextContents()).toEqual(["reports:read"]);
    expect(await row("writer").locator("td[data-label='Scopes'] li").allTextContents()).toEqual(["reports:write", "reports:read"]);
    expect((await row("operator").locator("td[data-label='Scopes'] li").allTextContents()).length).toBe(ALL_SCOPES.length);
    expect(await row("reader").locator("td[data-label='Expires'] time").getAttribute("datetime")).toBe(expires.toISOString());
    expect(await cell("writer", "Expires")).toContain("never");
    expect(await cell("reader", "Last used")).not.toContain("never");
    expect(await cell("reader", "Last 30 days")).toContain("No reports");
    expect(await cell("writer", "Last 30 days")).toMatch(/^1 report · 1 page 1 succeeded, 0 failed · [\d.]+ KB · [\d.]+ (ms|s) rendering$/);
    // The operator's: what the Overview shows (the seeded days and today's three).
    expect(await cell("operator", "Last 30 days")).toMatch(/^11 reports · 16 pages 8 succeeded, 2 failed · /);
    await accessibleAtBothWidths("access keys");
    await shootElement(page.locator("section[aria-labelledby='list-title']"), "keys-page");
    await e2e.w.shoot("keys-usage");
  });
});

describe("audit log page", () => {
  test("lists the account's events newest first with type, actor key, address and target; older ones a page further", async () => {
    const { page } = e2e.w;
    await page.goto("/dashboard/audit");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Audit log");
    expect(await page.locator("nav.nav a[aria-current='page']").textContent()).toBe("Audit");
    const first = page.locator("table.audit tbody tr").first();
    // Newest: the writer key created by the operator's key over the API, from loopback.
    expect(await first.locator("td[data-label='Event']").textContent()).toContain("Key created");
    expect(await first.locator("td[data-label='Event']").textContent()).toContain("access_key.created");
    expect(await first.locator("td[data-label='By']").textContent()).toContain("operator");
    expect(await first.locator("td[data-label='Address']").textContent()).toBe("127.0.0.1");
    expect(await first.locator("td[data-label='Target']").textContent()).toContain("writer");
    const events = await page.locator("table.audit td[data-label='Event'] strong").allTextContents();
    expect(events).toContain("Dashboard sign-in");
    // Oldest: the operator's key, minted with the CLI by harness.ts.
    const oldest = page.locator("table.audit tbody tr").last();
    expect(await oldest.locator("td[data-label='By']").textContent()).toContain("reportgen admin (command line)");
    expect(await oldest.locator("td[data-label='Target']").textContent()).toContain("operator");
    expect(await oldest.locator("td[data-label='Address']").textContent()).toBe("—");
    await accessibleAtBothWidths("audit log");
    await shootElement(page.locator("main"), "audit-page");
    await e2e.w.shoot("audit");

    // More than a page (50): 50 more keys created; the page shows 50 and links to the older ones.
    for (let i = 0; i < 50; i++) expect((await api(base, e2e.h.adminKey, "POST", "/access-keys", { name: `bulk-${i}` })).status).toBe(201);
    const total = events.length + 50;
    await page.goto("/dashboard/audit");
    expect(await page.locator("table.audit tbody tr").count()).toBe(50);
    expect(await page.locator("table.audit tbody tr").first().textContent()).toContain("bulk-49");
    await page.getByRole("link", { name: "Older events →" }).click();
    await page.waitForURL(/\/dashboard\/audit\?cursor=/);
    expect(await page.locator("table.audit tbody tr").count()).toBe(total - 50);
    expect(await page.locator("table.audit tbody tr").last().textContent()).toContain(events.at(-1)!);
    expect(await page.getByRole("link", { name: "← Newest" }).count()).toBe(1);
    // A cursor that was not issued is refused with a page that says so.
    const bad = await fetch(`${base}/dashboard/audit?cursor=nope`, {
      headers: { cookie: (await e2e.w.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("next_cursor");
  });
});
