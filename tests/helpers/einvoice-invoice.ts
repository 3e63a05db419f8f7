// A valid EN 16931 invoice in reportgen's JSON model (src/einvoice/model.ts): the unit tests change one thing in it.
export function validInvoice(): any {
  return {
    number: "RE-1",
    issue_date: "2025-01-31",
    currency: "EUR",
    seller: { name: "Seller GmbH", vat_id: "DE123456789", address: { city: "Berlin", country_code: "DE" } },
    buyer: { name: "Buyer SARL", vat_id: "FR12345678901", address: { city: "Paris", country_code: "FR" } },
    due_date: "2025-02-28",
    payment: { means_code: "58", iban: "DE02120300000000202051" },
    lines: [
      { name: "Widget", quantity: "3", unit_code: "H87", net_price: "0.10", vat: { category: "S", rate: "19" } },
      { name: "Service", quantity: "1", unit_code: "HUR", net_price: "100", vat: { category: "S", rate: "7" } },
    ],
    allowances: [{ amount: "10", reason: "Discount", vat: { category: "S", rate: "7" } }],
    totals: {
      line_total: "100.30",
      allowance_total: "10.00",
      tax_basis_total: "90.30",
      tax_total: "6.36",
      grand_total: "96.66",
      due_payable: "96.66",
    },
  };
}
