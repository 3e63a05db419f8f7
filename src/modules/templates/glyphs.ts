// Preflight (a): characters that no installed font can draw, which Chromium prints as empty boxes (tofu).
//
// The union of every font's character set comes from fontconfig itself (`fc-list --format '%{charset}'`),
// read with the same configuration Chromium renders with (FONTCONFIG_FILE: operator fonts included, CFF
// faces rejected), so a character counts as covered exactly when Chromium's fallback could find a face for
// it. Measured with Debian's fonts that scripts/setup installs: 311 faces, 168 KB of ranges, ~25 ms for fc-list in a shell and ~130 ms for the
// first call from Bun (spawn, read, merge); done once per process per fontconfig file and cached, then a
// character is a binary search over ~1,150 merged ranges (a 1,000-character text: under 1 ms).
import type { Warning } from "./model";

type Ranges = [number, number][];

/** By fontconfig file ("" for the system's): the fonts do not change while the process runs. */
const cached = new Map<string, Promise<Ranges | undefined>>();

/** Parses fc-list's charset lines ("20-7e a0-17f 192 …", hexadecimal) into sorted, merged ranges. */
export function parseCharsets(text: string): Ranges {
  const all: Ranges = [];
  for (const tok of text.split(/\s+/)) {
    if (!tok) continue;
    const [a, b] = tok.split("-");
    const lo = parseInt(a!, 16);
    const hi = b === undefined ? lo : parseInt(b, 16);
    if (Number.isFinite(lo) && Number.isFinite(hi)) all.push([lo, hi]);
  }
  all.sort((x, y) => x[0] - y[0]);
  const merged: Ranges = [];
  for (const r of all) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** The covered ranges, or undefined when fontconfig's fc-list cannot be run (the check is then skipped). */
export function coverage(fontconfigFile?: string): Promise<Ranges | undefined> {
  const hit = cached.get(fontconfigFile ?? "");
  if (hit) return hit;
  const p = (async () => {
    try {
      const child = Bun.spawn(["fc-list", "--format", "%{charset}\n"], {
        env: { ...process.env, ...(fontconfigFile ? { FONTCONFIG_FILE: fontconfigFile } : {}) },
        stdout: "pipe",
        stderr: "ignore",
      });
      const [text, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      const ranges = code === 0 ? parseCharsets(text) : [];
      return ranges.length ? ranges : undefined;
    } catch {
      return undefined;
    }
  })();
  cached.set(fontconfigFile ?? "", p);
  return p;
}

function covered(ranges: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (cp < r[0]) hi = mid - 1;
    else if (cp > r[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

// Never drawn as a glyph: controls, and default-ignorable code points (joiners, variation selectors, …).
const INVISIBLE = /[\p{Cc}\p{Default_Ignorable_Code_Point}]/u;

const codePoint = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

const MAX_LISTED = 50;

/** The missing_glyphs warning for these texts, or none when every visible character is covered. */
export function missingGlyphs(ranges: Ranges, texts: string[]): Warning[] {
  const missing = new Map<number, number>();
  for (const text of texts) {
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x80 || INVISIBLE.test(ch) || covered(ranges, cp)) continue;
      missing.set(cp, (missing.get(cp) ?? 0) + 1);
    }
  }
  if (missing.size === 0) return [];
  const chars = [...missing.entries()]
    .slice(0, MAX_LISTED)
    .map(([cp, count]) => ({ char: String.fromCodePoint(cp), code_point: codePoint(cp), count }));
  return [
    {
      code: "missing_glyphs",
      message: `${missing.size} character(s) are in no installed font and would print as empty boxes: ${chars
        .slice(0, 10)
        .map((c) => c.code_point)
        .join(", ")}${missing.size > 10 ? ", …" : ""}. Replace them, or ask the operator to add a font that has them (--fonts-dir)`,
      characters: chars,
    },
  ];
}

/** Every string in a JSON value (keys included: templates may print them), without recursion. */
export function stringsOf(value: unknown): string[] {
  const out: string[] = [];
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        stack.push(x);
      }
  }
  return out;
}
