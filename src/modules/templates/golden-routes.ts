// Routes of golden samples: /api/v1/templates/{id}/samples, …/versions/{v}/compare and …/approve, and the
// comparisons' pictures. Comparing is synchronous: the answer is the comparison (golden.ts says why).
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, jsonResponses, withAuth, withBody } from "../../http/openapi";
import { notFound } from "../../lib/errors";
import type { GoldenService } from "./golden";
import { compareBody, comparisonSchema, pictureParams, sampleBody, sampleParams, samplesSchema } from "./golden-schemas";
import { toTemplateJson } from "./model";
import { versionNumber } from "./routes";
import { templateIdParams, templateSchema, versionParams } from "./schemas";

const COMPARE_TEXT =
  "Renders every sample of the template with the version and with `base` (default: the template's default version), through the same sandbox and Chromium as " +
  "reports, and compares them page by page on pictures drawn at 96 dpi: `changed_ratio` is the share of a page's pixels whose colour differs by " +
  "more than --golden-tolerance (0.1 of 255 by default, above anti-aliasing noise); a page added or removed is changed (ratio 1). Changed pages link " +
  "a diff PNG (the new page faded, its changed pixels in red) and the two pages. Synchronous: each sample costs two renders (about a second) while the " +
  "request waits, at most 20 samples. 503 preview_unavailable on an instance that renders nothing. Saving a version runs the same comparison.";

export const goldenRoutes = (golden: GoldenService, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "golden-routes", detail: { tags: ["Templates"] } })
    .use(guard)
    .get(
      "/templates/:templateID/samples",
      async ({ principal, params }) => ({ data: await golden.samples(principal.accountId, params.templateID) }),
      {
        params: templateIdParams,
        response: withAuth({ 200: samplesSchema, 404: errorSchema }),
        detail: {
          operationId: "listTemplateSamples",
          summary: "A template's golden samples",
          description: "Its named sample data sets, by name, with their data.",
        },
      },
    )
    .post(
      "/templates/:templateID/samples",
      async ({ actor, params, body, set }) => {
        const r = await golden.putSample(actor, params.templateID, body.name, body.data);
        set.status = r === "created" ? 201 : 200;
        return { name: body.name, replaced: r === "replaced" };
      },
      {
        params: templateIdParams,
        body: sampleBody,
        parse: "json",
        response: withBody({
          200: t.Object({ name: t.String(), replaced: t.Literal(true) }),
          201: t.Object({ name: t.String(), replaced: t.Literal(false) }),
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "saveTemplateSample",
          summary: "Save a golden sample",
          description:
            "Stores `data` as a named sample of the template: every new version is compared with the default one on every sample. 201 for a new name, " +
            "200 when it replaced the sample of that name. A template keeps at most 20: a 21st name is 409 sample_limit_reached (details.limit).",
        },
      },
    )
    .delete(
      "/templates/:templateID/samples/:name",
      async ({ actor, params }) => {
        await golden.deleteSample(actor, params.templateID, params.name);
        return { data: { name: params.name, deleted: true } };
      },
      {
        params: sampleParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ name: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          operationId: "deleteTemplateSample",
          summary: "Delete a golden sample",
          description: "404 for an unknown name or another account's template.",
        },
      },
    )
    .post(
      "/templates/:templateID/versions/:version/compare",
      async ({ principal, params, body }) =>
        golden.compare(principal.accountId, params.templateID, versionNumber(params.version), body?.base),
      {
        params: versionParams,
        body: t.Optional(compareBody),
        parse: "json",
        response: withBody({ 200: comparisonSchema, 404: errorSchema, 422: errorSchema, 503: errorSchema }),
        detail: {
          operationId: "compareTemplateVersion",
          summary: "Compare a version with another on the golden samples",
          description: COMPARE_TEXT,
        },
      },
    )
    .get(
      "/templates/:templateID/versions/:version/compare",
      async ({ principal, params }) => golden.latest(principal.accountId, params.templateID, versionNumber(params.version)),
      {
        params: versionParams,
        response: withAuth({ 200: comparisonSchema, 404: errorSchema }),
        detail: {
          operationId: "getTemplateComparison",
          summary: "The last comparison of a version",
          description: "As its save or POST …/compare answered it; 404 when it was never compared.",
        },
      },
    )
    .post(
      "/templates/:templateID/versions/:version/approve",
      async ({ actor, params }) => ({
        data: toTemplateJson(await golden.approve(actor, params.templateID, versionNumber(params.version))),
      }),
      {
        params: versionParams,
        response: withAuth({ 200: t.Object({ data: templateSchema }), 404: errorSchema }),
        detail: {
          operationId: "approveTemplateVersion",
          summary: "Approve a version",
          description:
            "Makes the version the template's default_version while require_approval is on (generation requests without template_version render it), " +
            "whatever its comparison found; the audit trail records it (template.version_approved).",
        },
      },
    )
    .get(
      "/templates/:templateID/pictures/:picture",
      async ({ principal, params }) => {
        const sha = /^([0-9a-f]{64})\.png$/.exec(params.picture)?.[1] ?? "";
        const png = await golden.picture(principal.accountId, params.templateID, sha);
        if (!png) throw notFound("picture of template", params.templateID);
        return new Response(new Blob([png as Uint8Array<ArrayBuffer>]), {
          headers: {
            "content-type": "image/png",
            "cache-control": "private, max-age=86400, immutable",
            "x-content-type-options": "nosniff",
          },
        });
      },
      {
        params: pictureParams,
        detail: {
          operationId: "getComparisonPicture",
          summary: "A picture of a comparison",
          description: "A PNG a comparison links (diff, before, after); named by its sha256, so it never changes.",
          responses: {
            ...jsonResponses(withAuth({ 404: errorSchema })),
            200: { description: "The picture", content: { "image/png": { schema: { type: "string", format: "binary" } } } },
          },
        },
      },
    );
