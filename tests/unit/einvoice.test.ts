// options.e_invoice is checked before queueing: each EN 16931 rule the model can break answers 422
// e_invoice_invalid naming the rule and the exact JSON path. Table-driven: a valid invoice, one change.
import { describe, expect, test } from "bun:test";
import { checkEInvoice } from "../../src/einvoice";
import { format } from "../../src/einvoice/decimal";
import { AppError } from "../../src/lib/errors";
import { validInvoice as valid } from "../helpers/einvoice-invoice";

const P = "options.e_invoice.invoice";

/** The violations checkEInvoice reports for this invoice (none: []). */
function violations(invoice: any, profile: string = "en16931"): { rule: string; field: string; problem: string }[] {
  try {
    checkEInvoice({ profile, invoice });
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("e_invoice_invalid");
    expect((e as AppError).status).toBe(422);
    return (e as AppError).details as never;
  }
}

test("the valid invoice passes, its figures computed exactly (0.1 × 3 is 0.30, not 0.30000000000000004)", () => {
  const c = checkEInvoice({ profile: "en16931", invoice: valid() });
  expect(c.summary).toEqual({ number: "RE-1", currency: "EUR", grand_total: "96.66", due_payable: "96.66" });
  if (c.source !== "model") throw new Error("model expected");
  expect(c.figures.lineNet.map((v) => format(v, 2))).toEqual(["0.30", "100.00"]);
  expect(c.figures.vatBreakdown.map((g) => [g.category, format(g.rate!), format(g.taxable, 2), format(g.tax, 2)])).toEqual([
    ["S", "19", "0.30", "0.06"],
    ["S", "7", "90.00", "6.30"],
  ]);
});

test("amounts as JSON numbers are read by their decimal text, never as binary floats", () => {
  const inv = valid();
  inv.lines[0].net_price = 0.1;
  inv.totals.grand_total = 96.66;
  expect(violations(inv)).toEqual([]);
});

type Case = { name: string; change: (inv: any) => void; rule: string; field: string };
const cases: Case[] = [
  // The arithmetic (BR-CO-10 to BR-CO-17).
  { name: "a wrong line total", change: (i) => (i.totals.line_total = "100.31"), rule: "BR-CO-10", field: `${P}.totals.line_total` },
  {
    name: "a wrong allowance total",
    change: (i) => (i.totals.allowance_total = "9"),
    rule: "BR-CO-11",
    field: `${P}.totals.allowance_total`,
  },
  { name: "a wrong charge total", change: (i) => (i.totals.charge_total = "1"), rule: "BR-CO-12", field: `${P}.totals.charge_total` },
  {
    name: "a wrong total without VAT",
    change: (i) => (i.totals.tax_basis_total = "100.30"),
    rule: "BR-CO-13",
    field: `${P}.totals.tax_basis_total`,
  },
  { name: "a wrong VAT total", change: (i) => (i.totals.tax_total = "6.35"), rule: "BR-CO-14", field: `${P}.totals.tax_total` },
  { name: "a wrong grand total", change: (i) => (i.totals.grand_total = "96.67"), rule: "BR-CO-15", field: `${P}.totals.grand_total` },
  { name: "a wrong amount due", change: (i) => (i.totals.due_payable = "96.00"), rule: "BR-CO-16", field: `${P}.totals.due_payable` },
  {
    name: "a wrong VAT amount in the breakdown",
    change: (i) => (i.vat_breakdown = [{ category: "S", rate: "7", tax_amount: "6.31" }]),
    rule: "BR-CO-17",
    field: `${P}.vat_breakdown.0.tax_amount`,
  },
  { name: "a wrong line net amount", change: (i) => (i.lines[0].net_amount = "0.31"), rule: "BR-24", field: `${P}.lines.0.net_amount` },
  {
    name: "an amount with 3 decimals",
    change: (i) => (i.allowances[0].amount = "10.001"),
    rule: "BR-DEC-01",
    field: `${P}.allowances.0.amount`,
  },
  // The mandatory business terms.
  { name: "no invoice number", change: (i) => delete i.number, rule: "BR-02", field: `${P}.number` },
  { name: "no issue date", change: (i) => delete i.issue_date, rule: "BR-03", field: `${P}.issue_date` },
  { name: "an impossible issue date", change: (i) => (i.issue_date = "2025-02-30"), rule: "BR-03", field: `${P}.issue_date` },
  { name: "an unknown type code", change: (i) => (i.type_code = "999"), rule: "BR-04", field: `${P}.type_code` },
  { name: "no currency", change: (i) => delete i.currency, rule: "BR-05", field: `${P}.currency` },
  { name: "no seller name", change: (i) => delete i.seller.name, rule: "BR-06", field: `${P}.seller.name` },
  { name: "an empty buyer name", change: (i) => (i.buyer.name = ""), rule: "BR-07", field: `${P}.buyer.name` },
  { name: "no seller address", change: (i) => delete i.seller.address, rule: "BR-08", field: `${P}.seller.address` },
  {
    name: "no seller country",
    change: (i) => delete i.seller.address.country_code,
    rule: "BR-09",
    field: `${P}.seller.address.country_code`,
  },
  { name: "no buyer address", change: (i) => delete i.buyer.address, rule: "BR-10", field: `${P}.buyer.address` },
  { name: "no buyer country", change: (i) => delete i.buyer.address.country_code, rule: "BR-11", field: `${P}.buyer.address.country_code` },
  { name: "no lines", change: (i) => (i.lines = []), rule: "BR-16", field: `${P}.lines` },
  { name: "a line without quantity", change: (i) => delete i.lines[1].quantity, rule: "BR-22", field: `${P}.lines.1.quantity` },
  { name: "a line without unit", change: (i) => delete i.lines[1].unit_code, rule: "BR-23", field: `${P}.lines.1.unit_code` },
  { name: "a line without item name", change: (i) => delete i.lines[1].name, rule: "BR-25", field: `${P}.lines.1.name` },
  { name: "a line without net price", change: (i) => delete i.lines[1].net_price, rule: "BR-26", field: `${P}.lines.1.net_price` },
  { name: "a negative net price", change: (i) => (i.lines[0].net_price = "-0.10"), rule: "BR-27", field: `${P}.lines.0.net_price` },
  { name: "a line without VAT category", change: (i) => delete i.lines[0].vat, rule: "BR-CO-04", field: `${P}.lines.0.vat` },
  { name: "an allowance without amount", change: (i) => delete i.allowances[0].amount, rule: "BR-31", field: `${P}.allowances.0.amount` },
  { name: "an allowance without VAT", change: (i) => delete i.allowances[0].vat, rule: "BR-32", field: `${P}.allowances.0.vat` },
  { name: "an allowance without reason", change: (i) => delete i.allowances[0].reason, rule: "BR-33", field: `${P}.allowances.0` },
  {
    name: "a charge without reason",
    change: (i) => (i.charges = [{ amount: "1", vat: { category: "S", rate: "19" } }]),
    rule: "BR-38",
    field: `${P}.charges.0`,
  },
  {
    name: "a line allowance without reason",
    change: (i) => (i.lines[0].allowances = [{ amount: "0.01" }]),
    rule: "BR-42",
    field: `${P}.lines.0.allowances.0`,
  },
  {
    name: "a billing period ending before it starts",
    change: (i) => (i.billing_period = { start: "2025-01-31", end: "2025-01-01" }),
    rule: "BR-29",
    field: `${P}.billing_period.end`,
  },
  {
    name: "an electronic address without scheme",
    change: (i) => (i.seller.electronic_address = { value: "a@b.example" }),
    rule: "BR-62",
    field: `${P}.seller.electronic_address.scheme`,
  },
  { name: "a credit transfer without IBAN", change: (i) => delete i.payment.iban, rule: "BR-61", field: `${P}.payment.iban` },
  { name: "an amount due without due date or terms", change: (i) => delete i.due_date, rule: "BR-CO-25", field: `${P}.due_date` },
  {
    name: "a seller without VAT id or legal registration",
    change: (i) => {
      delete i.seller.vat_id;
      i.seller.tax_registration_id = "12/345/67890";
    },
    rule: "BR-CO-26",
    field: `${P}.seller.vat_id`,
  },
  {
    name: "a VAT id without country prefix",
    change: (i) => (i.buyer.vat_id = "12345678901"),
    rule: "BR-CO-09",
    field: `${P}.buyer.vat_id`,
  },
  // The VAT categories.
  { name: "standard rate 0", change: (i) => (i.lines[0].vat.rate = "0"), rule: "BR-S-05", field: `${P}.lines.0.vat.rate` },
  {
    name: "standard rate on an allowance missing",
    change: (i) => delete i.allowances[0].vat.rate,
    rule: "BR-S-06",
    field: `${P}.allowances.0.vat.rate`,
  },
  {
    name: "standard rate without the seller's VAT id",
    change: (i) => {
      delete i.seller.vat_id;
      i.seller.legal_registration_id = "HRB 1";
    },
    rule: "BR-S-02",
    field: `${P}.seller.vat_id`,
  },
  {
    name: "an exemption reason on standard rate",
    change: (i) => (i.vat_breakdown = [{ category: "S", rate: "19", exemption_reason: "none" }]),
    rule: "BR-S-10",
    field: `${P}.vat_breakdown.0.exemption_reason`,
  },
  {
    name: "a breakdown entry no line has",
    change: (i) => (i.vat_breakdown = [{ category: "S", rate: "16" }]),
    rule: "BR-S-08",
    field: `${P}.vat_breakdown.0`,
  },
  {
    name: "a wrong taxable amount",
    change: (i) => (i.vat_breakdown = [{ category: "S", rate: "7", taxable_amount: "100" }]),
    rule: "BR-S-08",
    field: `${P}.vat_breakdown.0.taxable_amount`,
  },
  {
    name: "zero rated at 19 %",
    change: (i) => (i.lines[0].vat = { category: "Z", rate: "19" }),
    rule: "BR-Z-05",
    field: `${P}.lines.0.vat.rate`,
  },
  {
    name: "exempt without a reason",
    change: (i) => (i.lines[0].vat = { category: "E", rate: "0" }),
    rule: "BR-E-10",
    field: `${P}.vat_breakdown`,
  },
  {
    name: "reverse charge without the buyer's VAT id",
    change: (i) => {
      i.lines[0].vat = { category: "AE" };
      delete i.buyer.vat_id;
    },
    rule: "BR-AE-02",
    field: `${P}.buyer.vat_id`,
  },
  {
    name: "reverse charge at 19 %",
    change: (i) => (i.lines[0].vat = { category: "AE", rate: "19" }),
    rule: "BR-AE-05",
    field: `${P}.lines.0.vat.rate`,
  },
  {
    name: "an intra-community supply without delivery country",
    change: (i) => {
      i.lines[0].vat = { category: "K", rate: "0" };
      i.delivery = { date: "2025-01-30" };
    },
    rule: "BR-IC-12",
    field: `${P}.delivery.ship_to_address.country_code`,
  },
  {
    name: "an intra-community supply without delivery date or period",
    change: (i) => {
      i.lines[0].vat = { category: "K", rate: "0" };
      i.delivery = { ship_to_address: { country_code: "FR" } };
    },
    rule: "BR-IC-11",
    field: `${P}.delivery.date`,
  },
  {
    name: "an export at 19 %",
    change: (i) => (i.lines[0].vat = { category: "G", rate: "19" }),
    rule: "BR-G-05",
    field: `${P}.lines.0.vat.rate`,
  },
  {
    name: "not subject to VAT with a rate",
    change: (i) => (i.lines[0].vat = { category: "O", rate: "0" }),
    rule: "BR-O-05",
    field: `${P}.lines.0.vat.rate`,
  },
  {
    name: "not subject to VAT next to a standard rated line",
    change: (i) => (i.lines[0].vat = { category: "O" }),
    rule: "BR-O-12",
    field: `${P}.lines.1.vat.category`,
  },
  {
    name: "not subject to VAT with the seller's VAT id",
    change: (i) => (i.lines[0].vat = { category: "O" }),
    rule: "BR-O-02",
    field: `${P}.seller.vat_id`,
  },
];

describe("each rule: 422 e_invoice_invalid naming the rule and the JSON path", () => {
  for (const c of cases) {
    test(`${c.name} → ${c.rule} at ${c.field.replace(`${P}.`, "")}`, () => {
      const inv = valid();
      c.change(inv);
      const found = violations(inv);
      expect(found.map((v) => `${v.rule} ${v.field}`)).toContain(`${c.rule} ${c.field}`);
    });
  }
});

test("the message names the first rule and path; details list them all", () => {
  const inv = valid();
  inv.totals.grand_total = "1";
  inv.totals.due_payable = "1";
  try {
    checkEInvoice({ profile: "en16931", invoice: inv });
    throw new Error("no error");
  } catch (e) {
    const err = e as AppError;
    expect(err.message).toContain(`BR-CO-15 at ${P}.totals.grand_total`);
    expect((err.details as { rule: string }[]).map((d) => d.rule)).toEqual(["BR-CO-15", "BR-CO-16"]);
  }
});

test("the path prefix is the caller's", () => {
  const inv = valid();
  delete inv.number;
  expect(() => checkEInvoice({ invoice: inv }, "e")).toThrow("BR-02 at e.invoice.number");
});

test("an unknown profile, an unknown property and a control character are schema errors", () => {
  expect(() => checkEInvoice({ profile: "platinum", invoice: valid() })).toThrow("options.e_invoice.profile");
  const inv = valid();
  inv.colour = "red";
  expect(violations(inv)[0]).toMatchObject({ rule: "schema", field: `${P}.colour` });
  const inv2 = valid();
  inv2.lines[0].name = "bad\u0001name";
  expect(violations(inv2)[0]).toMatchObject({ rule: "schema", field: `${P}.lines.0.name` });
});
