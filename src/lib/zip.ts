// A ZIP archive of stored (uncompressed) entries: what an image report of several pages is downloaded
// as. PNG, JPEG and WebP are compressed already, so deflating them again would cost CPU for nothing.
// The format is APPNOTE.TXT's: a local header and the bytes per entry, then the central directory.
// No ZIP64: an archive stays under 4 GB and 65,535 entries (a report's pages are far fewer).

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** The archive of `entries`, in their order, stored; names are UTF-8. */
export function storedZip(entries: ZipEntry[], date = new Date()): Uint8Array {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const crc = Bun.hash.crc32(e.data);
    // version needed 2.0; flag bit 11: the name is UTF-8; method 0: stored.
    const local = header(30, name, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, 0x0800, true);
      v.setUint16(10, time, true);
      v.setUint16(12, day, true);
      v.setUint32(14, crc, true);
      v.setUint32(18, e.data.length, true);
      v.setUint32(22, e.data.length, true);
      v.setUint16(26, name.length, true);
    });
    central.push(
      header(46, name, (v) => {
        v.setUint32(0, 0x02014b50, true);
        v.setUint16(4, 20, true);
        v.setUint16(6, 20, true);
        v.setUint16(8, 0x0800, true);
        v.setUint16(12, time, true);
        v.setUint16(14, day, true);
        v.setUint32(16, crc, true);
        v.setUint32(20, e.data.length, true);
        v.setUint32(24, e.data.length, true);
        v.setUint16(28, name.length, true);
        v.setUint32(42, offset, true);
      }),
    );
    chunks.push(local, e.data);
    offset += local.length + e.data.length;
  }
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, entries.length, true);
  v.setUint16(10, entries.length, true);
  v.setUint32(12, size, true);
  v.setUint32(16, offset, true);
  return Buffer.concat([...chunks, ...central, end]);
}

/** A header of `fixed` bytes, filled by `fill`, followed by the entry's name. */
function header(fixed: number, name: Uint8Array, fill: (v: DataView) => void): Uint8Array {
  const b = new Uint8Array(fixed + name.length);
  fill(new DataView(b.buffer));
  b.set(name, fixed);
  return b;
}

/** The bytes of the first entry of a storedZip() archive (an image report's page 1). */
export function firstStoredEntry(zip: Uint8Array): Uint8Array {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (v.getUint32(0, true) !== 0x04034b50 || v.getUint16(8, true) !== 0) throw new Error("not a ZIP whose first entry is stored");
  const start = 30 + v.getUint16(26, true) + v.getUint16(28, true);
  return zip.subarray(start, start + v.getUint32(18, true));
}
