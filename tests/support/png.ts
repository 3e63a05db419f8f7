// Small PNGs made in code (no fixture files), for tests and the asset cost script: an RGB PNG of any
// size, and a logo of about the size asked for (noise compresses badly, so the byte count follows the pixel count).
import { deflateSync } from "node:zlib";

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)) >>> 0);
  return out;
}

/** A width x height RGB PNG whose pixels `rgb` decides. */
export function png(width: number, height: number, rgb: (x: number, y: number) => [number, number, number]): Uint8Array<ArrayBuffer> {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) raw.set(rgb(x, y), row + 1 + x * 3);
  }
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

/** A noisy logo PNG of roughly `bytes` bytes (deterministic). */
export function logoPng(bytes = 50 * 1024): Uint8Array<ArrayBuffer> {
  const side = Math.round(Math.sqrt(bytes / 3));
  let s = 42;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) >>> 16) & 0xff;
  return png(side, side, () => [rnd(), rnd(), rnd()]);
}
