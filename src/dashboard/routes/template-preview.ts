// The Templates page's live preview and the diff between two versions. A preview renders through
// TemplatesService.preview (the same sandbox, limits and Chromium as a report) and creates no report.
// From the page's script it answers JSON (the PDF in base64, its pages, size and preflight warnings);
// from the form without JavaScript ("Preview PDF"), the PDF itself.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError, RenderError } from "../../lib/errors";
import type { TemplateVersion } from "../../modules/templates/model";
import { type Ctx, DASHBOARD, type DashboardDeps, type Form, type Guards } from "../guards";
import { errorPage } from "../pages/common";
import { type DiffSide, diffPage } from "../pages/template-diff";
import { htmlResponse, pageHeaders } from "../security";
import type { Session } from "../sessions";
import { parseTemplateForm } from "./template-form";

const wantsJson = (request: Request) => (request.headers.get("accept") ?? "").includes("application/json");

const pretty = (v: unknown) => (v === null || v === undefined ? "" : `${JSON.stringify(v, null, 2)}\n`);

const sideOf = (v: TemplateVersion): DiffSide => ({
  version: v.version,
  parts: {
    template: v.htmlTemplate,
    "sample data": pretty(v.sampleData),
    schema: pretty(v.dataSchema),
    options: pretty(v.options),
  },
});

export function templatePreviewRoutes(d: DashboardDeps, g: Guards) {
  const render = async (s: Session, form: Form) => {
    // A preview renders like a report: a key that may edit templates may preview them.
    requireScope(s.scopes, "templates:write", "previewing a template");
    const parsed = parseTemplateForm(form, d.templateMaxLength);
    const problems = Object.entries(parsed.errors).filter(([field]) => field !== "name" && field !== "data_schema");
    if (problems.length) {
      throw new AppError(
        "validation_failed",
        problems.map(([, problem]) => problem).join(" "),
        problems.map(([field, problem]) => ({ field, problem })),
      );
    }
    const started = performance.now();
    const out = await d.templates.preview(s.accountId, {
      engine: parsed.input.engine,
      htmlTemplate: parsed.input.htmlTemplate,
      data: parsed.sampleData ?? {},
      options: parsed.options,
    });
    return { ...out, ms: Math.round(performance.now() - started) };
  };

  const jsonPreview = g.jsonAction(async (_c, s, form) => {
    const out = await render(s, form);
    return { pdf: Buffer.from(out.pdf).toString("base64"), pages: out.pages, bytes: out.bytes, ms: out.ms, warnings: out.warnings };
  });

  const pdfPreview = g.action(async (_c, s, form) => {
    const viewer = await g.viewerOf(s);
    try {
      const out = await render(s, form);
      return new Response(out.pdf as Uint8Array<ArrayBuffer>, {
        headers: pageHeaders({ "content-type": "application/pdf", "content-disposition": 'inline; filename="preview.pdf"' }),
      });
    } catch (e) {
      if (e instanceof AppError || e instanceof RenderError) {
        const status = e instanceof AppError ? e.status : 422;
        return htmlResponse(
          errorPage({
            title: "The preview did not render",
            message: e.message,
            viewer,
            section: "templates",
            back: { href: `${DASHBOARD}/templates`, label: "Back to the templates" },
          }),
          status,
        );
      }
      throw e;
    }
  });

  return new Elysia({ name: "dashboard-template-preview" })
    .post(`${DASHBOARD}/templates/preview`, (c: Ctx) => (wantsJson(c.request) ? jsonPreview(c) : pdfPreview(c)))
    .get(
      `${DASHBOARD}/templates/:id/diff`,
      g.page(async ({ params: { id = "" }, query }, s) => {
        requireScope(s.scopes, "templates:read", "comparing versions");
        const detail = await d.templates.get(s.accountId, id);
        const numbers = detail.versions.map((v) => v.version).sort((a, b) => b - a);
        const pick = (raw: string | undefined, fallback: number) => {
          const n = Number(raw);
          if (raw === undefined || raw === "") return fallback;
          if (!numbers.includes(n))
            throw new AppError("not_found", `Template ${detail.template.name} has no version ${raw}: pick one of ${numbers.join(", ")}.`);
          return n;
        };
        const to = pick(query.to, numbers[0]!);
        const from = pick(query.from, numbers[1] ?? to);
        const [a, b] = await Promise.all([d.templates.version(s.accountId, id, from), d.templates.version(s.accountId, id, to)]);
        return htmlResponse(
          diffPage(await g.viewerOf(s), { templateId: id, name: detail.template.name, from: sideOf(a), to: sideOf(b), versions: numbers }),
        );
      }),
    );
}
