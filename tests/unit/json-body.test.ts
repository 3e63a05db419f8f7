// src/http/json-body.ts: the offset finder agrees with simdutf's validation (Buffer's isUtf8) on every
// kind of byte string, and lone surrogate escapes are told from pairs and from escaped backslashes.
// What the strict parse costs: scripts/json-body-bench.ts.
import { describe, expect, test } from "bun:test";
import { isUtf8 } from "node:buffer";
import { invalidUtf8At, parseJsonBody } from "../../src/http/json-body";

/** A small seeded generator (mulberry32): the same bytes on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe("invalidUtf8At", () => {
  test("finds no fault in UTF-8, and the first one exactly where a prefix stops being UTF-8", () => {
    const next = random(49);
    // Mostly well-formed text with a few bytes of every kind (lead bytes, continuations, F5-FF) mixed in.
    const pieces = ["a", "é", "€", "😀", "\u0000", "\uffff"].map((s) => [...Buffer.from(s)]);
    for (let round = 0; round < 5000; round++) {
      const b: number[] = [];
      const length = Math.floor(next() * 12);
      for (let i = 0; i < length; i++) {
        if (next() < 0.15) b.push(Math.floor(next() * 256));
        else b.push(...pieces[Math.floor(next() * pieces.length)]!);
      }
      const bytes = new Uint8Array(b);
      const at = invalidUtf8At(bytes);
      expect({ bytes: b, valid: at === -1 }).toEqual({ bytes: b, valid: isUtf8(bytes) });
      if (at >= 0) {
        // Everything before the fault is UTF-8, and no longer prefix is.
        expect(isUtf8(bytes.subarray(0, at))).toBe(true);
        for (let end = at + 1; end <= Math.min(bytes.length, at + 4); end++) expect(isUtf8(bytes.subarray(0, end))).toBe(false);
      }
    }
  });
});

describe("parseJsonBody", () => {
  test("parses what JSON.parse parses, and names the offset of a lone surrogate after multi-byte text", () => {
    expect(parseJsonBody(Buffer.from('{"a":"é😀","\\ud83d\\ude00":[1,2]}'))).toEqual({ a: "é😀", "😀": [1, 2] });
    expect(() => parseJsonBody(Buffer.from('{"a":"é😀\\ud800"}'))).toThrow("at byte 12");
    expect(() => parseJsonBody(Buffer.from("{"))).toThrow("not valid JSON");
  });

  test("a pair is whole only when its low half follows at once; a run of backslashes decides what is an escape", () => {
    const lone = (json: string) => {
      try {
        parseJsonBody(Buffer.from(json));
        return undefined;
      } catch (e) {
        return (e as { details: { byte_offset: number } }).details.byte_offset;
      }
    };
    expect(lone('["\\ud83d\\ude00"]')).toBeUndefined();
    expect(lone('["\\\\ud800", "\\\\\\\\udc00"]')).toBeUndefined(); // "\\ud800", "\\\\udc00": text, not escapes
    expect(lone('["\\\\\\ud800"]')).toBe(4); // "\\\ud800": a backslash, then the escape
    expect(lone('["\\ud83d", "\\ude00"]')).toBe(2); // halves in two strings
    expect(lone('["\\ud83d\\ude00\\ude00"]')).toBe(14); // a pair, then a low half
    expect(lone('["\\ud83d\\n\\ude00"]')).toBe(2);
  });
});
