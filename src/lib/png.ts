// The PNG container (RFC 2083) for 8-bit RGB and grey pictures made in code: the rasteriser's pages and the
// tests' and benches' generated images share it. Compression is the caller's (zlib in the rasteriser's
// thread, in libuv's thread pool, or synchronously in a test).

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)) >>> 0);
  return out;
}

/** An 8-bit RGB PNG whose IDAT is `idat`: the zlib stream of its rows, each preceded by its filter type. */
export function rgbPng(width: number, height: number, idat: Uint8Array): Uint8Array<ArrayBuffer> {
  return png8(width, height, 3, idat);
}

/** An 8-bit PNG of `channels` samples a pixel, grey (1) or RGB (3), whose IDAT is `idat` (as rgbPng's). */
export function png8(width: number, height: number, channels: 1 | 3, idat: Uint8Array): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, channels === 3 ? 2 : 0, 0, 0, 0], 8); // 8 bits, RGB or grey, deflate, adaptive filtering, no interlace
  return new Uint8Array(Buffer.concat([SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array(0))]));
}

/**
 * The size and the zlib stream (its IDAT chunks joined) of an 8-bit RGB PNG without interlacing; undefined
 * for any other PNG (or none).
 */
export function rgbPngData(png: Uint8Array): { width: number; height: number; idat: Uint8Array } | undefined {
  if (png.length < 33 || !SIGNATURE.every((b, i) => png[i] === b)) return undefined;
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const idat: Uint8Array[] = [];
  let size: { width: number; height: number } | undefined;
  for (let at = 8; at + 12 <= png.length; ) {
    const length = v.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      // 8 bits, RGB, deflate, adaptive filtering, no interlace: what rgbPng writes.
      if (data[8] !== 8 || data[9] !== 2 || data[12] !== 0) return undefined;
      size = { width: v.getUint32(at + 8), height: v.getUint32(at + 12) };
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  return size && idat.length ? { ...size, idat: new Uint8Array(Buffer.concat(idat)) } : undefined;
}
