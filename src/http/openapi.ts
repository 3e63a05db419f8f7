// The OpenAPI document and an offline docs page: Swagger UI's assets are served from the binary.
import { openapi } from "@elysiajs/openapi";
import { FormatRegistry } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import uiStyle from "../../node_modules/swagger-ui-dist/swagger-ui.css" with { type: "text" };
// @ts-expect-error: a .js file imported as text has no type declarations
import uiScript from "../../node_modules/swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import type { ScopeList } from "../access/scopes";
import { apiErrorCodes } from "../lib/error-codes";
import { UUID_RE } from "../lib/ids";
import { RFC3339_DATE_TIME } from "../lib/time";
import { API_PREFIX } from "./auth";
import { apiDescription } from "./openapi-description";

// TypeBox checks the formats of every response field, and the checks the plugins register are slow for
// what we emit: importing @elysiajs/openapi makes "uuid" build a Zod schema per call, and Elysia's
// "date-time" runs three regexes and parses a Date per value (a listing has 80 of them; together these
// were a quarter of its CPU). One anchored regex each checks exactly what OpenAPI means by the format.
FormatRegistry.Set("uuid", (value) => UUID_RE.test(value));
FormatRegistry.Set("date-time", (value) => RFC3339_DATE_TIME.test(value));

export const errorSchema = t.Object({
  error: t.String({
    enum: apiErrorCodes,
    description: "Stable machine-readable code: one of a closed list (see the API description and the README)",
  }),
  message: t.String({ description: "What is wrong and how to fix it" }),
  details: t.Optional(
    t.Any({
      description:
        "More about the error: the field-level problems of validation_failed, the byte_offset where an invalid_json body stops being UTF-8 or holds a lone surrogate, the scopes a forbidden call lacks",
    }),
  ),
});

/** The 401 of every /api/v1 operation, exactly as the interface specifies it. */
export const unauthorizedSchema = t.Object(
  { error: t.Literal("unauthorized") },
  { description: "X-API-Key missing, unknown, wrong or deleted" },
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
}

export const docs = (version: string, features: FeatureDocs) =>
  new Elysia({ name: "docs" })
    .use(
      openapi({
        // The plugin serves only the JSON; the page is ours (its own page would need a CDN).
        path: `${API_PREFIX}/docs`,
        specPath: `${API_PREFIX}/openapi.json`,
        provider: null,
        exclude: { paths: [/^\/docs-assets/, `${API_PREFIX}/docs`, `${API_PREFIX}/openapi.json`] },
        documentation: {
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
          // The plugin's types cannot express a TypeBox schema inside an OpenAPI 3.1 webhook; the JSON is what counts.
          webhooks: features.webhooks as never,
          components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key" } } },
          security: [{ apiKey: [] }],
        },
      }),
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
