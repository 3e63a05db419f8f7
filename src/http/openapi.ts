// The OpenAPI document and an offline docs page: Swagger UI's assets are served from the binary.
import { toOpenAPISchema } from "@elysiajs/openapi";
import type { TSchema } from "@sinclair/typebox";
import { FormatRegistry } from "@sinclair/typebox";
import { type AnyElysia, Elysia, t } from "elysia";
import uiStyle from "../../node_modules/swagger-ui-dist/swagger-ui.css" with { type: "text" };
// @ts-expect-error: a .js file imported as text has no type declarations
import uiScript from "../../node_modules/swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import type { ScopeList } from "../access/scopes";
import { apiErrorCodes } from "../lib/error-codes";
import { UUID_RE } from "../lib/ids";
import { RFC3339_DATE_TIME } from "../lib/time";
import { API_PREFIX } from "./auth";
import { apiDescription } from "./openapi-description";
import { finishDocument } from "./openapi-document";
import { named } from "./openapi-names";

// TypeBox checks the formats of every response field, and the checks the plugins register are slow for
// what we emit: importing @elysiajs/openapi makes "uuid" build a Zod schema per call, and Elysia's
// "date-time" runs three regexes and parses a Date per value (a listing has 80 of them; together these
// were a quarter of its CPU). One anchored regex each checks exactly what OpenAPI means by the format.
FormatRegistry.Set("uuid", (value) => UUID_RE.test(value));
FormatRegistry.Set("date-time", (value) => RFC3339_DATE_TIME.test(value));

const text = (description: string) => t.String({ description });
const closed = { additionalProperties: false } as const;

/** What `details` holds, by error: each shape the server sends, named once. */
const errorDetails = t.Union(
  [
    named(
      "FieldProblems",
      t.Array(
        t.Object(
          {
            field: text("Where: a JSON path such as options.margin.top, or (body)"),
            problem: text("What is wrong there"),
            path: t.Optional(text("For a value checked against a data_schema: the JSON Pointer of the place in it")),
            valid: t.Optional(t.Array(t.String(), { description: "The values the field takes (an unknown scope)" })),
          },
          closed,
        ),
        {
          description: "validation_failed, the *_conflict codes, the signing identity's codes: each problem and where",
        },
      ),
    ),
    named(
      "RuleViolations",
      t.Array(
        t.Object(
          {
            rule: text("The rule broken: an EN 16931 business rule (BR-CO-10), a format's (BR-DE-1), or schema"),
            field: text("The JSON path of the field concerned"),
            problem: text("What is wrong"),
          },
          closed,
        ),
        { description: "e_invoice_invalid: each broken rule, with the JSON path it concerns" },
      ),
    ),
    named(
      "RenderFailure",
      t.Object({ code: text("The report failure code the preview ran into"), message: text("What to change") }, closed),
    ),
    t.Object(
      { byte_offset: t.Integer({ minimum: 0, description: "invalid_json: where the body stops being UTF-8, or holds a lone surrogate" }) },
      closed,
    ),
    t.Object({ required_scope: text("forbidden: the scope the route needs, which the key lacks") }, closed),
    t.Object(
      { missing_scopes: t.Array(t.String(), { description: "forbidden: the scopes a new key would have that the creating key lacks" }) },
      closed,
    ),
    t.Object({ element: text("asset_unsafe: the SVG element refused"), problem: text("Why") }, closed),
    t.Object(
      { size: t.Integer({ description: "asset_too_large: the upload's bytes" }), limit: t.Integer({ description: "The limit in bytes" }) },
      closed,
    ),
    t.Object({ limit: t.Integer({ description: "sample_limit_reached: the samples a template keeps at most" }) }, closed),
    t.Object(
      {
        used: t.Integer({ description: "asset_library_full: bytes the account's other assets hold" }),
        size: t.Integer({ description: "The upload's bytes" }),
        limit: t.Integer({ description: "The account's limit in bytes" }),
      },
      closed,
    ),
  ],
  { description: "More about the error, when there is more to say: one of these shapes, by code" },
);

/** Every error answer but 401's: the code (one of a closed list), what to change, and sometimes details. */
export const errorSchema = named(
  "Error",
  t.Object({
    error: t.String({
      enum: apiErrorCodes,
      description: "Stable machine-readable code: one of a closed list (see the API description and the README)",
    }),
    message: t.String({ description: "What is wrong and how to fix it" }),
    details: t.Optional(errorDetails),
  }),
);

/** A reference to a named schema, in a route's own `detail.responses` (those the plugin does not build from TypeBox). */
export const jsonRef = (name: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${name}` } } });

/** An error's content in a route's own `detail.responses`. */
export const errorJson = jsonRef("Error");

/** The 401 of every /api/v1 operation, exactly as the interface specifies it. */
export const unauthorizedSchema = named(
  "Unauthorized",
  t.Object({ error: t.Literal("unauthorized") }, { description: "X-API-Key missing, unknown, wrong or deleted" }),
);

/**
 * A route's responses plus those every authenticated operation can answer: 401; 403 forbidden when the
 * key lacks the route's scope; 429 when the operator set a request limit; 500 internal_error; 503
 * server_busy when too many requests are in progress.
 */
export const withAuth = <R extends Record<number, unknown>>(responses: R) => ({
  403: errorSchema,
  429: errorSchema,
  500: errorSchema,
  503: errorSchema,
  ...responses,
  401: unauthorizedSchema,
});

/**
 * Responses as OpenAPI objects for a route's `detail`, JSON bodies: for a route whose success is not JSON
 * (a file), which must then give no `response` map (the plugin would replace the detail's responses).
 */
export const jsonResponses = (responses: Record<number, { description?: string }>) =>
  Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => [
      status,
      { description: schema.description ?? "An error: `error` names it", content: { "application/json": { schema } } },
    ]),
  );

/** withAuth plus what any request with a JSON body can answer: 400 invalid_json, 408, 413, 415. */
export const withBody = <R extends Record<number, unknown>>(responses: R) =>
  withAuth({ 400: errorSchema, 408: errorSchema, 413: errorSchema, 415: errorSchema, ...responses });

const ASSETS = "/docs-assets";

// Swagger UI from the executable itself: the page works on a network without internet access.
const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reportgen API</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: "${API_PREFIX}/openapi.json", dom_id: "#swagger-ui", deepLinking: true, persistAuthorization: true });</script>
</body>
</html>
`;

/**
 * What the features add to the OpenAPI document: app/modules.ts joins it from their descriptors (http/ imports no feature
 * module). `description` is appended to the API description; `webhooks` is OpenAPI 3.1's `webhooks`.
 */
export interface FeatureDocs {
  /** The closed list of scopes, tabled in the API description. */
  scopes: ScopeList;
  description: string;
  webhooks: Record<string, unknown>;
  /** Named schemas (http/openapi-names.ts) that no route shows whole, such as the e-invoice model. */
  schemas: readonly TSchema[];
}

/** The document from the routes' schemas (@elysiajs/openapi), finished by http/openapi-document.ts. */
function buildDocument(app: AnyElysia, documentation: Record<string, unknown>, schemas: readonly TSchema[]) {
  const { paths, components } = toOpenAPISchema(app, { paths: [/^\/docs-assets/, `${API_PREFIX}/docs`, `${API_PREFIX}/openapi.json`] });
  // As JSON, not through the plugin's conversion, which would drop the description of each union of literals.
  const declared = schemas.map((s) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>);
  // As JSON: the finisher works on a copy, never on the routes' schemas or the modules' webhooks themselves.
  const built = JSON.parse(
    JSON.stringify({ ...documentation, paths, components: { ...(documentation.components as object), ...components } }),
  );
  return finishDocument(built, declared);
}

export const docs = (version: string, features: FeatureDocs) => {
  const documentation = {
    openapi: "3.1.2",
    info: { title: "reportgen", version, description: apiDescription(features.scopes) + features.description },
    servers: [{ url: "/" }],
    tags: [
      { name: "Reports", description: "Generate PDFs and fetch them" },
      { name: "Templates", description: "Stored, versioned templates: generate by template_id" },
      { name: "Access keys", description: "Manage the keys of your account" },
      { name: "Service", description: "Health and downloads (no X-API-Key)" },
      { name: "Webhooks", description: "The account's webhook signing secret" },
      { name: "Audit trail", description: "Who changed the account's keys and secrets, and signed in, from where" },
      { name: "Usage", description: "Reports, pages, bytes and render time per day or per key" },
    ],
    webhooks: features.webhooks,
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key" } } },
    security: [{ apiKey: [] }],
  };
  // Built from every route's schemas on the first request (every route is mounted by then), then kept.
  let built: { routes: number; doc: unknown } | undefined;
  const self = new Elysia({ name: "docs" });
  return self
    .get(
      `${API_PREFIX}/openapi.json`,
      () => {
        const routes = self.routes.length;
        if (built?.routes !== routes) built = { routes, doc: buildDocument(self, documentation, features.schemas) };
        return built.doc;
      },
      { detail: { hide: true } },
    )
    .get(`${API_PREFIX}/docs`, () => new Response(docsPage, { headers: { "content-type": "text/html; charset=utf-8" } }), {
      detail: { hide: true },
    })
    .get(
      `${ASSETS}/swagger-ui-bundle.js`,
      () =>
        new Response(uiScript, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }),
      { detail: { hide: true } },
    )
    .get(
      `${ASSETS}/swagger-ui.css`,
      () => new Response(uiStyle, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=86400" } }),
      { detail: { hide: true } },
    );
};
