// Generates src/einvoice/code-lists.ts, the code lists the e-invoice rules check values against, from
// the UN/CEFACT code-list schemas in ../shared/einvoice/xsd (or $EINVOICE_SHARED/xsd) and from the EN
// 16931 code lists the factur-x-kit package (MIT, a dev dependency) ships, where the schemas lack the
// list or hold an older or wider one: units (UN/ECE Rec 20/21), ISO 6523 ICD, EAS, UNTDID 7143, 4451,
// VATEX, the EN 16931 subsets of UNTDID 1001, 4461 and 5305, and newer currencies. It also writes the
// structure of the UBL and CII schemas (ubl-schema.ts, cii-schema.ts). Run it again when any changes:
//   bun scripts/gen-einvoice-codes.ts
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  CURRENCY_CODES,
  DOCUMENT_TYPE_CODES,
  EAS_SCHEME_CODES,
  EXEMPTION_REASON_CODES,
  ISO6523_CODES,
  PAYMENT_MEANS_CODES,
  SUBJECT_CODES,
  TAX_CATEGORY_CODES,
  UNIT_CODES,
  UNTDID_7143,
} from "factur-x-kit";

const root = join(dirname(import.meta.dir));
const shared = process.env.EINVOICE_SHARED ?? join(root, "..", "shared", "einvoice");
const xsd = join(shared, "xsd", "uncefact");

/** The xsd:enumeration values of one code-list schema. */
function enumeration(file: string): string[] {
  const text = readFileSync(join(xsd, file), "utf8");
  return [...text.matchAll(/<xsd:enumeration value="([^"]+)"/g)].map((m) => m[1]!);
}

/** The codes of one schema's list that must be there: a guard against a renamed or emptied schema. */
function only(codes: string[], wanted: string[]): string[] {
  const missing = wanted.filter((c) => !codes.includes(c));
  if (missing.length > 0) throw new Error(`the code list lacks ${missing.join(", ")}`);
  return wanted;
}

// Registrations newer than both sources (ISO 4217 XCG, 2025; ISO 6523 ICD 0245–0248 and the matching
// EAS codes, 2024–2025): EN 16931's lists have them, so refusing them would refuse valid invoices.
const NEWER_CURRENCIES = ["XCG"];
const NEWER_ICD = ["0245", "0246", "0247", "0248"];
const NEWER_EAS = ["0219", "0220", "0242", "0245", "0246", "0248"];

const lists: [name: string, doc: string, codes: string[]][] = [
  [
    "CURRENCIES",
    "ISO 4217 alpha-3 currency codes (BT-5, BT-6, currencyID): the 2012 schema's, factur-x-kit's newer ones, and XCG",
    [...enumeration("codelist/standard/ISO_ISO3AlphaCurrencyCode_2012-08-31.xsd"), ...Object.values(CURRENCY_CODES), ...NEWER_CURRENCIES],
  ],
  [
    "COUNTRIES",
    "ISO 3166-1 alpha-2 country codes (BT-40, BT-55, BT-69, BT-80, BT-159), plus 1A (Kosovo) and XI (Northern Ireland), which EN 16931 accepts too",
    [...enumeration("identifierlist/standard/ISO_ISOTwo-letterCountryCode_SecondEdition2006.xsd"), "1A", "XI"],
  ],
  [
    "DOCUMENT_TYPES",
    "UNTDID 1001 document name codes EN 16931 allows for invoices and credit notes (BT-3), from factur-x-kit",
    Object.values(DOCUMENT_TYPE_CODES),
  ],
  [
    "VAT_CATEGORIES",
    "UNTDID 5305 VAT category codes EN 16931 allows (BT-95, BT-102, BT-118, BT-151): factur-x-kit's, and B (split payment) from the schema",
    [...Object.values(TAX_CATEGORY_CODES), ...only(enumeration("codelist/standard/UNECE_DutyorTaxorFeeCategoryCode_D16A.xsd"), ["B"])],
  ],
  ["PAYMENT_MEANS", "UNTDID 4461 payment means codes (BT-81), from factur-x-kit", Object.values(PAYMENT_MEANS_CODES)],
  ["UNITS", "UN/ECE Recommendation 20 and 21 unit codes (BT-130, BT-150), from factur-x-kit", Object.values(UNIT_CODES)],
  [
    "ICD",
    "ISO 6523 ICD identifier schemes (BT-29, BT-30, BT-46, BT-47, BT-60, BT-61, BT-71, BT-157), from factur-x-kit",
    [...Object.values(ISO6523_CODES), ...NEWER_ICD],
  ],
  ["EAS", "CEF EAS electronic address schemes (BT-34, BT-49), from factur-x-kit", [...Object.values(EAS_SCHEME_CODES), ...NEWER_EAS]],
  ["ITEM_CLASSIFICATIONS", "UNTDID 7143 item type identification codes (BT-158 scheme), from factur-x-kit", Object.values(UNTDID_7143)],
  ["NOTE_SUBJECTS", "UNTDID 4451 text subject codes (BT-21), from factur-x-kit", Object.values(SUBJECT_CODES)],
  ["EXEMPTION_REASONS", "VATEX exemption reason codes (BT-121), from factur-x-kit", Object.values(EXEMPTION_REASON_CODES)],
];

/** The children of a UBL document's root, in the schema's order: name, minOccurs, maxOccurs (0: unbounded). */
function rootSequence(file: string): [string, number, number][] {
  const text = readFileSync(join(shared, "xsd", "ubl", "maindoc", file), "utf8");
  return [...text.matchAll(/<xsd:element ref="\w+:(\w+)"\s+minOccurs="(\d+)"\s+maxOccurs="(\d+|unbounded)"/g)].map((m) => [
    m[1]!,
    Number(m[2]),
    m[3] === "unbounded" ? 0 : Number(m[3]),
  ]);
}

const sequences = [
  ["UBL_INVOICE_ROOT", "UBL-Invoice-2.1.xsd"],
  ["UBL_CREDIT_NOTE_ROOT", "UBL-CreditNote-2.1.xsd"],
]
  .map(
    ([name, file]) =>
      `/** The children of the root of ${file}, in order: [name, minOccurs, maxOccurs (0: unbounded)]. */\nexport const ${name}: readonly (readonly [string, number, number])[] = ${JSON.stringify(rootSequence(file!))};`,
  )
  .join("\n\n");

/**
 * The UBL 2.1 aggregates (cac:*): each element's type, and each type's children in the schema's order,
 * from UBL-CommonAggregateComponents-2.1.xsd, for the structure check of rules/ubl-structure.ts.
 */
function ublAggregates(): { types: Record<string, [string, number, number][]>; elements: Record<string, string> } {
  const text = readFileSync(join(shared, "xsd", "ubl", "common", "UBL-CommonAggregateComponents-2.1.xsd"), "utf8");
  const elements: Record<string, string> = {};
  for (const m of text.matchAll(/<xsd:element name="(\w+)" type="(\w+)"\/>/g)) elements[m[1]!] = m[2]!;
  const types: Record<string, [string, number, number][]> = {};
  for (const m of text.matchAll(/<xsd:complexType name="(\w+)">([\s\S]*?)<\/xsd:complexType>/g)) {
    types[m[1]!] = [...m[2]!.matchAll(/<xsd:element ref="(\w+:\w+)"\s+minOccurs="(\d+)"\s+maxOccurs="(\d+|unbounded)"/g)].map((e) => [
      e[1]!,
      Number(e[2]),
      e[3] === "unbounded" ? 0 : Number(e[3]),
    ]);
  }
  return { types, elements };
}

/** The CII D16B aggregate types: each type's children in order, [name, type, minOccurs, maxOccurs (0: unbounded)]. */
function ciiTypes(): Record<string, [string, string, number, number][]> {
  const dir = join(xsd, "data", "standard");
  const types: Record<string, [string, string, number, number][]> = {};
  for (const file of [
    "CrossIndustryInvoice_100pD16B.xsd",
    "CrossIndustryInvoice_ReusableAggregateBusinessInformationEntity_100pD16B.xsd",
  ]) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const m of text.matchAll(/<xsd:complexType name="(\w+)">\s*<xsd:sequence>([\s\S]*?)<\/xsd:sequence>/g)) {
      types[m[1]!] = [...m[2]!.matchAll(/<xsd:element name="(\w+)" type="(\w+:\w+)"([^/]*)\/>/g)].map((e) => {
        const min = /minOccurs="(\d+)"/.exec(e[3]!)?.[1] ?? "1";
        const max = /maxOccurs="(\d+|unbounded)"/.exec(e[3]!)?.[1] ?? "1";
        return [e[1]!, e[2]!, Number(min), max === "unbounded" ? 0 : Number(max)];
      });
    }
  }
  return types;
}

const body = lists
  .map(
    ([name, doc, codes]) =>
      `/** ${doc}: ${codes.length} codes. */\nexport const ${name}: ReadonlySet<string> = new Set(${JSON.stringify([...new Set(codes)].sort())});`,
  )
  .join("\n\n");
const cii = ciiTypes();
writeFileSync(
  join(root, "src", "einvoice", "cii-schema.ts"),
  `// GENERATED by scripts/gen-einvoice-codes.ts from the CII D16B schema in shared/einvoice/xsd: do not edit
// by hand. The structure of CII's aggregate types, which rules/cii-structure.ts checks.
/* biome-ignore-all format: generated */

/** Each aggregate type's children, in order: [name, prefix:type, minOccurs, maxOccurs (0: unbounded)]. */
export const CII_TYPE_CHILDREN: Readonly<Record<string, readonly (readonly [string, string, number, number])[]>> = ${JSON.stringify(cii)};
`,
);
const ubl = ublAggregates();
writeFileSync(
  join(root, "src", "einvoice", "ubl-schema.ts"),
  `// GENERATED by scripts/gen-einvoice-codes.ts from UBL-CommonAggregateComponents-2.1.xsd in shared/einvoice/xsd:
// do not edit by hand. The structure of UBL 2.1's aggregates, which rules/ubl-structure.ts checks.
/* biome-ignore-all format: generated */

/** Each cac: element's type. */
export const UBL_ELEMENT_TYPES: Readonly<Record<string, string>> = ${JSON.stringify(ubl.elements)};

/** Each aggregate type's children, in order: [prefix:name, minOccurs, maxOccurs (0: unbounded)]. */
export const UBL_TYPE_CHILDREN: Readonly<Record<string, readonly (readonly [string, number, number])[]>> = ${JSON.stringify(ubl.types)};
`,
);
writeFileSync(
  join(root, "src", "einvoice", "code-lists.ts"),
  `// GENERATED by scripts/gen-einvoice-codes.ts from the UN/CEFACT code-list schemas in shared/einvoice/xsd and factur-x-kit:
// do not edit by hand, run \`bun scripts/gen-einvoice-codes.ts\`. The code lists are facts the e-invoice
// rules (rules/code-lists.ts) check values against; the UBL root sequences are what rules/syntax.ts
// checks of the UBL schema.
/* biome-ignore-all format: generated */

${body}

${sequences}
`,
);
