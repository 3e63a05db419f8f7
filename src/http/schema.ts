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

/** What a numeric query field takes, as its messages and its document say it. */
export interface QueryNumber {
  minimum: number;
  maximum: number;
  integer?: boolean;
  /** The unit, in the plural ("seconds"). */
  unit?: string;
  default?: number;
  description: string;
}

const takes = (q: Omit<QueryNumber, "description">) =>
  `${q.integer ? "a whole number" : "a number"}${q.unit ? ` of ${q.unit}` : ""} from ${q.minimum} to ${q.maximum}`;

/**
 * A numeric query field: a number in the query string, its bounds and default declared for the document
 * (as Elysia's t.Numeric, whose own check would lose the field's name: queryNumber() checks the range) and
 * its message saying what it takes ("must be a number of seconds from 0 to 30", for ?wait=abc too).
 */
export function queryNumberField(q: QueryNumber) {
  const { unit: _, integer, ...bounds } = q;
  return t
    .Transform(
      t.Union([t.String({ format: integer ? "integer" : "numeric" }), integer ? t.Integer() : t.Number()], {
        ...bounds,
        error: `must be ${takes(q)}`,
      }),
    )
    .Decode((v) => +v)
    .Encode((v) => v);
}

/**
 * Checks the range of a numeric query field. (Elysia validates a converted numeric field on its own,
 * and its error then loses the field's name, so ranges are checked here.)
 */
export function queryNumber(field: string, value: number | undefined, q: Omit<QueryNumber, "description">): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < q.minimum || value > q.maximum || (q.integer && !Number.isInteger(value))) {
    throw validationFailed(`${field} must be ${takes(q)}`, [{ field, problem: takes(q) }]);
  }
  return value;
}

const LIMIT = { minimum: 1, maximum: 100, integer: true } as const;

/** The query fields of a listing in cursor pages (GET /reports, /templates, /audit-events). */
export function pageQueryFields(what: string, defaultLimit: number) {
  return {
    limit: t.Optional(queryNumberField({ ...LIMIT, default: defaultLimit, description: `${what} per page (default ${defaultLimit})` })),
    cursor: t.Optional(t.String({ maxLength: 200, description: "next_cursor of the previous page" })),
  };
}

/** The page a listing's query asks for, its limit checked (the service applies its default). */
export function pageQuery(query: { limit?: number; cursor?: string }): { limit?: number; cursor?: string } {
  return { cursor: query.cursor, limit: queryNumber("limit", query.limit, LIMIT) };
}

/** A listing's answer: one page of items, and where the next one starts. */
export function pageSchema<T extends TSchema>(item: T) {
  return t.Object({
    data: t.Array(item),
    next_cursor: t.Nullable(t.String({ description: "Pass as cursor for the next page; null on the last page" })),
  });
}
