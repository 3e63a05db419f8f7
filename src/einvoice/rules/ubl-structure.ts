// What UBL 2.1's XML Schema says of every aggregate (cac:*) below the root: which children it may
// have, in which order and how many, generated from the schema into ubl-schema.ts; and that amounts,
// quantities and percentages are decimals and dates are dates. Findings carry the id XSD, like the
// official validator's schema errors.
import { isCalendarDate } from "../read-field";
import { UBL_ELEMENT_TYPES, UBL_TYPE_CHILDREN } from "../ubl-schema";
import type { XmlElement } from "../xml";
import type { Report } from "./report";

const PREFIXES: Record<string, string> = {
  "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2": "cac",
  "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2": "cbc",
  "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2": "ext",
};
const CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/;

/** One aggregate's children against its type's sequence. */
function aggregate(el: XmlElement, r: Report) {
  const type = UBL_ELEMENT_TYPES[el.local];
  const sequence = type ? UBL_TYPE_CHILDREN[type] : undefined;
  if (!sequence) return;
  const position = new Map(sequence.map(([name], i) => [name, i]));
  const counts = new Map<string, number>();
  let last = -1;
  for (const c of el.children) {
    const name = `${PREFIXES[c.ns] ?? "?"}:${c.local}`;
    const at = position.get(name);
    if (at === undefined) {
      r.fail("XSD", c.xpath, `the element ${c.qname} is not expected in ${el.qname}`);
      continue;
    }
    if (at < last) r.fail("XSD", c.xpath, `the element ${c.qname} is out of the schema's order in ${el.qname}`);
    last = Math.max(last, at);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, min, max] of sequence) {
    const n = counts.get(name) ?? 0;
    if (n < min) r.fail("XSD", el.xpath, `the XML Schema requires the element ${name} in ${el.qname}`);
    if (max > 0 && n > max) r.fail("XSD", el.xpath, `the element ${name} may appear at most ${max} time(s) in ${el.qname}`);
  }
}

/** A basic component's value against its data type (the ones the rules compute with). */
function basic(el: XmlElement, r: Report) {
  const v = el.text.trim();
  if (/(Amount|Quantity|Percent|Numeric)$/.test(el.local) && !DECIMAL.test(v)) {
    r.fail("XSD", el.xpath, `'${v}' is not a valid value of the atomic type 'xs:decimal' (${el.qname})`);
  } else if (el.local.endsWith("Date")) {
    const m = DATE.exec(v);
    if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      r.fail("XSD", el.xpath, `'${v}' is not a valid value of the atomic type 'xs:date' (${el.qname})`);
    }
  }
}

/** The schema's structure below the root of a UBL document. */
export function ublStructure(root: XmlElement, r: Report) {
  const walk = (el: XmlElement) => {
    if (el.ns === CAC) aggregate(el, r);
    else if (el.ns === CBC) basic(el, r);
    for (const c of el.children) walk(c);
  };
  for (const c of root.children) walk(c);
}
