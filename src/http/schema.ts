// Schema helpers for routes.

import type { SchemaOptions, TLiteral, TSchema, TUnion } from "@sinclair/typebox";
import { t } from "elysia";
import { validationFailed } from "../lib/errors";

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

/**
 * Checks the range of a numeric query field. (Elysia validates a converted numeric field on its own,
 * and its error then loses the field's name, so ranges are checked here.)
 */
export function queryNumber(
  field: string,
  value: number | undefined,
  min: number,
  max: number,
  opts: { integer?: boolean } = {},
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < min || value > max || (opts.integer && !Number.isInteger(value))) {
    const what = opts.integer ? "a whole number" : "a number";
    throw validationFailed(`${field} must be ${what} from ${min} to ${max}`, [{ field, problem: `${what} from ${min} to ${max}` }]);
  }
  return value;
}

/** The query fields of a listing in cursor pages (GET /reports, /templates, /audit-events). */
export function pageQueryFields(what: string, defaultLimit: number) {
  return {
    limit: t.Optional(
      t.Numeric({ description: `${what} per page, a whole number from 1 to 100 (default ${defaultLimit})`, examples: [defaultLimit] }),
    ),
    cursor: t.Optional(t.String({ maxLength: 200, description: "next_cursor of the previous page" })),
  };
}

/** The page a listing's query asks for, its limit checked (the service applies its default). */
export function pageQuery(query: { limit?: number; cursor?: string }): { limit?: number; cursor?: string } {
  return { cursor: query.cursor, limit: queryNumber("limit", query.limit, 1, 100, { integer: true }) };
}

/** A listing's answer: one page of items, and where the next one starts. */
export function pageSchema<T extends TSchema>(item: T) {
  return t.Object({
    data: t.Array(item),
    next_cursor: t.Nullable(t.String({ description: "Pass as cursor for the next page; null on the last page" })),
  });
}
