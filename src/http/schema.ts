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
