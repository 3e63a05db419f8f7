// Schema helpers for routes.
import { t } from "elysia";
import type { SchemaOptions, TLiteral, TSchema, TUnion } from "@sinclair/typebox";

/**
 * A union of string literals. Unlike t.UnionEnum, an optional field of this type stays absent when
 * omitted (Elysia fills an omitted optional UnionEnum with its first value).
 */
type Literals<T extends readonly string[]> = Extract<{ -readonly [K in keyof T]: TLiteral<T[K]> }, TSchema[]>;

export function oneOf<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnion<Literals<T>> {
  return t.Union(
    values.map((v) => t.Literal(v)),
    { error: `must be one of: ${values.join(", ")}`, ...options },
  ) as never;
}
