// How a route declaration names what the OpenAPI document shows: a schema's name in components.schemas,
// a reference to a schema declared elsewhere, and the headers a response carries. These are annotations
// on the TypeBox schemas themselves (TypeBox and Elysia ignore keys they do not know); the document is
// finished from them in one place, http/openapi-document.ts, which removes them again.
import type { TSchema } from "@sinclair/typebox";

/** The annotation that names a schema: components.schemas holds it once, and every use refers to it. */
export const SCHEMA_NAME = "x-reportgen-name";
/** The annotation of a stand-in: the document shows a reference to the named schema instead of it. */
export const SCHEMA_REF = "x-reportgen-ref";
/** The annotation of a response schema listing the headers that response carries (name → description). */
export const RESPONSE_HEADERS = "x-reportgen-headers";

/** The name of a schema in components.schemas: a resource's name in PascalCase (Report, AccessKey). */
export function named<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [SCHEMA_NAME]: name };
}

/** `named` as a schema option, for a declaration that passes options anyway: `t.Object(props, { ...nameOption("Invoice") })`. */
export const nameOption = (name: string) => ({ [SCHEMA_NAME]: name });

/** `documentedAs` as a schema option. */
export const refOption = (name: string) => ({ [SCHEMA_REF]: name });

/**
 * A schema the document shows as a reference to `name`, a schema declared once elsewhere (a module's
 * `docs.schemas`): for a field the route accepts loosely because a service checks it itself with its own
 * messages (options.e_invoice, checked against the e-invoice model by the e-invoice check).
 */
export function documentedAs<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [SCHEMA_REF]: name };
}

/** A response schema whose answer carries these headers besides those every answer has (X-Request-Id). */
export function withResponseHeaders<T extends TSchema>(schema: T, headers: Record<string, string>): T {
  return { ...schema, [RESPONSE_HEADERS]: headers };
}
