// POST /api/v1/e-invoices/render over the real HTTP app, without the renderer (the printed result is
// tests/integration/einvoice-render.test.ts's): every form of input queues a report (202, Location), the
// settings are checked (422 naming the field), the checker's refusals are those of validate, an unknown
// template_id is 404, and access (401; 403 without e_invoices:render; a key with only it may render).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";

const EXAMPLE = "einvoice/examples/CII_example5.xml";
const it = testIf(sharedMissing(EXAMPLE));
const xml = () => readFileSync(sharedPath(EXAMPLE));
const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

const work = mkdtempSync(join(tmpdir(), "einvoice-render-api-"));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

async function send(body: BodyInit | Uint8Array, type: string | undefined, o: { query?: string; key?: string | null } = {}) {
  const headers: Record<string, string> = {};
  if (type) headers["content-type"] = type;
  const k = o.key === undefined ? t.key : o.key;
  if (k) headers["x-api-key"] = k;
  const r = await t.app.http.handle(
    new Request(`${t.baseUrl}/api/v1/e-invoices/render${o.query ?? ""}`, { method: "POST", headers, body: body as BodyInit }),
  );
  return { status: r.status, location: r.headers.get("location"), body: (await r.json()) as any };
}
const json = (body: unknown, o?: { query?: string; key?: string | null }) => send(JSON.stringify(body), "application/json", o);

/** A PDF carrying `bytes` as factur-x.xml, made by qpdf as a Factur-X writer attaches it. */
function facturX(bytes: Uint8Array): Uint8Array {
  const empty = join(work, "empty.pdf");
  const x = join(work, "factur-x.xml");
  const out = join(work, "fx.pdf");
  Bun.spawnSync(["qpdf", "--empty", empty]);
  writeFileSync(x, bytes);
  const r = Bun.spawnSync(["qpdf", empty, "--add-attachment", x, "--key=factur-x.xml", "--", out]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return readFileSync(out);
}

async function expectQueued(r: Awaited<ReturnType<typeof send>>) {
  expect(r.status).toBe(202);
  expect(r.body.report_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(r.location).toBe(`/api/v1/reports/${r.body.report_id}`);
  const got = await t.request("GET", `/api/v1/reports/${r.body.report_id}`);
  expect(got.status).toBe(200);
}

describe("every form of input queues an ordinary report", () => {
  it("raw XML (settings in the query), raw PDF, multipart file with fields, JSON xml_base64 and pdf_base64", async () => {
    await expectQueued(await send(xml(), "application/xml", { query: "?language=fr&archive=true" }));
    await expectQueued(await send(facturX(xml()), "application/pdf"));
    const form = new FormData();
    form.append("file", new Blob([xml()], { type: "application/xml" }), "invoice.xml");
    form.append("language", "de");
    form.append("archive", "true");
    await expectQueued(await send(form, undefined));
    await expectQueued(await json({ xml_base64: b64(xml()), language: "en", archive: false }));
    await expectQueued(await json({ pdf_base64: b64(facturX(xml())), rules: ["xrechnung"] }));
  });

  it("an invalid invoice is still printed (its errors are the last section): 202", async () => {
    const broken = xml()
      .toString("utf8")
      .replace(/<ram:GrandTotalAmount>[^<]+</, "<ram:GrandTotalAmount>1.00<");
    await expectQueued(await send(broken, "application/xml"));
  });
});

describe("settings and refusals", () => {
  it("a language it does not speak, a non-boolean archive, a bad template_version: 422 naming the field", async () => {
    for (const [query, field] of [
      ["?language=it", "language"],
      ["?archive=yes", "archive"],
      ["?template_version=0", "template_version"],
    ] as const) {
      const r = await send(xml(), "application/xml", { query });
      expect(r.status).toBe(422);
      expect(r.body.error).toBe("validation_failed");
      expect(r.body.details[0].field).toBe(field);
    }
  });

  it("an unknown template_id: 404; rules it does not know: 422", async () => {
    const r = await json({ xml_base64: b64(xml()), template_id: "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e" });
    expect(r.status).toBe(404);
    expect((await send(xml(), "application/xml", { query: "?rules=kosit" })).status).toBe(422);
  });

  test("documents the checker will not read: validate's answers", async () => {
    expect((await send("this is not XML", "application/xml")).body.error).toBe("e_invoice_unreadable");
    expect((await send('<?xml version="1.0"?><Order xmlns="urn:example"/>', "application/xml")).body.error).toBe("e_invoice_unsupported");
    expect((await send("not a PDF", "application/pdf")).body.error).toBe("e_invoice_unreadable");
    Bun.spawnSync(["qpdf", "--empty", join(work, "bare.pdf")]);
    expect((await send(readFileSync(join(work, "bare.pdf")), "application/pdf")).body.error).toBe("e_invoice_unsupported");
    expect((await json({})).status).toBe(422);
  });

  test("no key: 401; a key without e_invoices:render: 403 naming it; a key with only it may render", async () => {
    expect((await send("<x/>", "application/xml", { key: null })).status).toBe(401);
    const narrow = await mintKey(t, { scopes: ["e_invoices:validate"] });
    const r = await send("<x/>", "application/xml", { key: narrow.value });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain("e_invoices:render");
    const only = await mintKey(t, { scopes: ["e_invoices:render"] });
    expect((await send('<?xml version="1.0"?><Order xmlns="urn:example"/>', "application/xml", { key: only.value })).status).toBe(422);
  });
});
