// Untrusted XML (a customer's CII, an incoming e-invoice) read into a small element tree with saxes:
// a strict, namespace-aware XML 1.0 SAX parser that is maintained, has no dependencies but its
// character tables, never expands external or custom entities and never fetches anything. We chose it
// over DOM builders (@xmldom/xmldom) and object mappers (fast-xml-parser, xml2js) because it is strict
// (well-formedness and namespace errors are errors, not repairs) and because its events let us stop a
// hostile document at once: a DOCTYPE on sight, nesting at the depth limit, a huge attribute before
// the tree grows. Every refusal is an XmlRejected with a kind and a message a 4xx can carry.

import { SaxesParser, type SaxesTagNS } from "saxes";

/** The limits on untrusted XML. An EN 16931 invoice nests about 10 deep and has short attributes. */
export const XML_LIMITS = {
  /** The largest document accepted, in bytes (attachments travel base64-encoded inside it). */
  maxBytes: 10 * 1024 * 1024,
  /** The deepest element nesting accepted. */
  maxDepth: 64,
  /** The longest attribute value accepted, in characters. */
  maxAttributeLength: 4096,
  /** The most elements accepted in one document. */
  maxElements: 500_000,
};

/** Why a document was refused before it could be read. */
export type XmlRejection = "too_large" | "not_utf8" | "doctype" | "too_deep" | "attribute_too_long" | "too_many_elements" | "not_xml";

/** A document refused: not XML, or hostile. `kind` says which; the message says what and where. */
export class XmlRejected extends Error {
  constructor(
    readonly kind: XmlRejection,
    message: string,
  ) {
    super(message);
    this.name = "XmlRejected";
  }
}

/** An element of the parsed document. */
export interface XmlElement {
  ns: string;
  local: string;
  /** The name as written (prefix:local), for messages and XPath locations. */
  qname: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The text directly inside, entities decoded, CDATA included. */
  text: string;
  /** The XPath of this element: /rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocument[1]/ram:ID[1]. */
  xpath: string;
}

/** UTF-8 bytes (or a string) to text; a byte order mark is dropped. */
export function decodeXmlBytes(input: Uint8Array | string, limits = XML_LIMITS): string {
  if (typeof input === "string") {
    if (input.length > limits.maxBytes) throw tooLarge(limits);
    return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  }
  if (input.byteLength > limits.maxBytes) throw tooLarge(limits);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    throw new XmlRejected("not_utf8", "the document is not UTF-8 text: send the XML in UTF-8");
  }
}

const tooLarge = (limits: typeof XML_LIMITS) =>
  new XmlRejected("too_large", `the document is larger than ${limits.maxBytes / 1024 / 1024} MB`);

/**
 * Parses XML 1.0 with namespaces, strictly, into an element tree. Refuses (XmlRejected) a DOCTYPE,
 * any entity but the five predefined ones and character references, nesting deeper than the limit, an
 * over-long attribute, more elements than the limit, and anything that is not well-formed.
 */
export function parseXml(input: Uint8Array | string, limits = XML_LIMITS): XmlElement {
  const text = decodeXmlBytes(input, limits);
  if (!/^\s*</.test(text)) throw new XmlRejected("not_xml", "the document is not XML: it does not start with <");
  const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']/.exec(text);
  if (declared && !/^utf-?8$/i.test(declared[1]!)) {
    throw new XmlRejected("not_utf8", `the document declares encoding ${declared[1]}: send the XML in UTF-8`);
  }
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: { el: XmlElement; counts: Map<string, number> }[] = [];
  const top = { counts: new Map<string, number>() };
  let root: XmlElement | undefined;
  let elements = 0;
  const where = () => `line ${parser.line}`;

  parser.on("doctype", () => {
    throw new XmlRejected("doctype", `${where()}: a DOCTYPE is not accepted in an e-invoice (no DTDs, no entity declarations)`);
  });
  parser.on("opentag", (tag: SaxesTagNS) => {
    if (stack.length >= limits.maxDepth) {
      throw new XmlRejected("too_deep", `${where()}: elements nest deeper than ${limits.maxDepth} levels`);
    }
    if (++elements > limits.maxElements) {
      throw new XmlRejected("too_many_elements", `${where()}: more than ${limits.maxElements} elements`);
    }
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (a.value.length > limits.maxAttributeLength) {
        throw new XmlRejected(
          "attribute_too_long",
          `${where()}: attribute ${a.name} is longer than ${limits.maxAttributeLength} characters`,
        );
      }
      if (a.prefix !== "xmlns" && a.name !== "xmlns") attrs[a.local] = a.value;
    }
    const parent = stack[stack.length - 1];
    const counts = parent?.counts ?? top.counts;
    const n = (counts.get(tag.name) ?? 0) + 1;
    counts.set(tag.name, n);
    const el: XmlElement = {
      ns: tag.uri,
      local: tag.local,
      qname: tag.name,
      attrs,
      children: [],
      text: "",
      xpath: `${parent?.el.xpath ?? ""}/${tag.name}[${n}]`,
    };
    if (parent) parent.el.children.push(el);
    else root = el;
    stack.push({ el, counts: new Map() });
  });
  parser.on("text", (t: string) => {
    const cur = stack[stack.length - 1];
    if (cur) cur.el.text += t;
  });
  parser.on("cdata", (t: string) => {
    const cur = stack[stack.length - 1];
    if (cur) cur.el.text += t;
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.on("error", (e: Error) => {
    throw new XmlRejected("not_xml", `the document is not well-formed XML: ${e.message}`);
  });
  // A long attribute is refused only when its tag ends; bound the work before that by the size limit.
  parser.write(text).close();
  if (!root) throw new XmlRejected("not_xml", "the document has no root element");
  return root;
}

/** The first child of `el` with this local name (in any namespace: each syntax's readers check the root's). */
export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (c.local === local) return c;
  return undefined;
}

/** All children of `el` with this local name. */
export function children(el: XmlElement | undefined, local: string): XmlElement[] {
  return el ? el.children.filter((c) => c.local === local) : [];
}

/** The element along a path of local names, first match at each step. */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let cur = el;
  for (const n of names) cur = child(cur, n);
  return cur;
}
