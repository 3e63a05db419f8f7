// The TypeScript client (clients/typescript) against the compiled executable on its defaults: every resource
// it wraps, the long poll, the typed errors and the Idempotency-Key of each POST. The retries of 429 and 503
// are in retries.test.ts (they need a server with limits).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient, ERROR_CODES, ReportgenError } from "../../clients/typescript/src/index";
import { useServer } from "../blackbox/helpers";
import { brokenReport, invoice, pdfText, repo, slowReport } from "./fixtures";

const running = useServer();
/** Each request the client sends, with its answer's status and when it was sent. */
const sent: { method: string; url: string; headers: Headers; status: number; at: number }[] = [];
const recording: typeof fetch = Object.assign(
  async (input: RequestInfo | URL, init?: RequestInit) => {
    const at = performance.now();
    const res = await fetch(input, init);
    sent.push({ method: init?.method ?? "GET", url: String(input), headers: new Headers(init?.headers), status: res.status, at });
    return res;
  },
  { preconnect: fetch.preconnect },
);
const client = (key = running.key) => createClient({ baseUrl: running.server.base, apiKey: key, fetch: recording });

async function thrown(p: Promise<unknown>): Promise<ReportgenError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ReportgenError) return e;
    throw e;
  }
  throw new Error("expected a ReportgenError");
}

test("generate, waitForPdf and download: the PDF holds the data", async () => {
  const c = client();
  const q = await c.reports.generate(invoice(42));
  expect(q.replayed).toBe(false);
  const link = await c.reports.waitForPdf(q.report_id);
  expect(link.data).toStartWith(`${running.server.base}/files/${q.report_id}?`);
  const pdf = await c.reports.download(q.report_id);
  expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
  expect(pdfText(pdf)).toContain("Invoice 42");
  const report = await c.reports.get(q.report_id);
  expect(report.status).toBe("succeeded");
  // Any operation by its path: a JSON answer is parsed, any other (this PNG) comes back as bytes.
  const thumbnail = await c.request("get", "/api/v1/reports/{reportID}/thumbnail", { path: { reportID: q.report_id } });
  expect(thumbnail.status).toBe(200);
  if (thumbnail.status === 200) expect([...thumbnail.body.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  expect((await c.reports.list({ limit: 5 })).data.map((r) => r.report_id)).toContain(q.report_id);
  expect((await c.reports.delete(q.report_id)).deleted).toBe(true);
}, 60_000);

test("waitForPdf follows each 202 after its Retry-After until the PDF is ready", async () => {
  const c = client();
  const q = await c.reports.generate(slowReport(2500));
  sent.length = 0;
  // pollSeconds 0: the server answers at once, so the client must wait out each Retry-After itself.
  const link = await c.reports.waitForPdf(q.report_id, { pollSeconds: 0 });
  expect(link.data).toContain(q.report_id);
  const polls = sent.filter((s) => s.url.includes("/download"));
  expect(polls.at(-1)!.status).toBe(200);
  expect(polls.filter((p) => p.status === 202).length).toBeGreaterThanOrEqual(1);
  // Retry-After is 1 s: no poll comes sooner after a 202.
  for (let i = 1; i < polls.length; i++) expect(polls[i]!.at - polls[i - 1]!.at).toBeGreaterThanOrEqual(990);
}, 60_000);

test("errors are ReportgenError with the server's code from the closed list, details and request id", async () => {
  const c = client();
  const invalid = await thrown(c.reports.generate({ engine: "ejs" } as never));
  expect([invalid.status, invalid.code]).toEqual([422, "validation_failed"]);
  expect(invalid.problems.map((p) => p.field)).toContain("html_template");
  expect(invalid.requestId).toMatch(/\S/);
  const missing = await thrown(c.reports.get("00000000-0000-4000-8000-000000000000"));
  expect([missing.status, missing.code]).toEqual([404, "not_found"]);
  const unauthorized = await thrown(client("rg_nope").reports.list());
  expect([unauthorized.status, unauthorized.code]).toEqual([401, "unauthorized"]);
  const failed = await c.reports.generate(brokenReport);
  const refused = await thrown(c.reports.waitForPdf(failed.report_id));
  expect([refused.status, refused.code]).toEqual([409, "report_failed"]);
  for (const e of [invalid, missing, unauthorized, refused]) expect(ERROR_CODES).toContain(e.code);
}, 60_000);

test("every POST carries an Idempotency-Key; the same key and body replay the first answer, another body is refused", async () => {
  const c = client();
  sent.length = 0;
  await c.reports.generate(invoice(1));
  await c.keys.create({ name: "idempotency-probe" });
  const posts = sent.filter((s) => s.method === "POST");
  expect(posts.length).toBe(2);
  for (const p of posts) expect(p.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  expect(posts[0]!.headers.get("idempotency-key")).not.toBe(posts[1]!.headers.get("idempotency-key"));

  const idempotencyKey = crypto.randomUUID();
  const first = await c.reports.generate(invoice(7), { idempotencyKey });
  const again = await c.reports.generate(invoice(7), { idempotencyKey });
  expect(again).toEqual({ report_id: first.report_id, replayed: true });
  const reused = await thrown(c.reports.generate(invoice(8), { idempotencyKey }));
  expect([reused.status, reused.code]).toEqual([422, "idempotency_key_reused"]);
}, 60_000);

test("templates: create, add a version, read, list, generate from one, delete", async () => {
  const c = client();
  const created = await c.templates.create({ name: "Letter", engine: "ejs", html_template: "<p>v1 <%= who %></p>" });
  expect(created.version).toBe(1);
  const v2 = await c.templates.addVersion(created.template_id, { html_template: "<p>Dear <%= who %></p>" });
  expect(v2.version).toBe(2);
  expect((await c.templates.get(created.template_id)).latest_version).toBe(2);
  expect((await c.templates.getVersion(created.template_id, 1)).html_template).toBe("<p>v1 <%= who %></p>");
  expect((await c.templates.list()).data.map((t) => t.template_id)).toContain(created.template_id);
  const q = await c.reports.generate({ template_id: created.template_id, data: { who: "Ada" } });
  expect(pdfText(await c.reports.download(q.report_id))).toContain("Dear Ada");
  expect((await c.templates.delete(created.template_id)).deleted).toBe(true);
}, 60_000);

test("assets: upload, list, read back, use in a template, delete", async () => {
  const c = client();
  const css = "h1 { color: rgb(200, 0, 0) }";
  const up = await c.assets.upload({ name: "brand.css", content: css });
  expect(up.data.name).toBe("brand.css");
  expect((await c.assets.list()).data.map((a) => a.id)).toContain(up.data.id);
  expect((await c.assets.get(up.data.id)).size).toBe(css.length);
  expect(new TextDecoder().decode(await c.assets.content(up.data.id))).toBe(css);
  const q = await c.reports.generate({ engine: "raw", html_template: '<link rel="stylesheet" href="asset:brand.css"><h1>Styled</h1>' });
  expect(pdfText(await c.reports.download(q.report_id))).toContain("Styled");
  expect((await c.assets.delete(up.data.id)).deleted).toBe(true);
}, 60_000);

test("keys: create, list, set a daily quota, rotate (the new value works), delete (it stops working)", async () => {
  const c = client();
  const k = await c.keys.create({ name: "reporting-cron", scopes: ["reports:read"] });
  expect(k.data).toStartWith("rg_");
  expect((await c.keys.list()).map((x) => x.id)).toContain(k.id);
  expect(Number((await c.keys.update(k.id, { max_reports_per_day: 100 })).max_reports_per_day)).toBe(100);
  const rotated = await c.keys.rotate(k.id);
  expect((await client(rotated.data).reports.list({ limit: 1 })).data).toBeArray();
  expect((await c.keys.delete(k.id)).deleted).toBe(true);
  expect((await thrown(client(rotated.data).reports.list())).code).toBe("unauthorized");
}, 60_000);

test("eInvoices.validate: the guide's XRechnung passes, a broken copy names the rule it breaks", async () => {
  const c = client();
  const xml = readFileSync(join(repo, "docs", "examples", "xrechnung-invoice.xml"), "utf8");
  const ok = await c.eInvoices.validate({ xml });
  expect([ok.valid, ok.syntax, ok.errors]).toEqual([true, "ubl", []]);
  const broken = await c.eInvoices.validate({ xml: xml.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, "") });
  expect(broken.valid).toBe(false);
  expect(broken.errors.length).toBeGreaterThan(0);
  const notXml = await thrown(c.eInvoices.validate({ xml: "this is not XML" }));
  expect(notXml.status).toBe(400);
  expect(ERROR_CODES).toContain(notXml.code);
}, 60_000);
