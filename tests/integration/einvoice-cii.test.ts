// The CII XML reportgen writes is checked by the official EN 16931 validation artefacts
// (../shared/einvoice/validate-cii: the CII D16B XML Schema and the Schematron business rules): the
// official examples re-expressed in our JSON model, and one invoice per VAT category we support.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkCustomerXml, checkEInvoice, ciiXml, type EInvoiceModel } from "../../src/einvoice";
import { find, parseXml, type XmlElement } from "../../src/einvoice/customer-xml";
import { format, parseDec } from "../../src/einvoice/decimal";
import { examples } from "../helpers/einvoice-examples";
import { EINVOICE_ARTEFACTS } from "../helpers/shared";

const shared = EINVOICE_ARTEFACTS;
const validator = join(shared, "validate-cii");

/** Why the validator cannot run here, or undefined when it can. */
function validatorMissing(): string | undefined {
  if (!existsSync(validator)) return `${validator} is absent (the EN 16931 artefacts live outside the repository)`;
  for (const tool of ["xmllint", "java"]) if (!Bun.which(tool)) return `${tool} is missing: bash scripts/setup --test installs it`;
  if (!existsSync("/usr/share/java/Saxon-HE.jar")) return "Saxon-HE is missing: bash scripts/setup --test installs libsaxonhe-java";
  return undefined;
}
const missing = validatorMissing();
if (missing) console.warn(`einvoice-cii: skipping the validator tests: ${missing}`);
/** One validator run takes 3 to 5 s (Java start and a 700 KB stylesheet); on a busy machine more. */
const VALIDATOR_TIMEOUT = 60_000;
const withValidator = (name: string, fn: () => Promise<void>) => (missing ? test.skip : test)(name, fn, VALIDATOR_TIMEOUT);
const named = (name: string) => (missing ? `${name} (skipped: ${missing})` : name);

const work = mkdtempSync(join(tmpdir(), "reportgen-einvoice-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs validate-cii on the XML; returns its exit code and output. */
async function validate(name: string, xml: string): Promise<{ code: number; output: string }> {
  const file = join(work, `${name}.xml`);
  await Bun.write(file, xml);
  const proc = Bun.spawn([validator, file], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: out + err };
}

/** The figures of an original example, read from its XML. */
function originalFigures(file: string) {
  const root = parseXml(readFileSync(join(shared, "examples", file), "utf8"));
  const sums = find(
    root,
    "SupplyChainTradeTransaction",
    "ApplicableHeaderTradeSettlement",
    "SpecifiedTradeSettlementHeaderMonetarySummation",
  )!;
  const amount = (el: XmlElement | undefined) => (el ? format(parseDec(el.text.trim())!.value, 2) : undefined);
  const settlement = find(root, "SupplyChainTradeTransaction", "ApplicableHeaderTradeSettlement")!;
  return {
    line_total: amount(find(sums, "LineTotalAmount")),
    allowance_total: amount(find(sums, "AllowanceTotalAmount")),
    charge_total: amount(find(sums, "ChargeTotalAmount")),
    tax_basis_total: amount(find(sums, "TaxBasisTotalAmount")),
    tax_total: amount(find(sums, "TaxTotalAmount")),
    grand_total: amount(find(sums, "GrandTotalAmount")),
    prepaid: amount(find(sums, "TotalPrepaidAmount")),
    due_payable: amount(find(sums, "DuePayableAmount")),
    vat: settlement.children
      .filter((c) => c.local === "ApplicableTradeTax")
      .map((t) => ({
        category: find(t, "CategoryCode")!.text,
        rate: format(parseDec(find(t, "RateApplicablePercent")!.text)!.value),
        taxable: amount(find(t, "BasisAmount"))!,
        tax: amount(find(t, "CalculatedAmount"))!,
      })),
  };
}

describe("the official examples, re-expressed in the JSON model", () => {
  for (const ex of examples) {
    test(`${ex.file}: our figures are the original's`, () => {
      const checked = checkEInvoice({ profile: "en16931", invoice: ex.invoice });
      if (checked.source !== "model") throw new Error("expected the model");
      const f = checked.figures;
      const ours = {
        line_total: format(f.lineTotal, 2),
        allowance_total: ex.invoice.allowances ? format(f.allowanceTotal, 2) : undefined,
        charge_total: ex.invoice.charges ? format(f.chargeTotal, 2) : undefined,
        tax_basis_total: format(f.taxBasisTotal, 2),
        tax_total: format(f.taxTotal, 2),
        grand_total: format(f.grandTotal, 2),
        prepaid: ex.invoice.totals?.prepaid !== undefined ? format(f.prepaid, 2) : undefined,
        due_payable: format(f.duePayable, 2),
        vat: f.vatBreakdown.map((g) => ({
          category: g.category,
          rate: format(g.rate!),
          taxable: format(g.taxable, 2),
          tax: format(g.tax, 2),
        })),
      };
      expect(ours as unknown).toEqual(originalFigures(ex.file));
      expect(ours as unknown).toEqual({ allowance_total: undefined, charge_total: undefined, prepaid: undefined, ...ex.expected });
    });

    withValidator(named(`${ex.file}: the XML we write passes validate-cii`), async () => {
      const xml = ciiXml(checkEInvoice({ profile: "en16931", invoice: ex.invoice }));
      const r = await validate(ex.file.replace(".xml", "-ours"), xml);
      expect(r.output).toContain("validate-cii: VALID");
      expect(r.code).toBe(0);
      // What the service shows of the XML, read back from it as it reads a customer's own XML.
      const back = checkCustomerXml(Buffer.from(xml).toString("base64"), "options.e_invoice.xml_base64");
      expect(back.summary).toMatchObject({
        number: ex.invoice.number,
        currency: ex.invoice.currency,
        grand_total: ex.expected.grand_total,
      });
      expect(back.profile).toBe("en16931");
    });
  }

  withValidator(named("the extended profile's XML passes validate-cii and names the Factur-X EXTENDED guideline"), async () => {
    const xml = ciiXml(checkEInvoice({ profile: "extended", invoice: examples[1]!.invoice }));
    expect(xml).toContain("<ram:ID>urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended</ram:ID>");
    const r = await validate("example2-extended", xml);
    expect(r.output).toContain("validate-cii: VALID");
    expect(r.code).toBe(0);
  });
});

/** A small cross-border invoice in one VAT category. */
function invoiceIn(category: "Z" | "AE" | "K" | "G" | "O"): EInvoiceModel {
  const vat = category === "O" ? { category } : { category, rate: "0" };
  return {
    number: `CAT-${category}-1`,
    issue_date: "2025-03-01",
    currency: "EUR",
    seller: {
      name: "Lieferant & Co. KG <Werk 2>",
      legal_registration_id: "HRB 12345",
      ...(category === "O" ? {} : { vat_id: "DE123456789" }),
      address: { line1: "Industriestraße 5", city: "München", postal_code: "80331", country_code: "DE" },
      electronic_address: { scheme: "EM", value: "rechnung@lieferant.example" },
    },
    buyer: {
      name: 'Client "Export" Ltd',
      ...(category === "O" ? {} : { vat_id: category === "G" ? "CH123456789" : "FR12345678901" }),
      address: { city: category === "G" ? "Zürich" : "Lyon", postal_code: "69001", country_code: category === "G" ? "CH" : "FR" },
    },
    delivery: { date: "2025-02-27", ship_to_address: { city: "Lyon", country_code: category === "G" ? "CH" : "FR" } },
    payment_terms: "30 days net",
    payment: { means_code: "58", iban: "DE02120300000000202051" },
    lines: [
      { name: "Pump ' A1 ' & spare parts", quantity: "3", unit_code: "H87", net_price: "1200.00", vat },
      {
        name: "Installation",
        quantity: "7.5",
        unit_code: "HUR",
        net_price: "85.50",
        vat,
        allowances: [{ amount: "41.25", reason_code: "95" }],
      },
    ],
    allowances: [{ amount: "100.00", reason: "Framework agreement", vat }],
    charges: [{ amount: "49.90", reason: "Freight", reason_code: "FC", vat }],
  };
}

describe("one invoice per supported VAT category", () => {
  for (const category of ["Z", "AE", "K", "G", "O"] as const) {
    withValidator(named(`${category}: the XML passes validate-cii (categories without VAT get their VATEX exemption code)`), async () => {
      const checked = checkEInvoice({ profile: "en16931", invoice: invoiceIn(category) });
      expect(checked.summary.grand_total).toBe("4149.90");
      const xml = ciiXml(checked);
      const r = await validate(`category-${category}`, xml);
      expect(r.output).toContain("validate-cii: VALID");
      expect(r.code).toBe(0);
    });
  }
});
