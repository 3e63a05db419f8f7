// Reading real PDFs with poppler: fonts (pdffonts), text of one page (pdftotext), pixels (pdftoppm).
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function withFile<T>(pdf: Uint8Array, f: (file: string) => T): T {
  const file = join(tmpdir(), `rg-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return f(file);
  } finally {
    rmSync(file, { force: true });
  }
}

function run(cmd: string[]): Buffer {
  const p = Bun.spawnSync(cmd);
  if (p.exitCode !== 0) throw new Error(`${cmd[0]} failed: ${p.stderr.toString()}`);
  return p.stdout;
}

export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
}

/** pdffonts' table: one row per font, e.g. { name: "AAAAAA+WenQuanYiMicroHei", type: "CID TrueType" }. */
export function pdfFonts(pdf: Uint8Array): PdfFont[] {
  const out = withFile(pdf, (f) => run(["pdffonts", f]).toString());
  return out
    .split("\n")
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      // name, type (may hold a space), encoding, then emb sub uni and the object id.
      const m = /^(\S+)\s+(.+?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(l);
      if (!m) throw new Error(`unexpected pdffonts line: ${l}`);
      return { name: m[1]!, type: m[2]!, embedded: m[4] === "yes" };
    });
}

/** pdfimages -list's table: one row per image drawn, with its page and pixel size. */
export function pdfImages(pdf: Uint8Array): { page: number; width: number; height: number; type: string }[] {
  const out = withFile(pdf, (f) => run(["pdfimages", "-list", f]).toString());
  return out
    .split("\n")
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const [page, , type, width, height] = l.trim().split(/\s+/);
      return { page: Number(page), type: type!, width: Number(width), height: Number(height) };
    });
}

/** The text of pages `first`..`last` in reading order (no -layout: lines as the PDF orders them). */
export function pageText(pdf: Uint8Array, first: number, last = first): string {
  return withFile(pdf, (f) => run(["pdftotext", "-f", String(first), "-l", String(last), f, "-"]).toString());
}

/** Page `page` (1 by default) rendered at `dpi` as RGB pixels (pdftoppm's PPM). */
export function renderPage(pdf: Uint8Array, dpi = 36, page = 1): { width: number; height: number; rgb: Uint8Array } {
  const ppm = withFile(pdf, (f) => run(["pdftoppm", "-r", String(dpi), "-f", String(page), "-l", String(page), f]));
  const m = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 50).toString("latin1"));
  if (!m) throw new Error("pdftoppm did not write a PPM");
  return { width: Number(m[1]), height: Number(m[2]), rgb: ppm.subarray(m[0].length) };
}

/** Pixels whose colour is clearly saturated (not black, white or grey): colour glyphs, not tofu boxes. */
export function colourfulPixels(img: { rgb: Uint8Array }): number {
  let n = 0;
  for (let i = 0; i + 2 < img.rgb.length; i += 3) {
    const r = img.rgb[i]!,
      g = img.rgb[i + 1]!,
      b = img.rgb[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 80) n++;
  }
  return n;
}

/** Words of page `n` with their boxes in points from the top left (pdftotext -bbox). */
export function pageWords(pdf: Uint8Array, n: number): { word: string; xMin: number; yMin: number; yMax: number }[] {
  const html = withFile(pdf, (f) => run(["pdftotext", "-bbox", "-f", String(n), "-l", String(n), f, "-"]).toString());
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    word: m[4]!,
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    yMax: Number(m[3]),
  }));
}

/** A 12 x 16 baseline JPEG (RGB), made with pdftoppm -jpeg: a stamp image for the tests. */
export const SMALL_JPEG_BASE64 =
  "/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAQAAwDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD01jgep9KFzgbutAX5ixOT/KloA//Z";

/** Each page's size in points from `pdfinfo -f 1 -l N`, e.g. [{ width: 595.28, height: 841.89 }]. */
export function pageSizes(pdf: Uint8Array): { width: number; height: number }[] {
  return withFile(pdf, (f) => {
    const pages = /^Pages:\s+(\d+)/m.exec(run(["pdfinfo", f]).toString())?.[1] ?? "1";
    const out = run(["pdfinfo", "-f", "1", "-l", pages, f]).toString();
    return Array.from(out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm), (m) => ({
      width: Number(m[1]),
      height: Number(m[2]),
    }));
  });
}

/** The text of page `n` with `pdftotext -layout`: boxes on one line stay apart, in their places. */
export function pageLayoutText(pdf: Uint8Array, n: number): string {
  return withFile(pdf, (f) => run(["pdftotext", "-layout", "-f", String(n), "-l", String(n), f, "-"]).toString());
}
