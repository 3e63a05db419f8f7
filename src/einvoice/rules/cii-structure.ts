// What the CII D16B XML Schema says of every aggregate: which children it may have, in which order and
// how many (generated from the schema into cii-schema.ts), and that amounts, quantities, percentages
// and rates are decimals. Findings carry the id XSD, like the official validator's schema errors.
import { CII_TYPE_CHILDREN } from "../cii-schema";
import type { XmlElement } from "../xml";
import type { Report } from "./report";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DECIMAL_TYPES = new Set(["udt:AmountType", "udt:QuantityType", "udt:PercentType", "udt:NumericType", "udt:RateType"]);

function check(el: XmlElement, type: string, r: Report) {
  const sequence = CII_TYPE_CHILDREN[type.replace(/^\w+:/, "")];
  if (!sequence) {
    if (DECIMAL_TYPES.has(type) && !DECIMAL.test(el.text.trim())) {
      r.fail("XSD", el.xpath, `'${el.text.trim()}' is not a valid value of the atomic type 'xs:decimal' (${el.qname})`);
    }
    return;
  }
  const position = new Map(sequence.map(([name], i) => [name, i]));
  const counts = new Map<string, number>();
  let last = -1;
  for (const c of el.children) {
    const at = position.get(c.local);
    if (at === undefined) {
      r.fail("XSD", c.xpath, `the element ${c.qname} is not expected in ${el.qname}`);
      continue;
    }
    if (at < last) r.fail("XSD", c.xpath, `the element ${c.qname} is out of the schema's order in ${el.qname}`);
    last = Math.max(last, at);
    counts.set(c.local, (counts.get(c.local) ?? 0) + 1);
    check(c, sequence[at]![1], r);
  }
  for (const [name, , min, max] of sequence) {
    const n = counts.get(name) ?? 0;
    if (n < min) r.fail("XSD", el.xpath, `the XML Schema requires the element ${name} in ${el.qname}`);
    if (max > 0 && n > max) r.fail("XSD", el.xpath, `the element ${name} may appear at most ${max} time(s) in ${el.qname}`);
  }
}

/** The schema's structure of a CII document, from its root. */
export function ciiStructure(root: XmlElement, r: Report) {
  check(root, "rsm:CrossIndustryInvoiceType", r);
}
