// The generated code lists (src/einvoice/code-lists.ts) hold the current codes EN 16931 accepts: a
// stale list would refuse valid invoices.
import { expect, test } from "bun:test";
import {
  COUNTRIES,
  CURRENCIES,
  DOCUMENT_TYPES,
  EAS,
  EXEMPTION_REASONS,
  ICD,
  ITEM_CLASSIFICATIONS,
  PAYMENT_MEANS,
  UNITS,
  VAT_CATEGORIES,
} from "../../src/einvoice/code-lists";

const L = {
  COUNTRIES,
  CURRENCIES,
  DOCUMENT_TYPES,
  EAS,
  EXEMPTION_REASONS,
  ICD,
  ITEM_CLASSIFICATIONS,
  PAYMENT_MEANS,
  UNITS,
  VAT_CATEGORIES,
};

test.each([
  ["CURRENCIES", ["EUR", "VES", "SLE", "ZWG", "XCG"]],
  ["COUNTRIES", ["DE", "SS", "XI", "1A"]],
  ["DOCUMENT_TYPES", ["380", "381", "384", "389", "875", "877"]],
  ["VAT_CATEGORIES", ["S", "Z", "E", "AE", "K", "G", "O", "L", "M", "B"]],
  ["PAYMENT_MEANS", ["30", "58", "59", "69", "98", "ZZZ"]],
  ["ICD", ["0088", "0204", "0246"]],
  ["EAS", ["EM", "9930", "0204", "0246"]],
  ["UNITS", ["C62", "H87", "HUR", "XPP", "LS"]],
  ["ITEM_CLASSIFICATIONS", ["STI", "SRV", "IB"]],
  ["EXEMPTION_REASONS", ["VATEX-EU-AE", "VATEX-EU-IC", "VATEX-EU-132-1A"]],
] as const)("%s holds %p", (name, codes) => {
  for (const c of codes) expect(L[name].has(c)).toBe(true);
});

test("codes outside the lists are not in them", () => {
  expect(L.CURRENCIES.has("EURO")).toBe(false);
  expect(L.DOCUMENT_TYPES.has("999")).toBe(false);
  expect(L.VAT_CATEGORIES.has("X")).toBe(false);
  expect(L.ITEM_CLASSIFICATIONS.has("CVD")).toBe(false);
  expect(L.ICD.has("XR01")).toBe(false);
});
