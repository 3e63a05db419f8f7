// Routes of /api/v1/templates: stored, versioned templates. All in this file, so that scopes
// (templates:read / templates:write) and audit events can be attached in one place.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import { withResponseHeaders } from "../../http/openapi-names";
import { pageQuery, pageSchema } from "../../http/schema";
import { idempotencyHeaders } from "../idempotency/model";
import { type IdempotencyService, idempotentRequest } from "../idempotency/service";
import type { ComparisonJson } from "./golden";
import { comparisonSchema } from "./golden-schemas";
import { type TemplateOptions, toTemplateJson, toVersionJson } from "./model";
import {
  createdSchema,
  createTemplateBody,
  listTemplatesQuery,
  patchTemplateBody,
  templateIdParams,
  templateSchema,
  versionBody,
  versionParams,
  versionSchema,
} from "./schemas";
import type { TemplatesService } from "./service";

export interface TemplatesRoutesOptions {
  templateMaxLength: number;
  idempotency: IdempotencyService;
}

/** "3" → 3; anything that is not a version number → NaN (the service answers 404). */
export const versionNumber = (s: string) => (/^[1-9][0-9]{0,8}$/.test(s) ? Number(s) : Number.NaN);

export const templatesRoutes = (templates: TemplatesService, guard: ReturnType<typeof apiGuard>, opts: TemplatesRoutesOptions) =>
  new Elysia({ name: "templates-routes", detail: { tags: ["Templates"] } })
    .use(guard)
    .post(
      "/templates",
      async ({ principal, actor, body, set, headers, request }) => {
        const r = await opts.idempotency.run(
          idempotentRequest({ principal, headers, request, body }),
          () => undefined,
          async () => {
            const c = await templates.create(actor, {
              name: body.name,
              engine: body.engine,
              htmlTemplate: body.html_template,
              dataSchema: body.data_schema,
              sampleData: body.sample_data,
              options: body.options as TemplateOptions | undefined,
              requireApproval: body.require_approval,
            });
            return {
              status: 201,
              headers: { location: `/api/v1/templates/${c.template.id}` },
              body: { template_id: c.template.id, version: c.version.version, warnings: c.warnings },
            };
          },
        );
        set.status = r.status;
        Object.assign(set.headers, r.headers);
        if (r.replayed) set.headers["idempotent-replayed"] = "true";
        return r.body;
      },
      {
        body: createTemplateBody(opts.templateMaxLength),
        headers: idempotencyHeaders,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({
          201: withResponseHeaders(createdSchema, { Location: "The new template: /api/v1/templates/{template_id}" }),
          409: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "createTemplate",
          summary: "Store a template",
          description:
            "Creates a template with its version 1 and answers 201 with `template_id`, `version` and the preflight's `warnings`: characters no installed font has " +
            "(missing_glyphs), resources the network policy refuses (blocked_resource), and the page count and size of `sample_data` rendered through the same " +
            "sandbox and Chromium as a report (sample_render, or sample_render_failed). Warnings never refuse a save. " +
            "`data_schema` (JSON Schema draft 2020-12; `pattern` in RE2 syntax, without backreferences or lookaround) is checked itself and `sample_data` " +
            "against it, each within the server's --schema-timeout (2 s by default): 422 validation_failed otherwise, naming the place. " +
            "`options` are the defaults of generation requests by this template (not `encryption`: its passwords are never stored). " +
            "With an `Idempotency-Key` header, a retry within 24 hours returns the same template instead of creating a second one.",
        },
      },
    )
    .post(
      "/templates/:templateID/versions",
      async ({ actor, params, body, set }) => {
        const r = await templates.addVersion(actor, params.templateID, {
          htmlTemplate: body.html_template,
          dataSchema: body.data_schema,
          sampleData: body.sample_data,
          options: body.options as TemplateOptions | undefined,
        });
        set.status = 201;
        set.headers.location = `/api/v1/templates/${params.templateID}/versions/${r.version.version}`;
        return {
          template_id: params.templateID,
          version: r.version.version,
          warnings: r.warnings,
          comparison: (r.comparison ?? null) as ComparisonJson | null,
        };
      },
      {
        params: templateIdParams,
        body: versionBody(opts.templateMaxLength),
        parse: "json",
        response: withBody({
          201: t.Composite([
            createdSchema,
            t.Object({
              comparison: t.Union([comparisonSchema, t.Null()], {
                description:
                  "The new version compared with the default before it on every golden sample; null without samples, or without a renderer here",
              }),
            }),
          ]),
          404: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "createTemplateVersion",
          summary: "Save a new version",
          description:
            "Versions are immutable: every save adds the next number (n+1) with its own html_template, data_schema, sample_data and options (nothing is " +
            "inherited from the previous version), checked and preflighted as on creation. Generation requests without `template_version` use it from now on, " +
            "unless the template has require_approval: then only once its comparison is `same` on every golden sample, or it is approved " +
            "(POST …/versions/{v}/approve). With golden samples the save waits for their comparison (two renders a sample) and answers it in `comparison`.",
        },
      },
    )
    .get(
      "/templates",
      async ({ principal, query }) => {
        const page = await templates.list(principal.accountId, pageQuery(query));
        return { data: page.items.map(toTemplateJson), next_cursor: page.nextCursor };
      },
      {
        query: listTemplatesQuery,
        response: withAuth({
          200: pageSchema(templateSchema),
          400: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "listTemplates",
          summary: "List the account's templates",
          description: "Newest first, `limit` per page (default 20, at most 100).",
        },
      },
    )
    .get(
      "/templates/:templateID",
      async ({ principal, params }) => {
        const d = await templates.get(principal.accountId, params.templateID);
        return {
          data: {
            ...toTemplateJson(d.template),
            latest: toVersionJson(d.latest),
            versions: d.versions.map((v) => ({ version: v.version, created_at: new Date(v.createdAt).toISOString() })),
          },
        };
      },
      {
        params: templateIdParams,
        response: withAuth({
          200: t.Object({
            data: t.Composite([
              templateSchema,
              t.Object({
                latest: versionSchema,
                versions: t.Array(t.Object({ version: t.Integer(), created_at: t.String({ format: "date-time" }) }), {
                  description: "Every version, newest first",
                }),
              }),
            ]),
          }),
          404: errorSchema,
        }),
        detail: {
          operationId: "getTemplate",
          summary: "A template",
          description: "The template with its latest version in full and the list of its versions.",
        },
      },
    )
    .get(
      "/templates/:templateID/versions/:version",
      async ({ principal, params }) => ({
        data: toVersionJson(await templates.version(principal.accountId, params.templateID, versionNumber(params.version))),
      }),
      {
        params: versionParams,
        response: withAuth({ 200: t.Object({ data: versionSchema }), 404: errorSchema }),
        detail: {
          operationId: "getTemplateVersion",
          summary: "One version of a template",
          description: "Exactly as it was saved, with the warnings of its preflight.",
        },
      },
    )
    .delete(
      "/templates/:templateID",
      async ({ actor, params }) => {
        await templates.delete(actor, params.templateID);
        return { data: { template_id: params.templateID, deleted: true } };
      },
      {
        params: templateIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ template_id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          operationId: "deleteTemplate",
          summary: "Delete a template",
          description:
            "Deletes the template and all its versions; generation requests naming it get 404 from now on. Reports already made from it, queued ones " +
            "included, keep their PDFs and still show its template_id and template_version.",
        },
      },
    )
    .patch(
      "/templates/:templateID",
      async ({ actor, params, body }) => ({
        data: toTemplateJson(await templates.setRequireApproval(actor, params.templateID, body.require_approval)),
      }),
      {
        params: templateIdParams,
        body: patchTemplateBody,
        parse: "json",
        response: withBody({ 200: t.Object({ data: templateSchema }), 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "updateTemplate",
          summary: "Change a template's settings",
          description:
            "`require_approval`: on, a new version whose comparison with the golden samples is `changed` becomes the default only once approved " +
            "(the default stays the version in use when it was turned on); off, the latest version is the default again. The audit trail records it.",
        },
      },
    );
