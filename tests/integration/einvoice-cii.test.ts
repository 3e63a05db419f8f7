// The CII XML reportgen writes, checked with the official EN 16931 artefacts in shared/einvoice beside the
// clone: the official examples re-expressed in our JSON model, and one invoice per VAT category we support.
// Each is checked twice: against the CII D16B XML Schema (xmllint; no rules needed, so it runs in CI), and by
// validate-einvoice with the EN 16931 business rules, which skips, with the script's reason, where the
// rules are not installed ($EINVOICE_RULES_DIR, see tests/helpers/einvoice-validator.ts).
import { describe, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkCustomerXml, checkEInvoice, ciiXml, type EInvoiceModel } from "../../src/einvoice";
import { find, parseXml, type XmlElement } from "../../src/einvoice/customer-xml";
import { format, parseDec } from "../../src/einvoice/decimal";
import { examples } from "../helpers/einvoice-examples";
import { VALIDATOR_TIMEOUT_MS, validateEInvoiceBytes, validatorMissing, xsdErrors, xsdMissing } from "../helpers/einvoice-validator";
import { EINVOICE_ARTEFACTS, sharedMissing, testIf } from "../helpers/shared";

const shared = EINVOICE_ARTEFACTS;
const withRules = testIf(validatorMissing("CII"));
const withXsd = testIf(xsdMissing());

/** The EN 16931 rules pass the XML: no fatal finding (warnings allowed), as the CII syntax. */
async function expectValid(xml: string) {
  const v = await validateEInvoiceBytes(xml);
  expect(v.summary).toBe("");
  expect({ code: v.code, syntax: v.syntax }).toEqual({ code: 0, syntax: "CII" });
  expect(v.rules).toContain("en16931");
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
    testIf(sharedMissing(join("einvoice/examples", ex.file)))(`${ex.file}: our figures are the original's`, () => {
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

    withXsd(`${ex.file}: the XML we write matches the CII D16B XML Schema`, () => {
      expect(xsdErrors(ciiXml(checkEInvoice({ profile: "en16931", invoice: ex.invoice })))).toEqual([]);
    });

    withRules(
      `${ex.file}: the XML we write passes the EN 16931 rules (validate-einvoice)`,
      async () => {
        const xml = ciiXml(checkEInvoice({ profile: "en16931", invoice: ex.invoice }));
        await expectValid(xml);
        // What the service shows of the XML, read back from it as it reads a customer's own XML.
        const back = checkCustomerXml(Buffer.from(xml).toString("base64"), "options.e_invoice.xml_base64");
        expect(back.summary).toMatchObject({
          number: ex.invoice.number,
          currency: ex.invoice.currency,
          grand_total: ex.expected.grand_total,
        });
        expect(back.profile).toBe("en16931");
      },
      VALIDATOR_TIMEOUT_MS,
    );
  }

  // Controls: both checks catch a broken copy of what we write, so a pass above is not vacuous.
  const broken = () => {
    const xml = ciiXml(checkEInvoice({ profile: "en16931", invoice: examples[0]!.invoice }));
    return xml.replace(/<ram:GrandTotalAmount>([^<]+)</, (_, v: string) => `<ram:GrandTotalAmount>${(Number(v) + 1).toFixed(2)}<`);
  };
  withXsd("control: XML without its ExchangedDocument fails the XML Schema", () => {
    const xml = ciiXml(checkEInvoice({ profile: "en16931", invoice: examples[0]!.invoice }));
    const errors = xsdErrors(xml.replace(/<rsm:ExchangedDocument>[\s\S]*?<\/rsm:ExchangedDocument>/, ""));
    expect(errors.join("\n")).toContain(
      "SupplyChainTradeTransaction': This element is not expected. Expected is ( {urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}ExchangedDocument )",
    );
  });
  withRules(
    "control: a grand total one more than the sums fails the EN 16931 rules (BR-CO-15)",
    async () => {
      const v = await validateEInvoiceBytes(broken());
      expect(v.code).toBe(1);
      expect(v.fatal.map((f) => f.id)).toContain("BR-CO-15");
    },
    VALIDATOR_TIMEOUT_MS,
  );

  const extended = () => ciiXml(checkEInvoice({ profile: "extended", invoice: examples[1]!.invoice }));
  withXsd("the extended profile's XML matches the XML Schema and names the Factur-X EXTENDED guideline", () => {
    expect(extended()).toContain("<ram:ID>urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended</ram:ID>");
    expect(xsdErrors(extended())).toEqual([]);
  });
  withRules("the extended profile's XML passes the EN 16931 rules", () => expectValid(extended()), VALIDATOR_TIMEOUT_MS);
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
    const xml = () => {
      const checked = checkEInvoice({ profile: "en16931", invoice: invoiceIn(category) });
      expect(checked.summary.grand_total).toBe("4149.90");
      return ciiXml(checked);
    };
    withXsd(`${category}: the XML matches the CII D16B XML Schema`, () => {
      expect(xsdErrors(xml())).toEqual([]);
    });
    withRules(
      `${category}: the XML passes the EN 16931 rules (categories without VAT get their VATEX exemption code)`,
      () => expectValid(xml()),
      VALIDATOR_TIMEOUT_MS,
    );
  }
});
