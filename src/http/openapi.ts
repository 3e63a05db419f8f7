// The OpenAPI document and an offline docs page: Swagger UI's assets are served from the binary.
import { openapi } from "@elysiajs/openapi";
import { Elysia, t } from "elysia";
// @ts-expect-error: a .js file imported as text has no type declarations
import uiScript from "../../node_modules/swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import uiStyle from "../../node_modules/swagger-ui-dist/swagger-ui.css" with { type: "text" };
import { API_PREFIX } from "./auth";
import { apiDescription } from "./openapi-description";

export const errorSchema = t.Object({
  error: t.String({ description: "Stable machine-readable code" }),
  message: t.String({ description: "What is wrong and how to fix it" }),
  details: t.Optional(t.Any({ description: "Field-level problems for validation_failed" })),
});

const ASSETS = "/docs-assets";

export const docs = (version: string) =>
  new Elysia({ name: "docs" })
    .use(
      openapi({
        path: `${API_PREFIX}/docs`,
        specPath: `${API_PREFIX}/openapi.json`,
        provider: "swagger-ui",
        swagger: { cdn: `${ASSETS}/swagger-ui-bundle.js`, theme: `${ASSETS}/swagger-ui.css`, autoDarkMode: false },
        exclude: { paths: [/^\/docs-assets/, `${API_PREFIX}/docs`, `${API_PREFIX}/openapi.json`] },
        documentation: {
          info: { title: "reportgen", version, description: apiDescription },
          servers: [{ url: "/" }],
          tags: [
            { name: "Reports", description: "Generate PDFs and fetch them" },
            { name: "Access keys", description: "Manage the keys of your account" },
            { name: "Service", description: "Health and downloads (no X-API-Key)" },
          ],
          components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key" } } },
          security: [{ apiKey: [] }],
        },
      }),
    )
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => new Response(uiScript, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }), { detail: { hide: true } })
    .get(`${ASSETS}/swagger-ui.css`, () => new Response(uiStyle, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=86400" } }), { detail: { hide: true } });
