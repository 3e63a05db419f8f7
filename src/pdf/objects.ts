// The few objects a post-print step needs, read straight from a file that ends with cross-reference
// tables, in the form qpdf's JSON v2 gives them: it saves the step a qpdf run. The sign step reads the
// trailer, the catalog, the page tree down to each page, an AcroForm and annotations held apart; the
// PDF/A step what it changes or looks at. Anything this reader does not expect (a cross-reference
// stream, an object stream, encryption, a syntax it does not know) makes it answer undefined, and the
// step asks qpdf instead.
import type { QpdfObject, QpdfObjects } from "./pdfa";
import { nameBytes, qpdfJsonName } from "./qpdf-name";
import type { QpdfPages } from "./signature/placeholder";

type Value = null | boolean | number | string | Value[] | { [k: string]: Value };

class Unexpected extends Error {}

const WS = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([..."()<>[]{}/%"].map((c) => c.charCodeAt(0)));

/** A reader of PDF syntax over the file's bytes, from a position. */
class Parser {
  constructor(
    private readonly b: Uint8Array,
    public pos: number,
  ) {}

  private skip(): void {
    for (;;) {
      while (this.pos < this.b.length && WS.has(this.b[this.pos]!)) this.pos++;
      if (this.b[this.pos] !== 0x25) return; // %
      while (this.pos < this.b.length && this.b[this.pos] !== 0x0a && this.b[this.pos] !== 0x0d) this.pos++;
    }
  }

  /** A run of regular characters (a number, a keyword). */
  word(): string {
    this.skip();
    const start = this.pos;
    while (this.pos < this.b.length && !WS.has(this.b[this.pos]!) && !DELIM.has(this.b[this.pos]!)) this.pos++;
    return Buffer.from(this.b.subarray(start, this.pos)).toString("latin1");
  }

  /** `N G obj` at the current position; the object's number and generation. */
  objectHeader(): [number, number] {
    const n = this.word();
    const g = this.word();
    if (!/^\d+$/.test(n) || !/^\d+$/.test(g) || this.word() !== "obj") throw new Unexpected("not an object");
    return [Number(n), Number(g)];
  }

  value(): Value {
    this.skip();
    const c = this.b[this.pos];
    if (c === 0x3c && this.b[this.pos + 1] === 0x3c) return this.dict();
    if (c === 0x3c) return this.hex();
    if (c === 0x28) return this.literal();
    if (c === 0x5b) {
      this.pos++;
      const items: Value[] = [];
      for (;;) {
        this.skip();
        if (this.b[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        if (this.pos >= this.b.length) throw new Unexpected("unterminated array");
        items.push(this.value());
      }
    }
    if (c === 0x2f) return this.name();
    const w = this.word();
    if (w === "true" || w === "false") return w === "true";
    if (w === "null") return null;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(w)) {
      // An indirect reference is two integers and R.
      if (/^\d+$/.test(w)) {
        const save = this.pos;
        const g = this.word();
        if (/^\d+$/.test(g) && this.word() === "R") return `${w} ${g} R`;
        this.pos = save;
      }
      return Number(w);
    }
    throw new Unexpected(`unexpected token ${w.slice(0, 20)}`);
  }

  private dict(): { [k: string]: Value } {
    this.pos += 2;
    const d: { [k: string]: Value } = {};
    for (;;) {
      this.skip();
      if (this.b[this.pos] === 0x3e && this.b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return d;
      }
      if (this.b[this.pos] !== 0x2f) throw new Unexpected("a dictionary key that is not a name");
      const key = this.name();
      d[key] = this.value();
    }
  }

  /** A name as qpdf's JSON shows it (qpdf-name.ts): /text#2fcsv is "/text/csv". */
  private name(): string {
    const start = ++this.pos;
    while (this.pos < this.b.length && !WS.has(this.b[this.pos]!) && !DELIM.has(this.b[this.pos]!)) this.pos++;
    return qpdfJsonName(nameBytes(this.b.subarray(start, this.pos)));
  }

  private hex(): string {
    const end = this.b.indexOf(0x3e, this.pos);
    if (end < 0) throw new Unexpected("unterminated hex string");
    let h = Buffer.from(this.b.subarray(this.pos + 1, end))
      .toString("latin1")
      .replace(/\s+/g, "");
    this.pos = end + 1;
    if (!/^[0-9a-fA-F]*$/.test(h)) throw new Unexpected("bad hex string");
    if (h.length % 2) h += "0";
    return `b:${h.toLowerCase()}`;
  }

  /** A literal string, its escapes resolved, as qpdf's binary form ("b:" and hex). */
  private literal(): string {
    const out: number[] = [];
    let depth = 0;
    this.pos++;
    for (;;) {
      if (this.pos >= this.b.length) throw new Unexpected("unterminated string");
      const c = this.b[this.pos++]!;
      if (c === 0x29 && depth === 0) break;
      if (c === 0x28) depth++;
      if (c === 0x29) depth--;
      if (c !== 0x5c) {
        out.push(c);
        continue;
      }
      const e = this.b[this.pos++]!;
      const simple: Record<number, number> = { 110: 0x0a, 114: 0x0d, 116: 0x09, 98: 0x08, 102: 0x0c, 40: 0x28, 41: 0x29, 92: 0x5c };
      if (e in simple) out.push(simple[e]!);
      else if (e >= 0x30 && e <= 0x37) {
        let v = e - 0x30;
        for (let i = 0; i < 2 && this.b[this.pos]! >= 0x30 && this.b[this.pos]! <= 0x37; i++) v = v * 8 + (this.b[this.pos++]! - 0x30);
        out.push(v & 0xff);
      } else if (e === 0x0d) {
        if (this.b[this.pos] === 0x0a) this.pos++;
      } else if (e !== 0x0a) out.push(e);
    }
    return `b:${Buffer.from(out).toString("hex")}`;
  }
}

/** Offsets of the objects by "N G R", from every cross-reference table of the file, the newest winning. */
function xrefTables(pdf: Uint8Array, start: number): { offsets: Map<string, number>; trailer: { [k: string]: Value } } {
  const offsets = new Map<string, number>();
  let trailer: { [k: string]: Value } | undefined;
  const seen = new Set<number>();
  for (let at: number | undefined = start; at !== undefined; ) {
    if (seen.has(at) || seen.size > 64) throw new Unexpected("a loop of cross-reference sections");
    seen.add(at);
    const p = new Parser(pdf, at);
    if (p.word() !== "xref") throw new Unexpected("not a cross-reference table");
    for (;;) {
      const first = p.word();
      if (first === "trailer") break;
      const count = Number(p.word());
      if (!/^\d+$/.test(first) || !Number.isInteger(count)) throw new Unexpected("a bad cross-reference subsection");
      for (let i = 0; i < count; i++) {
        const off = p.word();
        const gen = p.word();
        const kind = p.word();
        const ref = `${Number(first) + i} ${Number(gen)} R`;
        if (kind === "n" && !offsets.has(ref) && !offsets.has(`free:${Number(first) + i}`)) offsets.set(ref, Number(off));
        else if (kind === "f" && !offsets.has(ref)) offsets.set(`free:${Number(first) + i}`, 0);
      }
    }
    const t = new Parser(pdf, p.pos).value() as { [k: string]: Value };
    if ("/XRefStm" in t || "/Encrypt" in t) throw new Unexpected("a hybrid or encrypted file");
    trailer ??= t;
    at = typeof t["/Prev"] === "number" ? t["/Prev"] : undefined;
  }
  return { offsets, trailer: trailer! };
}

/** A reader of objects by reference over the file's cross-reference tables, keeping what it read in qpdf's JSON form. */
function objectReader(pdf: Uint8Array, xrefAt: number) {
  const { offsets, trailer } = xrefTables(pdf, xrefAt);
  const objects: Record<string, QpdfObject> = { trailer: { value: trailer } };
  const read = (ref: Value): Value => {
    if (typeof ref !== "string" || !/^\d+ \d+ R$/.test(ref)) return ref;
    const known = objects[`obj:${ref}`];
    if (known) return "value" in known ? (known.value as Value) : (known.stream.dict as Value);
    const at = offsets.get(ref);
    if (at === undefined) throw new Unexpected(`object ${ref} is not in the cross-reference tables`);
    const p = new Parser(pdf, at);
    const [n, g] = p.objectHeader();
    if (`${n} ${g} R` !== ref) throw new Unexpected(`object ${ref} is not where the table says`);
    const v = p.value();
    // A stream: its dictionary only, as qpdf's JSON shows a stream without its data.
    objects[`obj:${ref}`] = p.word() === "stream" ? { stream: { dict: v as Record<string, unknown> } } : { value: v };
    return v;
  };
  const max = () =>
    Math.max(Number(trailer["/Size"] ?? 1) - 1, ...[...offsets.keys()].map((k) => Number.parseInt(k.replace(/^free:/, ""), 10)));
  return { trailer, objects, read, max };
}

/** Calls `each` with every page object's reference, in order, reading the page tree. */
function walkPages(read: (ref: Value) => Value, root: Value, each: (ref: string, page: { [k: string]: Value }) => void): void {
  const walk = (ref: Value, depth: number) => {
    if (depth > 64) throw new Unexpected("a page tree too deep");
    if (typeof ref !== "string" || !ref.endsWith(" R")) throw new Unexpected("a page tree node that is not a reference");
    const node = read(ref) as { [k: string]: Value };
    if (node?.["/Type"] === "/Page" || !Array.isArray(node?.["/Kids"])) return each(ref, node);
    for (const kid of node["/Kids"] as Value[]) walk(kid, depth + 1);
  };
  walk(root, 0);
}

/**
 * The objects the signature needs, as `qpdf --json=2 --json-key=qpdf --json-key=pages` would show
 * them (only those), or undefined when the file is not one this reader handles.
 */
export function readForSigning(pdf: Uint8Array, xrefAt: number): { qpdf: QpdfObjects; pages: QpdfPages } | undefined {
  try {
    const { trailer, objects, read, max } = objectReader(pdf, xrefAt);
    const catalog = read(trailer["/Root"] ?? null) as { [k: string]: Value };
    if (!catalog || typeof catalog !== "object") throw new Unexpected("no catalog");
    const form = read(catalog["/AcroForm"] ?? null) as { [k: string]: Value } | null;
    if (form && typeof form === "object") read(form["/Fields"] ?? null);
    const pages: QpdfPages = [];
    walkPages(read, catalog["/Pages"] ?? null, (ref, page) => {
      pages.push({ object: ref });
      read(page?.["/Annots"] ?? null);
    });
    return { qpdf: [{ maxobjectid: max() }, objects], pages };
  } catch (e) {
    if (e instanceof Unexpected) return undefined;
    throw e;
  }
}

/**
 * The objects the PDF/A step changes or looks at (pdfa.ts): the trailer, the catalog, the Info
 * dictionary, the name trees' embedded files with their streams' dictionaries, the open action, and
 * every page's annotations; as qpdf's JSON shows them, or undefined when this reader does not handle
 * the file. It saves the PDF/A step its qpdf run that shows the objects (~9 ms of CPU, mostly qpdf's start).
 */
export function readForPdfa(pdf: Uint8Array, xrefAt: number): QpdfObjects | undefined {
  try {
    const { trailer, objects, read, max } = objectReader(pdf, xrefAt);
    const catalog = read(trailer["/Root"] ?? null) as { [k: string]: Value };
    if (!catalog || typeof catalog !== "object") throw new Unexpected("no catalog");
    read(trailer["/Info"] ?? null);
    read(catalog["/OpenAction"] ?? null);
    const names = read(catalog["/Names"] ?? null) as { [k: string]: Value } | null;
    const tree = (node: Value, depth: number) => {
      if (depth > 32) throw new Unexpected("a name tree too deep");
      const n = read(node) as { [k: string]: Value } | null;
      if (!n || typeof n !== "object") return;
      const flat = (n["/Names"] as Value[] | undefined) ?? [];
      for (let i = 1; i < flat.length; i += 2) {
        const spec = read(flat[i]!) as { [k: string]: Value } | null;
        const ef = spec?.["/EF"] as { [k: string]: Value } | undefined;
        if (ef) for (const f of Object.values(ef)) read(f);
      }
      for (const kid of (n["/Kids"] as Value[] | undefined) ?? []) tree(kid, depth + 1);
    };
    if (names && typeof names === "object") tree(names["/EmbeddedFiles"] ?? null, 0);
    walkPages(read, catalog["/Pages"] ?? null, (_, page) => {
      const annots = read(page?.["/Annots"] ?? null);
      if (Array.isArray(annots)) for (const a of annots) read(a);
    });
    return [{ maxobjectid: max() }, objects];
  } catch (e) {
    if (e instanceof Unexpected) return undefined;
    throw e;
  }
}

/** Where the last cross-reference section starts, when it is a table; undefined otherwise. */
export function lastXrefTable(pdf: Uint8Array): number | undefined {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.byteLength - 1024))).toString("latin1");
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!m) return undefined;
  const at = Number(m[1]);
  return Buffer.from(pdf.subarray(at, at + 4)).toString("latin1") === "xref" ? at : undefined;
}
