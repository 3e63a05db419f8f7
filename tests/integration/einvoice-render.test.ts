// POST /api/v1/e-invoices/render end to end (real Chromium, qpdf, poppler): official examples from
// ../shared/einvoice printed in each language, read back with pdftotext (the seller, the buyer, every
// line's name and net amount and the totals, formatted for the language, equal the XML's), pdfdetach
// (the supporting documents the XML embeds are attachments, byte for byte), and archive: true (PDF/A-3b
// by the XMP, qpdf --check, and the original XML embedded unchanged). Skipped, naming why, without shared/.
import { describe, expect, setDefaultTimeout } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SaxesParser } from "saxes";
import { fetchLink, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";

setDefaultTimeout(120_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const EXAMPLES = {
  cii: "einvoice/examples/CII_example5.xml",
  ubl: "einvoice/examples/ubl/ubl-tc434-example5.xml",
  xrechnung: "einvoice/examples/xrechnung/01.01a-INVOICE_ubl.xml",
  creditNote: "einvoice/examples/ubl/ubl-tc434-creditnote1.xml",
};
const missing = Object.values(EXAMPLES).map(sharedMissing).find(Boolean);
const it = testIf(missing);
const LOCALES = { de: "de-DE", en: "en-GB", fr: "fr-FR" } as const;

/** Renders the XML and returns the report and its PDF. */
async function render(xml: Uint8Array, query = "") {
  const res = await t.request("POST", `/api/v1/e-invoices/render${query}`, {
    // The examples are UTF-8: as a string, the request sends the same bytes.
    body: Buffer.from(xml).toString("utf8"),
    headers: { "content-type": "application/xml" },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitForReport(t, report_id, 90_000);
  expect(report.error ?? null).toBeNull();
  const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
  return { report, pdf: new Uint8Array(await (await fetchLink(t, dl.data)).arrayBuffer()) };
}

/** Runs a tool on the PDF in a fresh folder; returns its output and the folder's files (read before it is removed). */
function tool(pdf: Uint8Array, cmd: (file: string, dir: string) => string[]) {
  const dir = mkdtempSync(join(tmpdir(), "rg-einv-render-"));
  const file = join(dir, "report.pdf");
  writeFileSync(file, pdf);
  try {
    const p = Bun.spawnSync(cmd(file, dir));
    const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString(), files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first element named `local` (any prefix) in `xml`, its text; "" when absent. */
const first = (xml: string, local: string, after = 0) => {
  const m = new RegExp(`<(?:\\w+:)?${local}\\b[^>]*>([^<]*)</`).exec(xml.slice(after));
  return m ? m[1]!.trim() : "";
};
const squash = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, " ");

/**
 * Every value of an e-invoice: the text of each element without children, but the syntax's own markers
 * (charge indicators, the tax scheme VAT) and the attachments' base64.
 */
function values(xml: string): { name: string; v: string }[] {
  const out: { name: string; v: string }[] = [];
  const stack: { name: string; text: string; kids: number }[] = [];
  const p = new SaxesParser({ xmlns: true });
  p.on("opentag", (t) => {
    if (stack.length) stack[stack.length - 1]!.kids++;
    stack.push({ name: t.local, text: "", kids: 0 });
  });
  p.on("text", (x) => {
    if (stack.length) stack[stack.length - 1]!.text += x;
  });
  p.on("closetag", () => {
    const e = stack.pop()!;
    const v = e.text.trim();
    if (!e.kids && v && !/BinaryObject|^(ChargeIndicator|Indicator)$/.test(e.name) && !(e.name === "ID" && v === "VAT"))
      out.push({ name: e.name, v });
  });
  p.write(xml).close();
  return out;
}

/** A value as the layout may print it: as written, or as an en-GB amount, number or date. */
function printed(v: string): string[] {
  const forms = [squash(v)];
  if (/^[+-]?\d+(\.\d+)?$/.test(v)) {
    forms.push(new Intl.NumberFormat("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(v)));
    forms.push(new Intl.NumberFormat("en-GB", { maximumFractionDigits: 10 }).format(Number(v)));
  }
  const d = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  const date = d ? new Date(`${d[1]}-${d[2]}-${d[3]}T00:00:00Z`) : undefined;
  if (date && !Number.isNaN(date.getTime()))
    forms.push(new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(date));
  return forms;
}

describe("readable copies of official examples", () => {
  for (const [language, locale] of Object.entries(LOCALES)) {
    it(`UBL and CII in ${language}: seller, buyer, lines and totals as the XML says, formatted for ${locale}`, async () => {
      const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      for (const path of [EXAMPLES.ubl, EXAMPLES.cii, EXAMPLES.xrechnung]) {
        const bytes = readFileSync(sharedPath(path));
        const xml = bytes.toString("utf8");
        const { pdf } = await render(bytes, `?language=${language}`);
        const text = squash(await pdfText(pdf));
        const ubl = xml.includes("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2");
        const seller = ubl
          ? first(xml, "RegistrationName", xml.indexOf("AccountingSupplierParty"))
          : first(xml, "Name", xml.indexOf("SellerTradeParty"));
        const buyer = ubl
          ? first(xml, "RegistrationName", xml.indexOf("AccountingCustomerParty"))
          : first(xml, "Name", xml.indexOf("BuyerTradeParty"));
        expect(text).toContain(squash(seller));
        expect(text).toContain(squash(buyer));
        const due = ubl ? first(xml, "PayableAmount") : first(xml, "DuePayableAmount");
        const grand = ubl ? first(xml, "TaxInclusiveAmount") : first(xml, "GrandTotalAmount");
        for (const amount of [due, grand]) expect(text).toContain(squash(money.format(Number(amount))));
        const lines = xml.split(ubl ? /<cac:InvoiceLine>/ : /<ram:IncludedSupplyChainTradeLineItem>/).slice(1);
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) {
          const name = ubl ? first(line, "Name", line.indexOf("<cac:Item>")) : first(line, "Name", line.indexOf("SpecifiedTradeProduct"));
          const net = ubl ? first(line, "LineExtensionAmount") : first(line, "LineTotalAmount");
          expect(text).toContain(squash(name).slice(0, 30));
          expect(text).toContain(squash(money.format(Number(net))));
        }
        const heading = { de: "Rechnung", en: "Invoice", fr: "Facture" }[language]!;
        expect(text).toContain(heading);
        expect(text).toContain({ de: "Prüfung", en: "Validation", fr: "Contrôle" }[language]!);
      }
    });
  }

  it("the KoSIT test suite (examples and corpus, the extension's sub-lines and third-party payments too): at least 95 % of each file's values are in the PDF's text", async () => {
    const files = [sharedPath("einvoice/examples/xrechnung"), sharedPath("einvoice/corpus/xrechnung-testsuite")].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".xml"))
        .map((f) => join(dir, f)),
    );
    expect(files.length).toBeGreaterThan(80);
    const shares: number[] = [];
    for (const file of files) {
      const xml = readFileSync(file, "utf8");
      // pdftotext in its default reading order: -layout interleaves a wrapped cell with its row's other columns.
      const text = squash(tool((await render(Buffer.from(xml))).pdf, (f) => ["pdftotext", f, "-"]).out);
      const all = values(xml);
      const missed = all.filter((x) => !printed(x.v).some((f) => text.includes(f)));
      const share = 1 - missed.length / all.length;
      shares.push(share);
      const name = file.split("/").pop();
      expect({ name, share: share >= 0.95 ? "≥ 95 %" : share, missed: share >= 0.95 ? [] : missed }).toEqual({
        name,
        share: "≥ 95 %",
        missed: [],
      });
    }
    console.log(`values of each file found by pdftotext: ${files.length} files, the least ${(100 * Math.min(...shares)).toFixed(1)} %`);
  });

  it("a credit note is titled as one", async () => {
    const { pdf } = await render(readFileSync(sharedPath(EXAMPLES.creditNote)), "?language=de");
    expect(await pdfText(pdf)).toContain("Gutschrift");
  });

  it("embedded supporting documents (BG-24) are attachments of the PDF, byte for byte", async () => {
    for (const path of [EXAMPLES.ubl, EXAMPLES.cii]) {
      const xml = readFileSync(sharedPath(path), "utf8");
      const docs = [...xml.matchAll(/BinaryObject[^>]*filename="([^"]+)"[^>]*>([^<]+)</g)].map((m) => ({
        name: m[1]!,
        bytes: Buffer.from(m[2]!.replace(/\s+/g, ""), "base64"),
      }));
      expect(docs.length).toBeGreaterThan(0);
      const { pdf } = await render(Buffer.from(xml));
      const list = tool(pdf, (f) => ["pdfdetach", "-list", f]);
      for (const d of docs) expect(list.out).toContain(d.name);
      const saved = tool(pdf, (f, dir) => ["pdfdetach", "-saveall", "-o", dir, f]);
      expect(saved.code).toBe(0);
      for (const d of docs) expect(Buffer.compare(saved.files[d.name]!, d.bytes)).toBe(0);
    }
  });

  it("template_id prints with a stored template that sees e_invoice, validation, language, locale and labels", async () => {
    const made = await t.request("POST", "/api/v1/templates", {
      body: {
        name: "My invoice layout",
        engine: "ejs",
        html_template:
          "<p>Mine: <%= e_invoice.number %> from <%= e_invoice.seller.name %>, <%= e_invoice.lines.length %> lines, " +
          "valid <%= validation.valid %>, <%= labels.invoice %> in <%= language %>/<%= locale %></p>",
      },
    });
    expect(made.status).toBe(201);
    const { template_id } = (await made.json()) as { template_id: string };
    const { pdf } = await render(readFileSync(sharedPath(EXAMPLES.cii)), `?template_id=${template_id}&language=de`);
    expect(squash(await pdfText(pdf))).toContain("Mine: TOSL110 from SellerCompany, 3 lines, valid true, Rechnung in de/de-DE");
  });

  it("archive: true is PDF/A-3b carrying the original XML unchanged", async () => {
    const bytes = readFileSync(sharedPath(EXAMPLES.xrechnung));
    const { report, pdf } = await render(bytes, "?archive=true&language=fr");
    expect(report.pdfa).toBe("3b");
    const meta = tool(pdf, (f) => ["pdfinfo", "-meta", f]).out;
    expect(meta).toMatch(/pdfaid:part(>|=")3/);
    expect(meta).toMatch(/pdfaid:conformance(>|=")B/);
    expect(tool(pdf, (f) => ["qpdf", "--check", f]).code).toBe(0);
    // The invoice number (BT-1) is the document's first cbc:ID.
    const number = /<cbc:ID>([^<]+)</.exec(bytes.toString("utf8"))![1]!;
    const saved = tool(pdf, (f, dir) => ["pdfdetach", "-saveall", "-o", dir, f]);
    const original = Object.entries(saved.files).find(([name]) => name.endsWith(".xml"));
    expect(original?.[0]).toBe(`${number.replace(/[^A-Za-z0-9._-]+/g, "_")}.xml`);
    expect(Buffer.compare(original![1], bytes)).toBe(0);
  });
});
