// The account dashboard end to end: the compiled executable, real HTTP, real SQLite, Debian's
// Chromium. One server for the file (built once); each test opens its own browser context. What it
// serves, signing in, and every page signed in; cross-site requests and the end of sessions:
// dashboard-session-security.test.ts.
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { pdfText } from "../helpers/app";
import { api } from "../helpers/process";
import { type Harness, sessionCookie, startHarness, test, Watched } from "./harness";
import { openSignedIn } from "./signed-in";

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startHarness(["--sign-in-fail-limit", "5"]);
  base = h.server.baseUrl;
}, 180_000);

afterAll(async () => {
  await h?.cleanup();
});

/** Waits for a report to finish through the API. */
async function finished(key: string, id: string): Promise<Record<string, any>> {
  const r = await api(base, key, "GET", `/reports/${id}?wait=30`);
  expect(r.status).toBe(200);
  return r.body;
}

describe("served by the executable", () => {
  test("/ redirects to /dashboard, which asks to sign in; assets are hashed and immutable", async () => {
    const root = await fetch(`${base}/`, { redirect: "manual" });
    expect(root.status).toBe(303);
    expect(root.headers.get("location")).toBe("/dashboard");
    const dash = await fetch(`${base}/dashboard`, { redirect: "manual" });
    expect(dash.headers.get("location")).toBe("/dashboard/sign-in");
    const page = await (await fetch(`${base}/dashboard/sign-in`)).text();
    const assetUrls = [...new Set([...page.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!))];
    expect(assetUrls.length).toBe(3);
    for (const url of assetUrls) {
      expect(url).toMatch(/\.[0-9a-f]{12}\.(js|css|svg)$/);
      const res = await fetch(base + url);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    // A stale hash is not served stale content.
    expect((await fetch(`${base}/dashboard/assets/app.000000000000.js`)).status).toBe(404);
  });
});

describe("signing in", () => {
  test("a wrong key gets one neutral message; the right key a session cookie with the right flags, and the key is kept nowhere", async () => {
    const w = await Watched.open(h);
    const { page, context } = w;
    await page.goto("/dashboard");
    expect(page.url()).toBe(`${base}/dashboard/sign-in`);
    await w.shoot("sign-in");
    await page.getByLabel("Access key").fill(`rg_aaaaaaaaaaaa_${"A".repeat(43)}`);
    // The form's answer itself is awaited (and its status checked) so that a failure says whether the
    // form was sent, and what the server answered (from the page's own DevTools log: see harness.ts).
    const seenBefore = w.responses.length;
    await page.getByRole("button", { name: "Sign in" }).click();
    const answered = () => w.responses.slice(seenBefore).find((r) => r.type === "Document" && r.url === `${base}/dashboard/sign-in`);
    for (let i = 0; i < 150 && !answered(); i++) await Bun.sleep(100);
    expect(answered()?.status ?? "no answer to the sign-in form within 15 s").toBe(401);
    expect(await page.getByRole("alert").textContent()).toContain("That access key was not accepted.");
    await w.forgiveStatus(401);

    await page.getByLabel("Access key").fill(h.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/dashboard`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Overview");

    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toEqual(["rg_session"]);
    const c = cookies[0]!;
    expect(c).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/", secure: false });
    expect(c.value).not.toContain(h.adminKey.slice(3, 15));
    const storage = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + location.href + document.cookie,
    );
    expect(storage).not.toContain(h.adminKey);
    expect(storage).not.toContain(h.adminKey.slice("rg_".length + 13)); // the secret (it may itself contain "_")
    w.check();
    await w.close();
  });

  test("the Set-Cookie header itself carries HttpOnly; SameSite=Strict; Path=/", async () => {
    const form = await fetch(`${base}/dashboard/sign-in`);
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signInCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const res = await fetch(`${base}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, "sec-fetch-site": "same-origin", cookie: signInCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: token, key: h.adminKey }),
    });
    expect(res.status).toBe(303);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("rg_session="))!;
    expect(session).toMatch(/^rg_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
  });
});

describe("signed in", () => {
  let w: Watched;
  beforeAll(async () => {
    w = await openSignedIn(h);
  });
  afterAll(async () => {
    w.check();
    await w.close();
  });

  test("overview: counts, queue depth, render times, version, health, API docs link", async () => {
    const sub = await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<h1>Warm-up</h1>" });
    await finished(h.adminKey, sub.body.report_id);
    const { page } = w;
    await page.goto("/dashboard");
    const stat = (label: string) => page.locator(".stat", { hasText: label }).locator("dd").textContent();
    expect(await stat("Succeeded")).toBe("1");
    expect(await stat("Failed")).toBe("0");
    expect(await page.locator(".kv .badge").textContent()).toBe("Healthy");
    expect(await page.locator(".kv").textContent()).toMatch(/Queue depth\s*\d+ reports? waiting, \d+ rendering/);
    expect(await page.locator(".kv").textContent()).toMatch(/Version\s*\d+\.\d+\.\d+/);
    expect(await page.getByRole("link", { name: "API documentation" }).first().getAttribute("href")).toBe("/api/v1/docs");
    expect(await page.locator("#recent-title + p").textContent()).toMatch(/Median \d/);
    await w.shoot("overview");
  });

  test("access keys: create one (shown once, with a copy button), use it on the API, delete it behind a confirmation, and the API refuses it", async () => {
    const { page } = w;
    await page.goto("/dashboard/keys");
    await page.getByLabel("Name").fill("ci-pipeline");
    await page.getByRole("button", { name: "Create key" }).click();
    const value = await page.getByLabel("New access key").inputValue();
    expect(value).toMatch(/^rg_[a-z2-9]{12}_[A-Za-z0-9_-]{43}$/);
    await w.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    expect(await page.locator(".notice.warn").textContent()).toContain("only time it is shown");
    await w.shoot("keys-created");
    // The value never went into a URL; a reload does not show it again.
    expect(page.url()).toBe(`${base}/dashboard/keys`);
    const listed = await api(base, value, "GET", "/access-keys");
    expect(listed.status).toBe(200);
    await page.goto("/dashboard/keys");
    expect(await page.content()).not.toContain(value);
    const id = value.split("_")[1]!;
    const row = page.locator("tr", { hasText: "ci-pipeline" });
    expect(await row.textContent()).toContain(id);
    expect(await row.locator("td[data-label='Last used']").textContent()).not.toContain("never");
    await w.shoot("keys");

    await row.getByRole("link", { name: "Delete key ci-pipeline" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Delete this key?");
    expect(await page.locator("main").textContent()).toContain(`ci-pipeline (${id})`);
    await w.shoot("keys-confirm-delete");
    await page.getByRole("button", { name: "Delete ci-pipeline" }).click();
    await page.waitForURL(/\/dashboard\/keys\?deleted=/);
    expect(await page.getByRole("status").first().textContent()).toContain("was deleted");
    expect((await api(base, value, "GET", "/access-keys")).status).toBe(401);
  });

  test("playground: an EJS template with data gives a PDF shown in a frame from the dashboard's own origin", async () => {
    const { page } = w;
    await page.goto("/dashboard/playground");
    // Data is checked as it is typed.
    await page.getByLabel("Data (JSON object)").fill('{"name": ');
    expect(await page.locator("#data-error").textContent()).toContain("Not valid JSON");
    expect(await page.getByLabel("Data (JSON object)").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("button", { name: "Render PDF" }).isDisabled()).toBe(true);
    await page
      .getByRole("textbox", { name: "Template", exact: true })
      .fill("<h1>Quarterly report for <%= name %></h1><p><%= items.length %> items</p>");
    await page.getByLabel("Data (JSON object)").fill('{"name": "Globex", "items": [1, 2, 3]}');
    expect(await page.getByRole("button", { name: "Render PDF" }).isDisabled()).toBe(false);

    await page.getByRole("button", { name: "Render PDF" }).click();
    const frame = page.locator("iframe.preview");
    await frame.waitFor({ timeout: 45_000 });
    const pdfLoaded = () => w.responses.find((r) => r.url.includes("/files/") && r.status === 200);
    for (let i = 0; i < 100 && !pdfLoaded(); i++) await Bun.sleep(100);
    const res = pdfLoaded()!;
    expect(new URL(res.url).origin).toBe(base);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["x-frame-options"]).toBeUndefined();
    expect(res.headers["content-security-policy"]).toBeUndefined();
    expect(await frame.getAttribute("src")).toStartWith("/files/");
    // Chromium's PDF viewer takes over the frame: the dashboard's CSP let the PDF display inline.
    for (let i = 0; i < 100 && !page.frames().some((f) => f.url().startsWith("chrome-extension://")); i++) await Bun.sleep(100);
    expect(page.frames().some((f) => f.url().startsWith("chrome-extension://"))).toBe(true);
    await Bun.sleep(1500); // let the viewer paint the page for the screenshot
    // What the PDF says is checked with pdftotext.
    const pdf = await (await fetch(base + (await frame.getAttribute("src")))).arrayBuffer();
    expect(await pdfText(new Uint8Array(pdf))).toContain("Quarterly report for Globex");
    expect(await page.locator("#result").textContent()).toMatch(/1 page, [\d.]+ KB/);
    await w.shoot("playground");
  });

  test("a failed report's reason: shown in the playground and on the reports page", async () => {
    const { page } = w;
    await page.goto("/dashboard/playground");
    await page.getByRole("textbox", { name: "Template", exact: true }).fill("<p><% throw new Error('the ledger does not balance') %></p>");
    await page.getByLabel("Data (JSON object)").fill("{}");
    await page.getByRole("button", { name: "Render PDF" }).click();
    const reason = page.locator("#failure-reason");
    await reason.waitFor({ timeout: 45_000 });
    expect(await reason.textContent()).toContain("the ledger does not balance");
    expect(await page.getByRole("alert").first().textContent()).toContain("The report failed");
    await w.shoot("playground-failed");

    await page.goto("/dashboard/reports?status=failed");
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator(".reason").textContent()).toContain("the ledger does not balance");
  });

  test("reports: newest first, live updates, status filter, pagination, download through a fresh link, delete with confirmation", async () => {
    const { page } = w;
    // Enough reports for two pages (20 a page), finished.
    for (let i = 0; i < 19; i++) {
      const r = await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: `<p>Bulk ${i}</p>` });
      expect(r.status).toBe(202);
    }
    const last = await api(base, h.adminKey, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<p>Last bulk</p>" });
    await finished(h.adminKey, last.body.report_id);
    // A slow one (its script holds the load event for 3 s), to watch it change without a reload.
    const slow = await api(base, h.adminKey, "POST", "/generate-pdf-async", {
      engine: "raw",
      html_template: "<p>Slow</p><script>const t = Date.now(); while (Date.now() - t < 3000) {}</script>",
    });
    const slowId: string = slow.body.report_id;
    await page.goto("/dashboard/reports");
    const first = page.locator("tbody tr").first();
    expect(await first.getAttribute("id")).toBe(`report-${slowId}`);
    expect(await first.locator(".badge").textContent()).toMatch(/Queued|Processing/);
    await page.evaluate(() => ((window as any).stillHere = true));
    await page.locator(`#report-${slowId} .badge.succeeded`).waitFor({ timeout: 45_000 });
    expect(await page.evaluate(() => (window as any).stillHere)).toBe(true);
    expect(await page.locator(`#report-${slowId} td[data-label='Pages']`).textContent()).toBe("1");
    expect(await page.locator(`#report-${slowId} td[data-label='Size']`).textContent()).toMatch(/KB$/);
    await w.shoot("reports");

    // Newest first, 20 a page; the next page continues where this one ended.
    expect(await page.locator("tbody tr").count()).toBe(20);
    const firstPageIds = await page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.id));
    await page.getByRole("link", { name: "Older reports →" }).click();
    const secondPageIds = await page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.id));
    expect(secondPageIds.length).toBeGreaterThan(0);
    expect(secondPageIds.filter((id) => firstPageIds.includes(id))).toEqual([]);
    await page.getByRole("link", { name: "← Newest" }).click();

    // The filter applies on change (JavaScript) and keeps its choice.
    await page.getByLabel("Status").selectOption("failed");
    await page.waitForURL(/status=failed/);
    expect(await page.locator("tbody .badge").allTextContents()).toEqual(["Failed"]);
    await page.getByLabel("Status").selectOption("expired");
    await page.waitForURL(/status=expired/);
    expect(await page.getByRole("heading", { name: "No expired reports" }).isVisible()).toBe(true);
    await w.shoot("reports-empty-filter");

    // Download: each click mints a fresh signed link to the PDF.
    await page.goto("/dashboard/reports");
    const dl = await fetch(`${base}/dashboard/reports/${slowId}/download`, {
      redirect: "manual",
      headers: { cookie: await sessionCookie(w) },
    });
    expect(dl.status).toBe(303);
    expect(dl.headers.get("location")).toMatch(new RegExp(`^/files/${slowId}\\?expires=\\d+&signature=`));
    const pdf = await fetch(base + dl.headers.get("location"));
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Slow");

    // Delete asks first, naming the report.
    await page.getByRole("link", { name: `Delete report ${slowId.slice(0, 8)}` }).click();
    expect(await page.locator("main").textContent()).toContain(slowId);
    await page.getByRole("button", { name: "Delete report" }).click();
    await page.waitForURL(/\/dashboard\/reports\?deleted=1/);
    expect(await page.locator(`#report-${slowId}`).count()).toBe(0);
    expect((await api(base, h.adminKey, "GET", `/reports/${slowId}`)).status).toBe(404);
    expect((await fetch(base + dl.headers.get("location"))).status).toBe(403);
  });

  test("keyboard and screen readers: skip link, visible focus, landmarks, labelled controls, current section", async () => {
    const { page } = w;
    for (const path of ["/dashboard", "/dashboard/reports", "/dashboard/playground", "/dashboard/keys"]) {
      await page.goto(path);
      await page.keyboard.press("Tab");
      const first = await page.evaluate(() => ({
        text: document.activeElement?.textContent,
        outline: getComputedStyle(document.activeElement!).outlineStyle,
      }));
      expect(first).toEqual({ text: "Skip to content", outline: "solid" });
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
      expect(await page.locator("main").count()).toBe(1);
      expect(await page.locator("h1").count()).toBe(1);
      expect(await page.getByRole("navigation", { name: "Sections" }).locator("a[aria-current=page]").count()).toBe(1);
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>("input:not([type=hidden]), select, textarea, button")]
          .filter((el) => !el.labels?.length && !el.getAttribute("aria-label") && !el.textContent?.trim())
          .map((el) => el.outerHTML),
      );
      expect(unlabelled).toEqual([]);
    }
    // The keyboard alone creates a key: Tab reaches the name field, Enter submits.
    await page.goto("/dashboard/keys");
    for (let i = 0; i < 15 && (await page.evaluate(() => document.activeElement?.id)) !== "name"; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("name");
    await page.keyboard.type("typed-by-keyboard");
    await page.keyboard.press("Enter");
    await page.getByLabel("New access key").waitFor();
    expect(await page.locator("tr", { hasText: "typed-by-keyboard" }).count()).toBe(1);
  });

  test("an unknown dashboard address is a designed page, not JSON", async () => {
    await w.page.goto("/dashboard/nowhere");
    expect(w.documents.at(-1)).toMatchObject({ url: `${base}/dashboard/nowhere`, status: 404 });
    expect(await w.page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
    await w.forgiveStatus(404);
  });
});
