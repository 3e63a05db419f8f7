// Writing XML elements: a tree of nodes where an element with nothing in it vanishes on its own (so an
// optional group the invoice lacks is left out), serialised with every text and attribute escaped.
// Shared by the CII (cii.ts) and UBL (ubl.ts) writers.

// Characters XML 1.0 cannot carry at all: check.ts refuses them in the input; this is the last guard.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Text or an attribute value, escaped for XML: & < > " and ' (and CR, which a parser would fold). */
export function escapeXml(s: string): string {
  if (NOT_XML.test(s)) throw new Error("text with a control character XML cannot carry");
  return s.replace(/[&<>"'\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An element: name, attributes, and children (elements or text); undefined children are dropped. */
export interface Node {
  name: string;
  attrs?: Record<string, string | undefined>;
  children: (Node | string)[];
}
export type Child = Node | string | undefined | false;

/** An element, or undefined when it has no content (so optional groups vanish on their own). */
export function e(name: string, ...children: Child[]): Node | undefined {
  const kept = children.filter((c): c is Node | string => c !== undefined && c !== false);
  return kept.length > 0 ? { name, children: kept } : undefined;
}
/** An element with attributes; undefined when its text is undefined. */
export function ea(name: string, attrs: Record<string, string | undefined>, text: string | undefined): Node | undefined {
  return text === undefined ? undefined : { name, attrs, children: [text] };
}
/** An element that is always written, even empty. */
export const always = (name: string, ...children: Child[]): Node => e(name, ...children) ?? { name, children: [] };

export function serialize(n: Node, indent: string, out: string[]) {
  const attrs = Object.entries(n.attrs ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(v!)}"`)
    .join("");
  if (n.children.length === 0) {
    out.push(`${indent}<${n.name}${attrs}/>`);
  } else if (n.children.every((c) => typeof c === "string")) {
    out.push(`${indent}<${n.name}${attrs}>${n.children.map((c) => escapeXml(c as string)).join("")}</${n.name}>`);
  } else {
    out.push(`${indent}<${n.name}${attrs}>`);
    for (const c of n.children) {
      if (typeof c === "string") out.push(`${indent}  ${escapeXml(c)}`);
      else serialize(c, `${indent}  `, out);
    }
    out.push(`${indent}</${n.name}>`);
  }
}

/** The XML text of a document: the declaration, then the root with its namespace declarations. */
export function xmlDocument(root: Node, namespaces: Record<string, string>): string {
  root.attrs = { ...namespaces, ...root.attrs };
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serialize(root, "", out);
  return `${out.join("\n")}\n`;
}
