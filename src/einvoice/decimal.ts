// Exact decimal arithmetic for invoice amounts: fixed-point BigInts, never binary floating point.
// 0.1 + 0.2 is 0.30000000000000004 in a double, and an invoice total that is one cent off fails
// EN 16931's BR-CO rules, so every figure is parsed from its decimal text and computed in integers.

/** A decimal value scaled by 10^SCALE. */
export type Dec = bigint;

/** Digits after the point kept internally: a quantity (6) times a price (6) is still exact. */
const SCALE = 12;
const ONE = 10n ** BigInt(SCALE);

export const ZERO: Dec = 0n;

const DECIMAL_RE = /^(-?)(\d{1,18})(?:\.(\d{1,12}))?$/;

/**
 * A decimal from the JSON input: a string such as "19.99" or a JSON number. A number is read by its
 * shortest round-trip text (String(19.99) is "19.99"), which is the decimal the client wrote, and is
 * never computed with as a double. Undefined when it is no plain decimal (exponent, NaN, too long).
 */
export function parseDec(v: string | number): { value: Dec; decimals: number } | undefined {
  const text = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v;
  const m = DECIMAL_RE.exec(text);
  if (!m) return undefined;
  const frac = m[3] ?? "";
  const abs = BigInt(m[2]!) * ONE + (frac ? BigInt(frac.padEnd(SCALE, "0")) : 0n);
  return { value: m[1] ? -abs : abs, decimals: frac.length };
}

/** n / d rounded half away from zero (commercial rounding, as EN 16931's examples round). */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= (d < 0n ? -d : d)) return q + (n < 0n !== d < 0n ? -1n : 1n);
  return q;
}

export const mul = (a: Dec, b: Dec): Dec => divRound(a * b, ONE);
export const div = (a: Dec, b: Dec): Dec => divRound(a * ONE, b);
export const sum = (values: Iterable<Dec>): Dec => {
  let s = 0n;
  for (const v of values) s += v;
  return s;
};

/** Rounded to `places` decimals, half away from zero. */
export function round(a: Dec, places = 2): Dec {
  const unit = 10n ** BigInt(SCALE - places);
  return divRound(a, unit) * unit;
}

/** A whole number as a Dec. */
export const int = (n: number | bigint): Dec => BigInt(n) * ONE;

/** The decimal text: at least `minPlaces` decimals (amounts: 2), trailing zeros beyond them dropped. */
export function format(a: Dec, minPlaces = 0): string {
  const neg = a < 0n;
  const abs = neg ? -a : a;
  const whole = abs / ONE;
  let frac = (abs % ONE).toString().padStart(SCALE, "0").replace(/0+$/, "");
  if (frac.length < minPlaces) frac = frac.padEnd(minPlaces, "0");
  return `${neg && abs !== 0n ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}
