// JSON request bodies, held to RFC 8259: the text must be UTF-8 (§8.1), and a string may not hold a
// lone surrogate escape ("\ud800" or "\udc00" without its other half: no character, §8.2). Decoding
// leniently would replace bad bytes with U+FFFD and print them; a lone surrogate would reach the
// template as a string no encoder can write back. Both are refused with 400 invalid_json, naming the
// byte where the body goes wrong. The API's parser (http/auth.ts) and the dashboard's (http/server.ts)
// both come here.
//
// The fast path costs what the lenient one did plus two scans at memory speed: simdutf's UTF-8 check
// (Buffer's isUtf8) before the same decode and JSON.parse, and a search of the bytes for "\ud" or "\uD".
// Only a body that fails, or holds such an escape (an emoji escaped as a pair), is looked at more
// closely to find where.
import { isUtf8 } from "node:buffer";
import { AppError, validationFailed } from "../lib/errors";

const decoder = new TextDecoder();
/** A \u escape of a UTF-16 surrogate, high (D800–DBFF) or low (DC00–DFFF); or the text "u…" after an escaped backslash. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;

/** The request's media type, lower case (matched case-insensitively, RFC 9110 §8.3.1). */
export const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
export const isJson = (request: Request) => mediaType(request) === "application/json";

/** Parses a request body as JSON; throws 400 invalid_json naming the byte offset of bad UTF-8 or a lone surrogate. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (!isUtf8(bytes)) throw notUtf8(bytes);
  const text = decoder.decode(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "the request body is not valid JSON; send a JSON object with Content-Type: application/json");
  }
  // Searched in the bytes (memchr speed): most bodies have no \u escape of a surrogate at all.
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (raw.includes("\\ud") || raw.includes("\\uD")) {
    const at = loneSurrogate(text);
    // The decoder drops a leading byte order mark: count its 3 bytes back in.
    if (at !== undefined) throw loneSurrogateError(text, at, raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf);
  }
  return value;
}

/**
 * Every JSON body of the API is an object of named fields: an array or a scalar is refused here, saying
 * so, before a route's schema would report the first field it misses (`[]` is not "missing html_template").
 */
export function jsonObject(value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  const sent = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
  throw validationFailed(`the body must be a JSON object ({"field": value, ...}), not ${sent}`, [
    { field: "(body)", problem: `must be a JSON object, not ${sent}` },
  ]);
}

/**
 * Where the first invalid UTF-8 sequence starts (RFC 3629 §4: no overlong forms, no surrogates, nothing
 * past U+10FFFF, no sequence cut short), or -1 when there is none.
 */
export function invalidUtf8At(b: Uint8Array): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const more = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (more === 0 || i + more >= n) return i;
    // The second byte's range is narrower after E0 (overlong), ED (surrogates), F0 (overlong) and F4 (> U+10FFFF).
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    const second = b[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= more; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return -1;
}

function notUtf8(bytes: Uint8Array): AppError {
  // Never -1 here (isUtf8 said no; tests/unit/json-body.test.ts holds the two to the same rules).
  const at = Math.max(invalidUtf8At(bytes), 0);
  const shown = Array.from(bytes.subarray(at, at + 4), (x) => x.toString(16).toUpperCase().padStart(2, "0")).join(" ");
  return new AppError(
    "invalid_json",
    `the request body is not UTF-8, which JSON requires (RFC 8259): no UTF-8 sequence starts at byte ${at} (counting from 0; the bytes there: ${shown}). ` +
      "Encode the body as UTF-8 (bytes like these usually come from a Latin-1 or Windows-1252 encoder), or write each non-ASCII character as a \\uXXXX escape",
    { byte_offset: at },
  );
}

/**
 * The index in `text` (a valid JSON text) of the first lone surrogate escape, if any. In valid JSON every
 * backslash starts an escape, so a match is an escape unless an odd run of backslashes precedes it (then
 * its backslash is the second half of "\\\\"). A high surrogate must be followed at once by a low one.
 */
function loneSurrogate(text: string): number | undefined {
  SURROGATE_ESCAPE.lastIndex = 0;
  for (let m = SURROGATE_ESCAPE.exec(text); m; m = SURROGATE_ESCAPE.exec(text)) {
    const at = m.index;
    let run = 0;
    while (at - run - 1 >= 0 && text.charCodeAt(at - run - 1) === BACKSLASH) run++;
    if (run % 2 === 1) continue; // not an escape: the text "u…" after an escaped backslash
    if (hexAt(text, at + 2) >= 0xdc) return at; // a low half not taken by a high one just before
    // After a complete escape, a backslash starts the next escape: it must be the low half.
    const low = at + 6;
    const lowUnit = text.charCodeAt(low) === BACKSLASH && text.charCodeAt(low + 1) === 0x75 /* u */ ? hexAt(text, low + 2) : -1;
    if (lowUnit < 0xdc || lowUnit > 0xdf) return at;
    SURROGATE_ESCAPE.lastIndex = low + 6; // the pair is whole: go on after its low half
  }
  return undefined;
}

const BACKSLASH = 0x5c;

/** The byte written as two hex digits at `at` (the escape's first half: D8–DF for a surrogate), or -1. */
function hexAt(text: string, at: number): number {
  const high = hexDigit(text.charCodeAt(at));
  const low = hexDigit(text.charCodeAt(at + 1));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

function loneSurrogateError(text: string, at: number, bomStripped: boolean): AppError {
  const offset = Buffer.byteLength(text.slice(0, at)) + (bomStripped ? 3 : 0);
  const written = text.slice(at, at + 6);
  return new AppError(
    "invalid_json",
    `the request body holds a lone surrogate escape, ${written}, at byte ${offset} (counting from 0): half of a UTF-16 pair is no character (RFC 8259 §8.2). ` +
      "Send the character itself in UTF-8, or both halves of its pair (a high \\uD800-\\uDBFF escape followed at once by a low \\uDC00-\\uDFFF one, e.g. \\ud83d\\ude00)",
    { byte_offset: offset },
  );
}
