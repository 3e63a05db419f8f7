// The few DER encodings a CMS signature needs (X.690): a tag with its length, and the universal types
// the SignedData holds. Written by hand because the CMS is the same structure every time, and building
// it with PKI.js objects cost ~2.8 ms of CPU per signature, four times the RSA operation itself.

/** A tag-length-value with `content` (definite length, short form below 128 bytes). */
export function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  const n = content.reduce((s, c) => s + c.byteLength, 0);
  const len: number[] = [];
  if (n < 0x80) len.push(n);
  else {
    for (let v = n; v > 0; v = Math.floor(v / 256)) len.unshift(v & 0xff);
    len.unshift(0x80 | len.length);
  }
  const out = new Uint8Array(1 + len.length + n);
  out[0] = tag;
  out.set(len, 1);
  let at = 1 + len.length;
  for (const c of content) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export const TAG = {
  integer: 0x02,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  sequence: 0x30,
  set: 0x31,
  /** [0] and [1], constructed (CMS's EXPLICIT and IMPLICIT SET OF fields). */
  context0: 0xa0,
  context1: 0xa1,
} as const;

export const sequence = (...c: Uint8Array[]) => tlv(TAG.sequence, ...c);
export const set = (...c: Uint8Array[]) => tlv(TAG.set, ...c);
export const octetString = (b: Uint8Array) => tlv(TAG.octetString, b);
export const NULL = tlv(TAG.null);

/** A small non-negative INTEGER. */
export const smallInteger = (v: number) => tlv(TAG.integer, new Uint8Array([v]));

/** An unsigned big-endian number as an INTEGER: leading zeros dropped, a zero added before a high bit. */
export function unsignedInteger(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const v = bytes.subarray(i);
  return (v[0]! & 0x80) !== 0 ? tlv(TAG.integer, new Uint8Array([0]), v) : tlv(TAG.integer, v);
}

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Uint8Array {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes: number[] = [a! * 40 + b!];
  for (const n of rest) {
    const sub: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) sub.unshift(0x80 | (v & 0x7f));
    bytes.push(...sub);
  }
  return tlv(TAG.oid, new Uint8Array(bytes));
}

/** The start, header length and total length of the element at `at` in `der`. */
function element(der: Uint8Array, at: number): { header: number; end: number } {
  const first = der[at + 1]!;
  if (first < 0x80) return { header: 2, end: at + 2 + first };
  let n = 0;
  for (let i = 0; i < (first & 0x7f); i++) n = n * 256 + der[at + 2 + i]!;
  const header = 2 + (first & 0x7f);
  return { header, end: at + header + n };
}

/** The DER children of the constructed element at `at`. */
export function children(der: Uint8Array, at = 0): Uint8Array[] {
  const { header, end } = element(der, at);
  const out: Uint8Array[] = [];
  for (let i = at + header; i < end; ) {
    const next = element(der, i).end;
    out.push(der.subarray(i, next));
    i = next;
  }
  return out;
}
