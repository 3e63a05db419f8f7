// Stored templates: create, version, list, read, delete; the preflight that every save returns; the live
// preview (no report row); and what a generation request by template_id needs (TemplateSource).
import type { Engine } from "../../db/schema";
import { readPage } from "../../lib/cursor";
import { AppError, notFound, RenderError, validationFailed } from "../../lib/errors";
import { newUuid, UUID_RE } from "../../lib/ids";
import { checkPdfOptions } from "../../pdf/options";
import type { AssetInliner } from "../assets/resolver";
import type { AuditService } from "../audit/service";
import { checkData, type DataLimits } from "../reports/input-limits";
import {
  type Actor,
  type CreateTemplateInput,
  defaultVersion,
  type TemplateDetail,
  type TemplateOptions,
  type TemplateSummary,
  type TemplateVersion,
  type VersionInput,
  type Warning,
} from "./model";
import { type Preflight, preflightOf } from "./preflight";
import type { NewVersion, TemplatesRepo } from "./repo";
import type { SampleRender, SampleRenderer } from "./sample-renderer";
import type { SchemaChecker } from "./schema-validator";

export interface TemplatesServiceOptions {
  templateMaxLength: number;
  dataLimits: DataLimits;
  /** The renderer's --allow-hosts: what the page may load. */
  allowHosts: readonly string[];
  /** The fontconfig file Chromium renders with (glyph coverage is read through it), when there is one. */
  fontconfigFile?: () => string | undefined;
  /** Compiles data_schema and checks data against it, off the event loop (the App starts and stops it). */
  schemas: SchemaChecker;
  /** The asset library: previews inline the account's assets, and the preflight names missing ones. */
  assets?: AssetInliner;
}

/** What POST /generate-pdf-async needs of a stored template. */
export interface ResolvedTemplate {
  templateId: string;
  version: number;
  engine: Engine;
  htmlTemplate: string;
  options: TemplateOptions | null;
  /** The data as JSON text, when it was checked against the version's data_schema (checkData already ran). */
  dataJson?: string;
}

export interface TemplateSource {
  /** The version (latest when absent) of the account's template, with `data` checked against its schema. 404 / 422. */
  forSubmission(accountId: string, templateId: string, version: number | undefined, data: unknown): Promise<ResolvedTemplate>;
}

/**
 * Runs after a version is stored (golden samples: it compares the new version with `base`, the default
 * before it, and may approve it); its answer goes into the save's answer.
 */
export type VersionHook = (actor: Actor, template: TemplateSummary, version: number, base: number) => Promise<unknown>;

/** Runs around a template's deletion: before it, and returns what to run once it is deleted (golden.ts: its pictures). */
export type DeleteHook = (accountId: string, templateId: string) => Promise<() => Promise<void>>;

export class TemplatesService implements TemplateSource {
  private renderer?: SampleRenderer;
  private versionHook?: VersionHook;
  private deleteHook?: DeleteHook;
  private readonly preflightRun: Preflight;

  constructor(
    private readonly repo: TemplatesRepo,
    private readonly audit: AuditService,
    private readonly opts: TemplatesServiceOptions,
  ) {
    this.preflightRun = preflightOf({
      allowHosts: opts.allowHosts,
      fontconfigFile: opts.fontconfigFile,
      assets: opts.assets,
      renderer: () => this.renderer,
    });
  }

  /** Set by the App when it runs a renderer: sample renders and previews go through it. */
  useRenderer(r: SampleRenderer | undefined): void {
    this.renderer = r;
  }

  /** Set once at start-up by the golden samples (golden.ts). */
  onVersionAdded(hook: VersionHook): void {
    this.versionHook = hook;
  }

  /** Set once at start-up by the golden samples (golden.ts): their pictures go with the template. */
  onDelete(hook: DeleteHook): void {
    this.deleteHook = hook;
  }

  /**
   * Renders `data` (JSON text) with the account's template's version `n`, as the preview does; 503
   * preview_unavailable without a running renderer; rejects with the RenderError of a failed render.
   */
  async renderVersion(accountId: string, t: TemplateSummary, n: number, data: string): Promise<SampleRender> {
    const v = await this.version(accountId, t.id, n);
    const r = this.renderer;
    if (!r?.ready)
      throw new AppError("preview_unavailable", "this instance has no running renderer (Chromium and the EJS sandboxes): retry later");
    return r.render(accountId, t.engine, v.htmlTemplate, t.engine === "ejs" ? data : "{}", v.options);
  }

  /** Turns approval of changed versions on or off (PATCH /templates/{id}). */
  async setRequireApproval(actor: Actor, id: string, on: boolean): Promise<TemplateSummary> {
    const t = await this.summary(actor.accountId, id);
    await this.repo.transaction(async () => {
      await this.repo.setRequireApproval(t.id, actor.accountId, on, Date.now());
      await this.audit.record(actor, "template.updated", t.id, { require_approval: on });
    });
    return this.summary(actor.accountId, id);
  }

  /** Makes version `n` the approved one: the default while approval is required. The audit trail records it. */
  async approve(actor: Actor, id: string, n: number, comparison?: string): Promise<TemplateSummary> {
    const t = await this.summary(actor.accountId, id);
    await this.version(actor.accountId, id, n);
    await this.repo.transaction(async () => {
      await this.repo.approve(t.id, actor.accountId, n, Date.now());
      await this.audit.record(actor, "template.version_approved", t.id, { version: n, previous: defaultVersion(t), comparison });
    });
    return this.summary(actor.accountId, id);
  }

  /** The account's template (404 otherwise). */
  async summary(accountId: string, id: string): Promise<TemplateSummary> {
    const t = UUID_RE.test(id) ? await this.repo.get(id, accountId) : undefined;
    if (!t) throw notFound("template", id);
    return t;
  }

  async create(
    actor: Actor,
    input: CreateTemplateInput,
  ): Promise<{ template: TemplateSummary; version: TemplateVersion; warnings: Warning[] }> {
    const name = input.name.trim();
    if (!name) throw validationFailed("name must not be blank", [{ field: "name", problem: "blank" }]);
    const { row, version } = await this.prepareVersion(actor.accountId, input.engine, input);
    const template = await this.repo.transaction(async () => {
      const t = await this.repo.create(
        {
          id: newUuid(),
          accountId: actor.accountId,
          name,
          engine: input.engine,
          createdAt: row.createdAt,
          requireApproval: input.requireApproval,
        },
        row,
      );
      await this.audit.record(actor, "template.created", t.id, { name, engine: input.engine, version: 1 }, row.createdAt);
      return t;
    });
    return { template, version: { ...version, templateId: template.id, version: 1 }, warnings: version.warnings };
  }

  async addVersion(
    actor: Actor,
    templateId: string,
    input: VersionInput,
  ): Promise<{ version: TemplateVersion; warnings: Warning[]; comparison?: unknown }> {
    const t = await this.summary(actor.accountId, templateId);
    const { row, version } = await this.prepareVersion(actor.accountId, t.engine, input);
    const n = await this.repo.transaction(async () => {
      const added = await this.repo.addVersion(t.id, actor.accountId, row);
      if (added !== undefined) await this.audit.record(actor, "template.version_created", t.id, { version: added }, row.createdAt);
      return added;
    });
    if (n === undefined) throw notFound("template", templateId); // deleted meanwhile
    const comparison = await this.versionHook?.(actor, t, n, defaultVersion(t));
    return { version: { ...version, templateId: t.id, version: n }, warnings: version.warnings, comparison };
  }

  async list(
    accountId: string,
    q: { cursor?: string; limit?: number } = {},
  ): Promise<{ items: TemplateSummary[]; nextCursor: string | null }> {
    return readPage({ cursor: q.cursor, limit: q.limit ?? 20 }, "template", (after, limit) => this.repo.list({ accountId, limit, after }));
  }

  async get(accountId: string, id: string): Promise<TemplateDetail> {
    const template = await this.summary(accountId, id);
    const [latest, versions] = await Promise.all([this.repo.version(id, accountId, template.latestVersion), this.repo.versions(id)]);
    if (!latest) throw notFound("template", id); // deleted between the two reads
    return { template, latest, versions };
  }

  async version(accountId: string, id: string, n: number): Promise<TemplateVersion> {
    await this.summary(accountId, id);
    const v = Number.isInteger(n) && n >= 1 ? await this.repo.version(id, accountId, n) : undefined;
    if (!v) throw notFound(`version ${n} of template`, id);
    return v;
  }

  /** Deletes the template and its versions. Reports made from it keep their PDFs and their copy of the template. */
  async delete(actor: Actor, id: string): Promise<void> {
    const after = UUID_RE.test(id) ? await this.deleteHook?.(actor.accountId, id) : undefined;
    const deleted =
      UUID_RE.test(id) &&
      (await this.repo.transaction(async () => {
        const gone = await this.repo.delete(id, actor.accountId);
        if (gone) await this.audit.record(actor, "template.deleted", id);
        return gone;
      }));
    if (!deleted) throw notFound("template", id);
    await after?.();
  }

  /** The warnings a save would return, without saving. */
  async preflight(
    accountId: string,
    input: { engine: Engine; htmlTemplate: string; sampleData?: unknown; options?: TemplateOptions },
  ): Promise<Warning[]> {
    this.checkTemplate(input.htmlTemplate);
    const sample =
      input.sampleData === undefined || input.sampleData === null ? undefined : this.checkJson(input.sampleData, "sample_data");
    return (await this.preflightRun(accountId, input.engine, input.htmlTemplate, sample, input.options ?? null)).warnings;
  }

  /** Renders a PDF for the editor: the same sandbox, limits and Chromium as a report, and no report row. */
  async preview(
    accountId: string,
    input: { engine: Engine; htmlTemplate: string; data?: unknown; options?: TemplateOptions },
  ): Promise<{ pdf: Uint8Array; pages: number; bytes: number; pageSize?: { widthMm: number; heightMm: number }; warnings: Warning[] }> {
    this.checkTemplate(input.htmlTemplate);
    if (input.options) checkPdfOptions(input.options);
    const data = input.engine === "ejs" ? this.checkJson(input.data ?? {}, "data") : "{}";
    const r = this.renderer;
    if (!r?.ready)
      throw new AppError("preview_unavailable", "this instance has no running renderer (Chromium and the EJS sandboxes): retry later");
    try {
      const out = await r.render(accountId, input.engine, input.htmlTemplate, data, input.options ?? null);
      const { warnings } = await this.preflightRun(accountId, input.engine, input.htmlTemplate, data, input.options ?? null, out.html);
      return { pdf: out.pdf, pages: out.pages, bytes: out.bytes, pageSize: out.pageSize, warnings };
    } catch (e) {
      if (e instanceof RenderError)
        throw new AppError("template_render_failed", `the preview failed: ${e.code}: ${e.message}`, { code: e.code, message: e.message });
      throw e;
    }
  }

  async forSubmission(accountId: string, templateId: string, version: number | undefined, data: unknown): Promise<ResolvedTemplate> {
    const t = await this.summary(accountId, templateId);
    const n = version ?? defaultVersion(t);
    const v = await this.repo.version(t.id, accountId, n);
    if (!v) throw notFound(`version ${n} of template`, templateId);
    let dataJson: string | undefined;
    if (v.dataSchema !== null && t.engine === "ejs") {
      // Within the data limits first: the schema thread is then handed at most --data-max-size of JSON.
      dataJson = checkData(data, this.opts.dataLimits);
      await this.opts.schemas.checkData(JSON.stringify(v.dataSchema), dataJson);
    }
    return { templateId: t.id, version: v.version, engine: t.engine, htmlTemplate: v.htmlTemplate, options: v.options, dataJson };
  }

  /** Checks a version's input, runs the preflight, and returns the row to insert with the version it becomes. */
  private async prepareVersion(
    accountId: string,
    engine: Engine,
    input: VersionInput,
  ): Promise<{ row: NewVersion; version: TemplateVersion }> {
    this.checkTemplate(input.htmlTemplate);
    const given = (v: unknown) => v !== undefined && v !== null;
    if (engine === "raw" && (given(input.dataSchema) || given(input.sampleData)))
      throw validationFailed("data_schema and sample_data are for engine ejs: a raw template takes no data", [
        { field: given(input.dataSchema) ? "data_schema" : "sample_data", problem: "not allowed with engine raw" },
      ]);
    const options = input.options ?? null;
    if (options) {
      checkPdfOptions(options);
      if (options.encryption)
        throw validationFailed(
          "options.encryption cannot be stored with a template (its passwords would be kept): pass it with each generation request",
          [{ field: "options.encryption", problem: "not stored with templates" }],
        );
    }
    const schema = given(input.dataSchema) ? input.dataSchema : null;
    if (schema !== null) {
      this.checkJson(schema, "data_schema");
      await this.opts.schemas.checkSchema(schema);
    }
    const sample = given(input.sampleData) ? this.checkJson(input.sampleData, "sample_data") : undefined;
    if (schema !== null && sample !== undefined) await this.opts.schemas.checkData(JSON.stringify(schema), sample, "sample_data");
    const { warnings } = await this.preflightRun(accountId, engine, input.htmlTemplate, sample, options);
    const createdAt = Date.now();
    const row: NewVersion = {
      id: newUuid(),
      htmlTemplate: input.htmlTemplate,
      dataSchema: schema === null ? null : JSON.stringify(schema),
      sampleData: sample ?? null,
      options: options ? JSON.stringify(options) : null,
      warnings: JSON.stringify(warnings),
      createdAt,
    };
    const version: TemplateVersion = {
      templateId: "",
      version: 0,
      htmlTemplate: input.htmlTemplate,
      dataSchema: schema,
      sampleData: sample === undefined ? null : JSON.parse(sample),
      options,
      warnings,
      createdAt,
    };
    return { row, version };
  }

  /** The limits of an inline template (the routes' schema checks them too; the dashboard calls here directly). */
  private checkTemplate(html: string): void {
    if (typeof html !== "string" || html.length === 0)
      throw validationFailed("html_template must not be empty", [{ field: "html_template", problem: "empty" }]);
    if (html.length > this.opts.templateMaxLength)
      throw validationFailed(`html_template is longer than ${this.opts.templateMaxLength} characters`, [
        { field: "html_template", problem: `over ${this.opts.templateMaxLength} characters` },
      ]);
  }

  /** A JSON object within the data limits, as JSON text; 422 naming `field`. */
  private checkJson(value: unknown, field: string): string {
    try {
      return checkData(value, this.opts.dataLimits);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const details = (e.details as { field: string; problem: string }[] | undefined)?.map((d) => ({ ...d, field }));
      throw validationFailed(e.message.replace(/^data\b/, field).replace(/with engine "ejs"/, ""), details);
    }
  }
}
