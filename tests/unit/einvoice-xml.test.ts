// The untrusted-XML reader (src/einvoice/xml.ts): well-formed documents become an element tree with
// XPath locations; hostile ones are refused at once with a typed XmlRejected.
import { expect, test } from "bun:test";
import { parseXml, XML_LIMITS, XmlRejected } from "../../src/einvoice/xml";

const rejected = (input: string | Uint8Array, limits = XML_LIMITS): XmlRejected => {
  try {
    parseXml(input, limits);
  } catch (e) {
    if (e instanceof XmlRejected) return e;
    throw e;
  }
  throw new Error("not rejected");
};

test("a document becomes a tree with namespaces, text, attributes and XPath locations", () => {
  const root = parseXml(
    '<?xml version="1.0" encoding="UTF-8"?><a:r xmlns:a="urn:a"><a:x k="v">1 &amp; 2</a:x><a:x><![CDATA[<3>]]></a:x></a:r>',
  );
  expect(root).toMatchObject({ ns: "urn:a", local: "r", xpath: "/a:r[1]" });
  expect(root.children.map((c) => [c.text, c.xpath, c.attrs])).toEqual([
    ["1 & 2", "/a:r[1]/a:x[1]", { k: "v" }],
    ["<3>", "/a:r[1]/a:x[2]", {}],
  ]);
});

test.each([
  { name: "a DOCTYPE", input: '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>', kind: "doctype" },
  { name: "an entity that is not predefined", input: "<r>&lol;</r>", kind: "not_xml" },
  { name: "an external entity (XXE)", input: '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>', kind: "doctype" },
  { name: "200,000 nested elements", input: `${"<a>".repeat(200_000)}${"</a>".repeat(200_000)}`, kind: "too_deep" },
  { name: "a 3 MB attribute", input: `<r a="${"x".repeat(3 * 1024 * 1024)}"/>`, kind: "attribute_too_long" },
  { name: "a JSON body", input: '{"invoice": 1}', kind: "not_xml" },
  { name: "not well-formed", input: "<r><a></r>", kind: "not_xml" },
  { name: "an undeclared prefix", input: "<p:r/>", kind: "not_xml" },
  { name: "a declared encoding other than UTF-8", input: '<?xml version="1.0" encoding="ISO-8859-1"?><r/>', kind: "not_utf8" },
  { name: "bytes that are not UTF-8", input: new Uint8Array([0x3c, 0x72, 0x3e, 0xff, 0x3c, 0x2f, 0x72, 0x3e]), kind: "not_utf8" },
] as const)("$name is refused quickly ($kind)", ({ input, kind }) => {
  const start = performance.now();
  expect(rejected(input).kind).toBe(kind);
  // Generous: these are refused in milliseconds; the bound only catches a super-linear blow-up.
  expect(performance.now() - start).toBeLessThan(5000);
});

test("a document over the size limit is refused before it is parsed", () => {
  const limits = { ...XML_LIMITS, maxBytes: 1000 };
  expect(rejected(`<r>${"x".repeat(2000)}</r>`, limits).kind).toBe("too_large");
  expect(rejected(new TextEncoder().encode(`<r>${"x".repeat(2000)}</r>`), limits).kind).toBe("too_large");
});
