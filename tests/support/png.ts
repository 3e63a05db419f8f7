// Small PNGs made in code (no fixture files), for tests and the asset cost script: an RGB PNG of any
// size, and a logo of about the size asked for (noise compresses badly, so the byte count follows the pixel count).
import { deflateSync } from "node:zlib";
import { rgbPng } from "../../src/lib/png";

/** A width x height RGB PNG whose pixels `rgb` decides. */
export function png(width: number, height: number, rgb: (x: number, y: number) => [number, number, number]): Uint8Array<ArrayBuffer> {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) raw.set(rgb(x, y), row + 1 + x * 3);
  }
  return rgbPng(width, height, deflateSync(raw));
}

/** A noisy logo PNG of roughly `bytes` bytes (deterministic). */
export function logoPng(bytes = 50 * 1024): Uint8Array<ArrayBuffer> {
  const side = Math.round(Math.sqrt(bytes / 3));
  let s = 42;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) >>> 16) & 0xff;
  return png(side, side, () => [rnd(), rnd(), rnd()]);
}
