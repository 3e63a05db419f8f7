// Filling a signature placeholder in place: the ByteRange becomes the offsets around /Contents' hex
// string (written over the placeholder, padded to its width, so no other byte moves), and the CMS is
// written into the hex string. What is signed is the file with that hex string (and only it) left out.

/** Where the signature goes in a file written with a placeholder (placeholder.ts). */
export interface SignatureSlot {
  /** The ByteRange array, "[" to "]". */
  rangeStart: number;
  rangeEnd: number;
  /** The hex string of /Contents, "<" to ">" inclusive. */
  contentsStart: number;
  contentsEnd: number;
}

const RANGE_RE = /\/ByteRange\s*(\[\s*0\s+9999999999\s+9999999999\s+9999999999\s*\])/g;

/** The slot of the one placeholder in `pdf`; throws when there is none, or more than one. */
export function findSlot(pdf: Uint8Array, contentsBytes: number): SignatureSlot {
  const latin = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1");
  const ranges = [...latin.matchAll(RANGE_RE)];
  if (ranges.length !== 1) throw new Error(`the signature placeholder's ByteRange was found ${ranges.length} times`);
  const r = ranges[0]!;
  const rangeStart = r.index + r[0].length - r[1]!.length;
  const hex = `<${"0".repeat(contentsBytes * 2)}>`;
  const contentsStart = latin.indexOf(hex);
  if (contentsStart < 0 || latin.indexOf(hex, contentsStart + 1) >= 0)
    throw new Error("the signature placeholder's /Contents was not found once");
  return { rangeStart, rangeEnd: rangeStart + r[1]!.length, contentsStart, contentsEnd: contentsStart + hex.length };
}

/** The ByteRange of a slot in a file of `size` bytes. */
export function byteRange(slot: SignatureSlot, size: number): [number, number, number, number] {
  return [0, slot.contentsStart, slot.contentsEnd, size - slot.contentsEnd];
}

/**
 * Writes the ByteRange into `pdf` and returns the two parts it covers (views of `pdf`: take the
 * digest before writing the signature).
 */
export function writeByteRange(pdf: Uint8Array, slot: SignatureSlot): Uint8Array[] {
  const range = byteRange(slot, pdf.byteLength);
  const width = slot.rangeEnd - slot.rangeStart;
  const text = `[${range.join(" ")}]`.padEnd(width, " ");
  if (text.length !== width) throw new Error("the ByteRange does not fit its placeholder");
  pdf.set(Buffer.from(text, "latin1"), slot.rangeStart);
  return [pdf.subarray(0, range[1]), pdf.subarray(range[2])];
}

/** Writes the DER CMS into the slot's hex string (the rest stays zeros). */
export function writeContents(pdf: Uint8Array, slot: SignatureSlot, cms: Uint8Array): void {
  const room = (slot.contentsEnd - slot.contentsStart - 2) / 2;
  if (cms.byteLength > room) throw new Error(`the signature (${cms.byteLength} bytes) is larger than the room kept for it (${room})`);
  pdf.set(Buffer.from(Buffer.from(cms).toString("hex"), "latin1"), slot.contentsStart + 1);
}
