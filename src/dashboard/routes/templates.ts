// Templates: list, create, edit (save as new version), delete; the preview and the diff are in
// template-preview.ts. Every change goes through the same TemplatesService as the API.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import { defaultVersion } from "../../modules/templates/model";
import { type Ctx, DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { html } from "../html";
import type { Viewer } from "../layout";
import { confirmPage, type Notice } from "../pages/common";
import { type StoredTemplate, templateEditorPage } from "../pages/template-editor";
import { templatesPage } from "../pages/templates";
import { htmlResponse, redirect } from "../security";
import type { Session } from "../sessions";
import { fieldOfDetail, inputOf, newTemplateInput, type ParsedForm, parseTemplateForm } from "./template-form";
import { templateGoldenRoutes } from "./template-golden";
import { templatePreviewRoutes } from "./template-preview";

export function templatesRoutes(d: DashboardDeps, g: Guards) {
  /** The editor of a stored template, opened on `version` (the latest by default). */
  const storedOf = async (s: Session, id: string, version?: number) => {
    const detail = await d.templates.get(s.accountId, id);
    const v = version && version !== detail.latest.version ? await d.templates.version(s.accountId, id, version) : detail.latest;
    const stored: StoredTemplate = {
      id,
      name: detail.template.name,
      engine: detail.template.engine,
      latest: detail.latest.version,
      editing: v.version,
      versions: detail.versions,
      golden: {
        samples: (await d.golden.samples(s.accountId, id)).length,
        comparison: await d.golden.latest(s.accountId, id, v.version).catch((e) => {
          if (e instanceof AppError && e.code === "not_found") return undefined;
          throw e;
        }),
        requireApproval: detail.template.requireApproval,
        defaultVersion: defaultVersion(detail.template),
        version: v.version,
      },
    };
    return { stored, version: v };
  };

  /** The editor again with what was typed, the fields in error marked, and the service's reason on top. */
  const refused = (c: Ctx, viewer: Viewer, parsed: ParsedForm, stored: StoredTemplate | undefined, e?: AppError) => {
    const errors = { ...parsed.errors };
    const details = Array.isArray(e?.details) ? e.details : [];
    for (const detail of details) {
      const field = fieldOfDetail(detail);
      const item = detail as { field?: string; problem?: string; message?: string };
      const problem = item.problem ?? item.message;
      // Several details can name one field (a schema's failing paths): each is listed.
      if (field) errors[field] = [errors[field], problem ? `${item.field}: ${problem}` : e?.message].filter(Boolean).join("; ");
    }
    const message: Notice = { kind: "error", text: e ? e.message : "Fix the marked fields, then save again." };
    return htmlResponse(
      templateEditorPage(viewer, {
        input: parsed.input,
        stored,
        origin: d.originOf(c.request),
        templateMaxLength: d.templateMaxLength,
        errors,
        message,
      }),
      e?.status ?? 422,
    );
  };

  const savedNotice = (query: Ctx["query"], stored: StoredTemplate): Notice | undefined => {
    const approved = Number(query.approved);
    if (Number.isInteger(approved) && approved > 0)
      return { kind: "ok", text: `Version ${approved} approved: reports that name no version now use it.` };
    const n = Number(query.saved);
    if (!Number.isInteger(n) || n < 1) return undefined;
    if (n === 1 && stored.latest === 1)
      return { kind: "ok", text: "Template created as version 1. Render it by id with the command below." };
    const inUse = stored.golden?.defaultVersion ?? n;
    return inUse === n
      ? { kind: "ok", text: `Saved as version ${n}. Reports that name no version now use it.` }
      : {
          kind: "warn",
          text: `Saved as version ${n}. Its golden samples changed: reports keep version ${inUse} until you approve it below.`,
        };
  };

  return new Elysia({ name: "dashboard-templates" })
    .get(
      `${DASHBOARD}/templates`,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "templates:read", "listing templates");
        const page = await d.templates.list(s.accountId, { cursor: query.cursor, limit: 50 });
        const message: Notice | undefined = query.deleted
          ? { kind: "ok", text: `Template ${query.deleted} was deleted. Reports already made from it keep their PDFs.` }
          : undefined;
        return htmlResponse(
          templatesPage(await g.viewerOf(s), {
            items: page.items,
            cursor: query.cursor,
            nextCursor: page.nextCursor ?? undefined,
            message,
          }),
        );
      }),
    )
    .get(
      `${DASHBOARD}/templates/new`,
      g.page(async ({ request }, s) => {
        requireScope(s.scopes, "templates:write", "creating a template");
        return htmlResponse(
          templateEditorPage(await g.viewerOf(s), {
            input: newTemplateInput,
            origin: d.originOf(request),
            templateMaxLength: d.templateMaxLength,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/templates`,
      g.action(async (c, s, form) => {
        requireScope(s.scopes, "templates:write", "creating a template");
        const viewer = await g.viewerOf(s);
        const parsed = parseTemplateForm(form, d.templateMaxLength);
        if (!parsed.input.name) parsed.errors.name = "Give the template a name.";
        if (Object.keys(parsed.errors).length) return refused(c, viewer, parsed, undefined);
        try {
          const { template } = await d.templates.create(g.actorOf(c, s), {
            name: parsed.input.name,
            engine: parsed.input.engine,
            htmlTemplate: parsed.input.htmlTemplate,
            dataSchema: parsed.dataSchema,
            sampleData: parsed.sampleData,
            options: parsed.options,
          });
          return redirect(`${DASHBOARD}/templates/${template.id}?saved=1`);
        } catch (e) {
          if (e instanceof AppError && e.status < 500) return refused(c, viewer, parsed, undefined, e);
          throw e;
        }
      }),
    )
    .get(
      `${DASHBOARD}/templates/:id`,
      g.page(async (c, s) => {
        requireScope(s.scopes, "templates:read", "opening a template");
        const requested = Number(c.query.version);
        const { stored, version } = await storedOf(
          s,
          c.params.id ?? "",
          Number.isInteger(requested) && requested > 0 ? requested : undefined,
        );
        const warnings = version.warnings;
        const message =
          savedNotice(c.query, stored) ??
          (warnings.length
            ? ({
                kind: "warn",
                text: html`Preflight of version ${version.version}: ${warnings.map((w) => html`<br>${w.message}`)}`,
              } satisfies Notice)
            : undefined);
        return htmlResponse(
          templateEditorPage(await g.viewerOf(s), {
            input: inputOf(stored.name, stored.engine, version),
            stored,
            origin: d.originOf(c.request),
            templateMaxLength: d.templateMaxLength,
            message,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/templates/:id/versions`,
      g.action(async (c, s, form) => {
        requireScope(s.scopes, "templates:write", "saving a version");
        const viewer = await g.viewerOf(s);
        const { stored } = await storedOf(s, c.params.id ?? "");
        const parsed = parseTemplateForm(form, d.templateMaxLength);
        parsed.input.name = stored.name;
        parsed.input.engine = stored.engine;
        if (Object.keys(parsed.errors).length) return refused(c, viewer, parsed, stored);
        try {
          const { version } = await d.templates.addVersion(g.actorOf(c, s), stored.id, {
            htmlTemplate: parsed.input.htmlTemplate,
            dataSchema: parsed.dataSchema,
            sampleData: parsed.sampleData,
            options: parsed.options,
          });
          return redirect(`${DASHBOARD}/templates/${stored.id}?saved=${version.version}`);
        } catch (e) {
          if (e instanceof AppError && e.status < 500 && e.status !== 404) return refused(c, viewer, parsed, stored, e);
          throw e;
        }
      }),
    )
    .get(
      `${DASHBOARD}/templates/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "templates:write", "deleting a template");
        const { template } = await d.templates.get(s.accountId, id);
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "templates",
            title: "Delete this template?",
            question: html`Delete the template <strong>${template.name}</strong> (<span class="mono">${template.id}</span>) and its ${template.latestVersion === 1 ? "version" : `${template.latestVersion} versions`}?`,
            consequence:
              "Requests that name it are refused from then on (404). Reports already made from it keep their PDFs, and still say which version made them.",
            action: `${DASHBOARD}/templates/${template.id}/delete`,
            button: `Delete ${template.name}`,
            cancel: `${DASHBOARD}/templates/${template.id}`,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/templates/:id/delete`,
      g.action(async (c, s) => {
        requireScope(s.scopes, "templates:write", "deleting a template");
        const id = c.params.id ?? "";
        await d.templates.delete(g.actorOf(c, s), id);
        return redirect(`${DASHBOARD}/templates?deleted=${encodeURIComponent(id)}`);
      }),
    )
    .use(templatePreviewRoutes(d, g))
    .use(templateGoldenRoutes(d, g));
}
