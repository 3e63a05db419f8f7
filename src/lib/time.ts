// Parsing of human durations and sizes used by settings ("7d", "1h30m", "10MB").

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "500ms", "30s", "5m", "1h30m", "7d" or a bare number of milliseconds. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  for (const m of s.matchAll(re)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched += m[0].length;
  }
  if (matched === 0 || matched !== s.length) throw new Error(`"${text}" is not a duration (use e.g. 500ms, 30s, 5m, 1h, 7d)`);
  return Math.round(total);
}

const sizeUnits: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Parses "512KB", "10MB", "1GB" (binary multiples) or a bare number of bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text);
  if (!m) throw new Error(`"${text}" is not a size (use e.g. 512KB, 10MB)`);
  return Math.round(Number(m[1]) * sizeUnits[(m[2] ?? "b").toLowerCase()]!);
}

/** RFC 3339 date-time (OpenAPI's "date-time" format), as toISOString() writes it and with offsets. */
export const RFC3339_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

// A listing formats the same timestamps on every request; new Date().toISOString() was a tenth of its
// CPU, a Map lookup is a tenth of that. Bounded: cleared when full.
const isoCache = new Map<number, string>();
const ISO_CACHE_MAX = 10_000;

/** Epoch milliseconds as an ISO 8601 UTC string; null stays null. */
export function iso(ms: number | null | undefined): string | null {
  if (ms == null) return null;
  let s = isoCache.get(ms);
  if (s === undefined) {
    if (isoCache.size >= ISO_CACHE_MAX) isoCache.clear();
    s = new Date(ms).toISOString();
    isoCache.set(ms, s);
  }
  return s;
}
