// Random identifiers and secrets.
import { randomBytes, randomUUID } from "node:crypto";

const base32 = "abcdefghijkmnpqrstuvwxyz23456789"; // no l, o, 0, 1: readable when copied by hand

/** A random lowercase id of `length` characters (5 bits each). */
export function randomId(length = 12): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += base32[bytes[i]! & 31];
  return out;
}

export const newUuid = () => randomUUID();

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** 256 bits of randomness, base64url. */
export const randomSecret = () => randomBytes(32).toString("base64url");

/** A UUID v7 (time-ordered) for `at`: audit events' ids sort with their time. */
export const uuidV7 = (at = Date.now()) => Bun.randomUUIDv7("hex", at);
