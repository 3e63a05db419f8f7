// POST /api/v1/e-invoices/validate over the real HTTP app: every form of input (raw XML, raw PDF with
// an embedded invoice, multipart file, JSON base64), the rules override, hostile and unsupported
// documents answered 4xx with what to fix, and access (401, 403 without e_invoices:validate). The
// invoices are the shared corpus's (skipped, naming why, when it is absent); the PDFs are made here by
// qpdf, which attaches the XML the way a Factur-X writer does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectExactly401, mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";
import { corpusAbsent, EINVOICE_SHARED } from "../helpers/einvoice-corpus";

const STANDARD = join(EINVOICE_SHARED, "corpus", "xrechnung-testsuite", "business-cases", "standard");
const read = (p: string) => (corpusAbsent ? new Uint8Array() : readFileSync(p));
const XR_UBL = read(join(STANDARD, "01.03a-INVOICE_ubl.xml"));
const XR_CII = read(join(STANDARD, "01.03a-INVOICE_uncefact.xml"));
const EN_CII = read(join(EINVOICE_SHARED, "examples", "CII_example1.xml"));
const CREDIT_NOTE = read(join(EINVOICE_SHARED, "examples", "ubl", "ubl-tc434-creditnote1.xml"));
const b64 = (b: Uint8Array | string) => Buffer.from(b).toString("base64");

const work = mkdtempSync(join(tmpdir(), "einvoice-api-"));

/** A PDF with `xml` attached as `name` (or nothing attached), made by qpdf. */
function pdfWith(xml?: Uint8Array, name = "factur-x.xml"): Uint8Array {
  const empty = join(work, "empty.pdf");
  const out = join(work, `${name}-${Math.random()}.pdf`);
  Bun.spawnSync(["qpdf", "--empty", empty]);
  if (!xml) return readFileSync(empty);
  const x = join(work, name);
  writeFileSync(x, xml);
  const r = Bun.spawnSync(["qpdf", empty, "--add-attachment", x, `--key=${name}`, "--", out]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return readFileSync(out);
}

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
    new Request(`${t.baseUrl}/api/v1/e-invoices/validate${o.query ?? ""}`, { method: "POST", headers, body: body as BodyInit }),
  );
  return { status: r.status, body: (await r.json()) as any };
}
const json = (body: unknown, o?: { query?: string; key?: string | null }) => send(JSON.stringify(body), "application/json", o);

describe.skipIf(corpusAbsent !== undefined)(`every form of input${corpusAbsent ? ` (skipped: ${corpusAbsent})` : ""}`, () => {
  test("raw application/xml, UBL: 200 with the XRechnung rules its CustomizationID names", async () => {
    const r = await send(XR_UBL, "application/xml");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ valid: true, syntax: "ubl", document: "invoice", errors: [] });
    expect(r.body.data.customization).toContain("xrechnung");
    expect(r.body.data.rules.map((s: { id: string }) => s.id)).toEqual(["en16931", "xrechnung"]);
    expect(r.body.data.rules[0].version).toMatch(/EN 16931/);
  });

  test("raw CII and a UBL CreditNote", async () => {
    const cii = await send(XR_CII, "application/xml; charset=utf-8");
    expect(cii.status).toBe(200);
    expect(cii.body.data).toMatchObject({ valid: true, syntax: "cii", document: "invoice" });
    const cn = await send(CREDIT_NOTE, "text/xml");
    expect(cn.status).toBe(200);
    expect(cn.body.data).toMatchObject({ syntax: "ubl", document: "credit_note" });
  });

  test("raw application/pdf: the embedded XML is found under each standard name and checked", async () => {
    for (const name of ["factur-x.xml", "zugferd-invoice.xml", "ZUGFeRD-invoice.xml", "xrechnung.xml"]) {
      const r = await send(pdfWith(XR_CII, name), "application/pdf");
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ valid: true, syntax: "cii" });
    }
  });

  test("multipart file (XML and PDF) and JSON xml_base64 / pdf_base64 answer as the raw body does", async () => {
    const raw = await send(EN_CII, "application/xml");
    const form = new FormData();
    form.append("file", new Blob([EN_CII as Uint8Array<ArrayBuffer>], { type: "application/xml" }), "invoice.xml");
    expect((await send(form, undefined)).body).toEqual(raw.body);
    const pdfForm = new FormData();
    pdfForm.append("file", new Blob([pdfWith(EN_CII) as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "invoice.pdf");
    expect((await send(pdfForm, undefined)).body).toEqual(raw.body);
    expect(await json({ xml_base64: b64(EN_CII) })).toEqual({ status: 200, body: raw.body });
    expect(await json({ pdf_base64: b64(pdfWith(EN_CII)) })).toEqual({ status: 200, body: raw.body });
  });

  test("rules overrides what the document names: in the query, or the JSON body", async () => {
    const named = await send(EN_CII, "application/xml");
    expect(named.body.data.rules.map((s: { id: string }) => s.id)).toEqual(["en16931"]);
    const asked = await send(EN_CII, "application/xml", { query: "?rules=xrechnung" });
    expect(asked.body.data.rules.map((s: { id: string }) => s.id)).toEqual(["en16931", "xrechnung"]);
    // An EN 16931 invoice is no XRechnung: the BR-DE rules fail, each with an XPath.
    expect(asked.body.data.valid).toBe(false);
    expect(asked.body.data.errors.some((e: { rule: string }) => e.rule.startsWith("BR-DE-"))).toBe(true);
    for (const e of asked.body.data.errors) expect(e.location).toStartWith("/");
    const body = await json({ xml_base64: b64(EN_CII), rules: ["peppol"] });
    expect(body.body.data.rules.map((s: { id: string }) => s.id)).toEqual(["en16931", "peppol"]);
    const bad = await send(EN_CII, "application/xml", { query: "?rules=kosit" });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe("validation_failed");
    expect(bad.body.message).toContain("en16931, xrechnung, peppol");
  });
});

describe("hostile and unsupported documents: a quick 4xx saying what to fix", () => {
  const cases: [string, string | Uint8Array, string, number, string][] = [
    [
      "a DOCTYPE with entities",
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>',
      "application/xml",
      400,
      "e_invoice_unreadable",
    ],
    ["200,000 nested elements", `${"<a>".repeat(200_000)}${"</a>".repeat(200_000)}`, "application/xml", 400, "e_invoice_unreadable"],
    ["a 3 MB attribute", `<Invoice a="${"x".repeat(3_000_000)}"/>`, "application/xml", 400, "e_invoice_unreadable"],
    ["a body that is not XML", "this is not xml", "application/xml", 400, "e_invoice_unreadable"],
    ["XML that is no invoice", '<?xml version="1.0"?><Order xmlns="urn:example"/>', "application/xml", 422, "e_invoice_unsupported"],
    ["a PDF that is not one", "%PDX nothing", "application/pdf", 400, "e_invoice_unreadable"],
    ["a body of another type", "{}", "text/plain", 415, "unsupported_media_type"],
  ];
  for (const [what, body, type, status, code] of cases)
    test(`${what}: ${status} ${code}`, async () => {
      const started = performance.now();
      const r = await send(body, type);
      expect(r.status).toBe(status);
      expect(r.body.error).toBe(code);
      expect(r.body.message.length).toBeGreaterThan(20);
      expect(performance.now() - started).toBeLessThan(5_000);
    });

  test("a PDF without an embedded invoice: 422 e_invoice_unsupported naming the file names looked for", async () => {
    const r = await send(pdfWith(), "application/pdf");
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("e_invoice_unsupported");
    expect(r.body.message).toContain("factur-x.xml");
  });

  test("more XML than the checker reads: 413 e_invoice_too_large", async () => {
    const big = `<Invoice>${"<a/>".repeat(2_700_000)}</Invoice>`; // ~10.8 MB
    const app = await createTestApp({ config: { bodyLimit: 20 * 1024 * 1024 } });
    try {
      const r = await app.app.http.handle(
        new Request(`${app.baseUrl}/api/v1/e-invoices/validate`, {
          method: "POST",
          headers: { "x-api-key": app.key, "content-type": "application/xml" },
          body: big,
        }),
      );
      expect(r.status).toBe(413);
      expect(((await r.json()) as any).error).toBe("e_invoice_too_large");
    } finally {
      await app.close();
    }
  });

  test("no document at all: 422 naming the four ways to send one", async () => {
    const r = await json({});
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("xml_base64");
  });
});

describe("access", () => {
  test("without a key: exactly 401 unauthorized", async () => {
    const r = await t.app.http.handle(
      new Request(`${t.baseUrl}/api/v1/e-invoices/validate`, {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body: "<x/>",
      }),
    );
    await expectExactly401(r, expect);
  });

  test("a key without e_invoices:validate: 403 naming the scope", async () => {
    const { value } = await mintKey(t, { scopes: ["reports:read"] });
    const r = await send("<x/>", "application/xml", { key: value });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe("forbidden");
    expect(r.body.message).toContain("e_invoices:validate");
  });

  test("a key with only e_invoices:validate may check", async () => {
    const { value } = await mintKey(t, { scopes: ["e_invoices:validate"] });
    const r = await send('<?xml version="1.0"?><Order xmlns="urn:example"/>', "application/xml", { key: value });
    expect(r.status).toBe(422);
  });
});
