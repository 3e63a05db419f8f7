// Pixels of an 8-bit RGB or RGBA PNG (what pdftoppm writes), for comparing pictures in tests: the
// PNG format's own decoding (zlib, then the five row filters), so the product's code plays no part.
import { inflateSync } from "node:zlib";

export interface Pixels {
  width: number;
  height: number;
  /** Samples per pixel: 3 (RGB) or 4 (RGBA). */
  channels: number;
  data: Uint8Array;
}

export function pngPixels(png: Uint8Array): Pixels {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let i = 8; i < png.length; ) {
    const len = v.getUint32(i);
    const type = String.fromCharCode(...png.subarray(i + 4, i + 8));
    const body = png.subarray(i + 8, i + 8 + len);
    if (type === "IHDR") {
      width = v.getUint32(i + 8);
      height = v.getUint32(i + 12);
      if (body[8] !== 8) throw new Error("only 8-bit PNGs");
      channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[body[9]!]!;
    } else if (type === "IDAT") idat.push(body);
    i += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const data = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? data[y * stride + x - channels]! : 0;
      const b = y ? data[(y - 1) * stride + x]! : 0;
      const c = y && x >= channels ? data[(y - 1) * stride + x - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predict = [0, a, b, (a + b) >> 1, paeth][filter]!;
      data[y * stride + x] = (row[x]! + predict) & 0xff;
    }
  }
  return { width, height, channels, data };
}

/** The mean absolute difference per channel of two pictures of one size, as a share of 255. */
export function meanAbsDiff(a: Pixels, b: Pixels): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`sizes differ: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  let sum = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n; i++) for (let ch = 0; ch < 3; ch++) sum += Math.abs(a.data[i * a.channels + ch]! - b.data[i * b.channels + ch]!);
  return sum / (n * 3) / 255;
}
